'use strict';
// Every HTTP transport x every lab ABR on the sample, in Chromium, from one page origin (so
// HTTP/1.0-style and HTTP/2 are also exercised cross-origin): the protocol is the one asked
// for, every QoE metric is there and sane, a scripted seek yields a seek wait.
const fs = require('node:fs');
const path = require('node:path');
const { startOrigin } = require('../../origin/start-origin');
const { ensureContent } = require('../../origin/content/ensure-content');
const { readSegmentIndex } = require('../../origin/content/segment-index');
const { runPlayback } = require('../../testbed/run-playback');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
const CONTENT_DIR = path.join(REPO, 'content');

let origin;
let dataDir;
let ladder;
const requests = [];

beforeAll(async () => {
  await ensureContent({ preset: 'sample', contentDir: CONTENT_DIR });
  ladder = readSegmentIndex(path.join(CONTENT_DIR, 'sample')).representations.map((r) => r.bandwidth);
  dataDir = makeLabTempDir('e2e-abr');
  origin = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, contentDir: CONTENT_DIR, dataDir, log: (e) => requests.push(e) });
}, 300000);

afterAll(async () => {
  if (origin) await origin.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const PROTOCOL = { http11: 'http/1.1', http10: 'http/1.1', h2: 'h2' };
const CASES = [];
for (const transport of ['http11', 'http10', 'h2']) for (const abr of ['basic', 'sara', 'bba2']) CASES.push([transport, abr]);

test.each(CASES)('%s with %s: plays, seeks, and reports sane QoE', async (transport, abr) => {
  const before = requests.length;
  const { qoe, pageErrors } = await runPlayback({
    pageBase: origin.urls.http11,
    config: { content: 'sample', transport, abr, seeks: [{ at: 5, to: 30 }], stopAt: 36 },
    timeoutMs: 90000,
  });
  const s = qoe.summary;
  expect(pageErrors).toEqual([]);
  expect(qoe.errors).toEqual([]);
  expect(qoe.config).toMatchObject({ content: 'sample', transport, abr });
  // Every response came over the protocol asked for, and only that.
  expect(Object.keys(s.protocols)).toEqual([PROTOCOL[transport]]);
  expect(Object.keys(s.bytesPerTransport)).toEqual([transport]);
  expect(qoe.segments.every((seg) => seg.protocol === PROTOCOL[transport])).toBe(true);
  // Sane metrics.
  expect(s.startupDelaySeconds).toBeGreaterThan(0);
  expect(s.startupDelaySeconds).toBeLessThan(10);
  expect(s.playSeconds).toBeGreaterThan(8);
  // An unconstrained local link: no rebuffering. On a loaded 2-core machine the decoder can
  // wait a moment for CPU, not for data; anything under dash.js's own 0.3 s stall threshold is
  // that, and the timeline is printed if it ever happens, to tell the two apart.
  if (s.rebufferInstances > 0) {
    const t0 = qoe.timeline[0].t;
    process.stderr.write(`${transport}/${abr} stalls: ${JSON.stringify(qoe.timeline.filter((e) => e.type !== 'segment').map((e) => [e.type, Math.round(e.t - t0)]))}\n`);
  }
  expect(s.rebufferSeconds).toBeLessThan(0.3);
  expect(s.seeks).toHaveLength(1);
  expect(s.seeks[0].waitSeconds).toBeGreaterThan(0);
  expect(s.seeks[0].waitSeconds).toBeLessThan(10);
  expect(s.averagePlaybackBitrate).toBeGreaterThanOrEqual(Math.min(...ladder));
  expect(s.averagePlaybackBitrate).toBeLessThanOrEqual(Math.max(...ladder));
  for (const [, bw] of qoe.bitrateSeries) expect(ladder).toContain(bw);
  expect(s.decodedFrames).toBeGreaterThan(200);
  expect(s.segmentsDownloaded).toBeGreaterThan(4);
  for (const seg of qoe.segments) {
    expect(seg.bytes).toBeGreaterThan(0);
    expect(seg.lastByte).toBeGreaterThanOrEqual(seg.firstByte);
    expect(seg.firstByte).toBeGreaterThanOrEqual(seg.requestStart);
  }
  // Each segment before the seek target is fetched once: dash.js 5's fast switching fetched
  // the segment at the playhead again on every up-switch (segment 1 once per rung).
  const before30 = qoe.segments.filter((seg) => (seg.index - 1) * seg.durationSeconds < 30 - 1e-6).map((seg) => seg.index);
  expect(before30.length).toBeGreaterThan(2);
  expect(new Set(before30).size).toBe(before30.length);
  // The lab's ABR decided (dash.js's rules are off): dash.js consults it before media
  // requests (not before the very first), and what was downloaded is what it chose.
  expect(qoe.decisions.length).toBeGreaterThan(s.segmentsDownloaded / 2);
  const chosen = new Set(qoe.decisions.map((d) => d.bandwidth));
  for (const seg of qoe.segments.slice(1)) expect(chosen).toContain(seg.bandwidth);
  // Each decision looked at the sizes of the segment it was for: the next one requested. (With
  // a plain floor over dash.js's millisecond-rounded buffer level, about 1 in 10 named the
  // segment just buffered.) Decisions whose segment a seek overtook are left out.
  const seekAt = qoe.timeline.filter((e) => e.type === 'seek').map((e) => e.t);
  const checked = qoe.decisions
    .map((d) => ({ d, next: qoe.segments.find((seg) => seg.requestStart >= d.t) }))
    .filter(({ d, next }) => next && !seekAt.some((t) => t >= d.t && t <= next.requestStart));
  expect(checked.length).toBeGreaterThan(3);
  expect(checked.filter(({ d, next }) => d.segmentNumber !== next.index).map(({ d, next }) => [d.segmentNumber, next.index])).toEqual([]);
  // The origin served this run's segments on the listener of the transport.
  // (A seek aborts the request in flight; the page does not count aborted downloads.)
  const served = requests.slice(before).filter((r) => r.listener === transport && /chunk-/.test(r.path) && !r.aborted);
  // The origin may have finished sending one more response that the page dropped when the
  // run stopped (its body unread): at most one.
  expect(served.length - s.segmentsDownloaded).toBeGreaterThanOrEqual(0);
  expect(served.length - s.segmentsDownloaded).toBeLessThanOrEqual(1);
  if (transport === 'http10') {
    // HTTP/1.0-style: a TCP connection per request.
    expect(new Set(served.map((r) => r.connectionId)).size).toBe(served.length);
  }
}, 120000);

test('keeping the pre-seek bitrate holds the representation on screen at the seek, not the last requested one (paper 002)', async () => {
  const { qoe } = await runPlayback({
    pageBase: origin.urls.http11,
    config: { content: 'sample', transport: 'http11', abr: 'basic', seeks: [{ at: 8, to: 40 }], stopAt: 46, keepBitrateOnSeek: true },
    timeoutMs: 90000,
  });
  const seek = qoe.timeline.find((e) => e.type === 'seek');
  const onScreen = qoe.timeline.filter((e) => e.type === 'quality' && e.t < seek.t).pop();
  expect(seek.representationId).toBe(onScreen.representationId);
  const lastRequested = qoe.decisions.filter((d) => d.t < seek.t).pop();
  const firstAfter = qoe.decisions.find((d) => d.t > seek.t);
  // BASIC climbs a rung per segment and fetches ahead of playback, so what it last requested
  // is above what plays: the two readings of "the pre-seek bitrate" differ here.
  expect(lastRequested.bandwidth).toBeGreaterThan(onScreen.bandwidth);
  expect(firstAfter.bandwidth).toBe(onScreen.bandwidth);
  expect(firstAfter.reason).toMatch(/hold|keep|seek/i);
  // The seek's target segment is fetched at that rung too (dash.js itself would not ask the
  // ABR for it and would use the last requested representation).
  const firstSegmentAfter = qoe.segments.find((x) => x.requestStart > seek.t);
  expect(firstSegmentAfter.representationId).toBe(onScreen.representationId);
}, 120000);

test("a viewer's own seek (the video controls) holds the rung on screen too", async () => {
  const { launchChromium } = require('../../testbed/chromium');
  const browser = await launchChromium({ timeoutMs: 120000 });
  try {
    const { page } = browser;
    await page.goto(`${origin.urls.http11}/?content=sample&transport=http11&abr=basic&keep=1&stop=46&autostart=1`);
    await page.waitForFunction(() => document.getElementById('video').currentTime >= 8, null, { timeout: 60000, polling: 100 });
    // What dragging the seek bar does: set the element's time.
    await page.evaluate(() => { document.getElementById('video').currentTime = 40; });
    await page.waitForFunction(() => window.lab && window.lab.state === 'done', null, { timeout: 90000, polling: 500 });
    const qoe = await page.evaluate(() => window.lab.done);
    const seek = qoe.timeline.find((e) => e.type === 'seek');
    const onScreen = qoe.timeline.filter((e) => e.type === 'quality' && e.t < seek.t).pop();
    expect(seek.to).toBe(40);
    expect(seek.representationId).toBe(onScreen.representationId);
    expect(qoe.decisions.filter((d) => d.t < seek.t).pop().bandwidth).toBeGreaterThan(onScreen.bandwidth);
    expect(qoe.segments.find((x) => x.requestStart > seek.t).representationId).toBe(onScreen.representationId);
    expect(qoe.summary.seeks[0].waitSeconds).toBeGreaterThan(0);
  } finally {
    await browser.close();
  }
}, 180000);
