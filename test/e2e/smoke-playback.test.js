'use strict';
// The real thing end to end: the `sample` preset (built as `npm run origin` builds it), the
// origin on its three listeners, stock dash.js on the player page in Debian's Chromium.
const fs = require('node:fs');
const path = require('node:path');
const { startOrigin } = require('../../origin/start-origin');
const { ensureContent } = require('../../origin/content/ensure-content');
const { launchChromium } = require('../../testbed/chromium');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
const CONTENT_DIR = path.join(REPO, 'content');

let origin;
let dataDir;
const requests = [];

beforeAll(async () => {
  // First run on a fresh machine encodes the whole sample (about a minute on 2 cores).
  await ensureContent({ preset: 'sample', contentDir: CONTENT_DIR });
  dataDir = makeLabTempDir('e2e');
  origin = await startOrigin({
    http11Port: 0, http10Port: 0, h2Port: 0, contentDir: CONTENT_DIR, dataDir, log: (entry) => requests.push(entry),
  });
}, 300000);

afterAll(async () => {
  if (origin) await origin.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

// listener -> protocol Chromium must report in Resource Timing
const CASES = [
  ['http11', 'http/1.1'],
  ['h2', 'h2'],
  ['http10', 'http/1.1'],
];

test.each(CASES)('the sample plays over the %s listener (%s)', async (listener, protocol) => {
  const browser = await launchChromium({ timeoutMs: 120000 });
  try {
    const pageErrors = [];
    browser.page.on('pageerror', (e) => pageErrors.push(e.message));
    const base = origin.urls[listener];
    // The page and all its requests come from the listener under test.
    const response = await browser.page.goto(`${base}/?content=sample&transport=${listener}&abr=dashjs&autostart=1`);
    expect(response.status()).toBe(200);
    await browser.page.waitForFunction(() => window.lab && (window.lab.errors.length > 0 || (window.lab.state === 'running' && document.querySelector('video').currentTime > 4)), null, {
      timeout: 60000,
      polling: 250,
    });
    const result = await browser.page.evaluate(() => {
      const v = document.querySelector('video');
      return {
        errors: window.lab.errors,
        qoe: window.qoe,
        currentTime: v.currentTime,
        width: v.videoWidth,
        protocols: [...new Set(performance.getEntriesByType('resource').map((e) => e.nextHopProtocol).filter(Boolean))],
      };
    });
    expect(result.errors).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(result.currentTime).toBeGreaterThan(4);
    expect(result.qoe.summary.decodedFrames).toBeGreaterThan(100);
    expect(result.width).toBeGreaterThan(0);
    expect(result.protocols).toEqual([protocol]);
    expect(Object.keys(result.qoe.summary.protocols)).toEqual([protocol]);
    expect(result.qoe.summary.startupDelaySeconds).toBeGreaterThan(0);
    // The origin saw the segments of this playback on this listener.
    const port = Number(new URL(base).port);
    const segmentsServed = requests.filter((r) => r.port === port && /chunk-\d+-\d+\.m4s$/.test(r.path) && r.status === 200);
    expect(segmentsServed.length).toBeGreaterThanOrEqual(2);
  } finally {
    await browser.close();
  }
});

// The testbed shapes the link while the page is held (hold=1) and streaming starts after: what
// the page loads before the hold is not part of the measurement, what it loads after is. The
// segment index is lab metadata: it must be in before the hold, and no MPD or segment yet.
test('a held page has loaded the segment index and nothing of the stream', async () => {
  const browser = await launchChromium({ timeoutMs: 60000 });
  try {
    await browser.page.goto(`${origin.urls.http11}/?content=sample&transport=http11&abr=bba2&autostart=1&hold=1`);
    await browser.page.waitForFunction(() => window.lab && ['held', 'error'].includes(window.lab.state), null, { timeout: 30000, polling: 100 });
    // Anything a held page still fetched would show up within a moment.
    await new Promise((r) => setTimeout(r, 1000));
    const state = await browser.page.evaluate(() => ({
      state: window.lab.state,
      loaded: performance.getEntriesByType('resource').filter((e) => e.responseEnd > 0).map((e) => new URL(e.name).pathname),
    }));
    expect(state.state).toBe('held');
    expect(state.loaded).toContain('/content/sample/index.json');
    expect(state.loaded.filter((p) => /manifest\.mpd$|\.m4s$/.test(p))).toEqual([]);
    await browser.page.evaluate(() => window.lab.go());
    await browser.page.waitForFunction(() => window.lab.state === 'running' && document.querySelector('video').currentTime > 1, null, { timeout: 60000, polling: 250 });
    // Going on did not fetch the index again.
    const indexLoads = await browser.page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/index.json')).length);
    expect(indexLoads).toBe(1);
  } finally {
    await browser.close();
  }
}, 120000);
