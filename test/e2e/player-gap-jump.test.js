'use strict';
// dash.js jumps over a gap in its buffer by itself (GapController); with FDSP, lost data leaves
// such gaps. The record must show that jump as the player's (playerSeek) and its wait as
// rebuffering, never as a viewer's seek: one paper000-table2 playback with no seek scheduled
// read a 9.1 s "seek wait" and 0.37 s of rebuffering. Here a real gap is cut into the video
// SourceBuffer ahead of the playhead (the page's SourceBuffers are caught as dash.js makes
// them) and real dash.js in Chromium jumps it.
const fs = require('node:fs');
const path = require('node:path');
const { startOrigin } = require('../../origin/start-origin');
const { ensureContent } = require('../../origin/content/ensure-content');
const { launchChromium } = require('../../testbed/chromium');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const CONTENT_DIR = path.join(__dirname, '..', '..', 'content');
let origin;
let dataDir;

beforeAll(async () => {
  await ensureContent({ preset: 'sample', contentDir: CONTENT_DIR });
  dataDir = makeLabTempDir('e2e-gap');
  origin = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, contentDir: CONTENT_DIR, dataDir });
}, 300000);

afterAll(async () => {
  if (origin) await origin.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("a gap dash.js jumps is the player's jump, its wait rebuffering, and no seek", async () => {
  const browser = await launchChromium({ timeoutMs: 120000 });
  try {
    const { page } = browser;
    await page.addInitScript(() => {
      window.labSourceBuffers = [];
      const add = MediaSource.prototype.addSourceBuffer;
      MediaSource.prototype.addSourceBuffer = function addSourceBuffer(mime) {
        const sb = add.call(this, mime);
        window.labSourceBuffers.push({ mime, sb });
        return sb;
      };
    });
    await page.goto(`${origin.urls.http11}/?content=sample&transport=http11&abr=basic&stop=16&autostart=1`);
    await page.waitForFunction(() => document.getElementById('video').currentTime >= 3, null, { timeout: 60000, polling: 100 });
    // A 0.5 s hole 1.5 s ahead in the video track (MSE removes up to the next key frame, so the
    // gap runs to there; dash.js jumps gaps of any size by default, jumpLargeGaps).
    const cut = await page.evaluate(async () => {
      const v = document.getElementById('video');
      const { sb } = window.labSourceBuffers.find((x) => x.mime.startsWith('video'));
      while (sb.updating) await new Promise((r) => { sb.addEventListener('updateend', r, { once: true }); });
      const from = v.currentTime + 1.5;
      sb.remove(from, from + 0.5);
      await new Promise((r) => { sb.addEventListener('updateend', r, { once: true }); });
      return { from, ranges: Array.from({ length: v.buffered.length }, (_, i) => [v.buffered.start(i), v.buffered.end(i)]) };
    });
    expect(cut.ranges.length).toBeGreaterThan(1); // the hole is there
    await page.waitForFunction(() => window.lab && window.lab.state === 'done', null, { timeout: 90000, polling: 500 });
    const qoe = await page.evaluate(() => window.lab.done);
    const jumps = qoe.timeline.filter((e) => e.type === 'playerSeek');
    console.log(`gap jump: cut at ${cut.from.toFixed(2)} s; the player's seeks ${JSON.stringify(qoe.summary.playerSeeks)}; rebuffering ${qoe.summary.rebufferSeconds.toFixed(3)} s`);
    expect(jumps.length).toBeGreaterThanOrEqual(1);
    expect(jumps[0].from).toBeGreaterThan(cut.from - 0.5);
    expect(jumps[0].to).toBeGreaterThan(jumps[0].from);
    expect(qoe.timeline.filter((e) => e.type === 'seek')).toEqual([]);
    expect(qoe.summary.seeks).toEqual([]);
    expect(qoe.summary.meanSeekWaitSeconds).toBeNull();
    const duringPlayback = qoe.summary.playerSeeks.filter((j) => j.during === 'playing' || j.during === 'stalled');
    expect(duringPlayback.length).toBeGreaterThanOrEqual(1);
    expect(qoe.summary.gapJumpCount).toBe(duringPlayback.length);
    // Its wait (however short) is in the rebuffering, not in a seek.
    const waited = duringPlayback.filter((j) => !j.toEnd).reduce((s, j) => s + (j.waitSeconds || 0), 0);
    expect(qoe.summary.rebufferSeconds).toBeGreaterThanOrEqual(waited - 1e-9);
  } finally {
    await browser.close();
  }
}, 180000);
