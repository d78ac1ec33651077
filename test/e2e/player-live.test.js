'use strict';
// Live mode as a person uses it: the page (from `npm run origin`'s listeners) with "Live
// broadcast" ticked and a target latency plays the sample live in Chromium, and the QoE table
// shows the latency; an FDSP carrier with live is refused with the reason on the page.
const fs = require('node:fs');
const path = require('node:path');
const { startOrigin } = require('../../origin/start-origin');
const { ensureContent } = require('../../origin/content/ensure-content');
const { launchChromium } = require('../../testbed/chromium');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
let origin;
let dataDir;
const requests = [];

beforeAll(async () => {
  await ensureContent({ preset: 'sample', contentDir: path.join(REPO, 'content') });
  dataDir = makeLabTempDir('live-e2e');
  origin = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, contentDir: path.join(REPO, 'content'), dataDir, log: (e) => requests.push(e) });
}, 300000);

afterAll(async () => {
  if (origin) await origin.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the form\'s live checkbox plays the sample live over HTTP/2 at the chosen latency', async () => {
  const browser = await launchChromium({ timeoutMs: 120000 });
  try {
    const { page } = browser;
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${origin.urls.h2}/`);
    await page.waitForFunction(() => window.lab && window.lab.state === 'ready', null, { timeout: 30000 });
    await page.selectOption('#content', 'sample');
    await page.selectOption('#transport', 'h2');
    await page.selectOption('#abr', 'bba2');
    await page.check('#live');
    await page.fill('#live-delay', '8');
    await Promise.all([page.waitForNavigation(), page.click('#start')]);
    expect(new URL(page.url()).searchParams.get('live')).toBe('1');
    expect(new URL(page.url()).searchParams.get('liveDelay')).toBe('8');
    await page.waitForFunction(() => window.lab && (window.lab.errors.length > 0 || (window.lab.state === 'running' && document.querySelector('video').currentTime > 6)), null, { timeout: 60000, polling: 250 });
    // The table is redrawn every second.
    await page.waitForTimeout(1500);
    const r = await page.evaluate(() => ({
      errors: window.lab.errors,
      qoe: window.qoe,
      rows: [...document.querySelectorAll('#summary tbody tr')].map((tr) => tr.textContent),
    }));
    expect(r.errors).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(r.qoe.config).toMatchObject({ live: true, liveDelaySeconds: 8, transport: 'h2' });
    // On loopback the player sits at its target, less up to one segment (dash.js starts at a
    // segment boundary), plus its startup and any stall, which it does not catch up (a busy
    // machine's Chromium may take over a second to start: bounded by what it took, as
    // qoe-live-switch does).
    const s = r.qoe.summary;
    expect(s.liveLatencyMeanSeconds).toBeGreaterThan(8 - 2 - 0.2);
    expect(s.liveLatencyMeanSeconds).toBeLessThan(8 + s.startupDelaySeconds + s.rebufferSeconds + 0.5);
    expect(r.rows.some((t) => /^live latency now \/ target[\d.]+ s \/ 8\.00 s$/.test(t))).toBe(true);
    const media = requests.filter((e) => e.protocol === 'h2' && /chunk-\d+-\d+\.m4s$/.test(e.path));
    expect(media.length).toBeGreaterThan(2);
    expect(media.every((e) => e.path.startsWith('/live/') && e.status === 200)).toBe(true);
  } finally {
    await browser.close();
  }
}, 180000);

test('live over an FDSP carrier is refused on the page, with the reason', async () => {
  const browser = await launchChromium({ timeoutMs: 60000 });
  try {
    const { page } = browser;
    await page.goto(`${origin.urls.http11}/?content=sample&transport=datachannel&abr=basic&live=1&autostart=1`);
    await page.waitForFunction(() => window.lab && window.lab.state === 'error', null, { timeout: 30000 });
    const shown = await page.textContent('#error');
    expect(shown).toMatch(/^bad URL parameter: live: transport "datachannel" cannot play live: FDSP carriers fetch the on-demand files only/);
  } finally {
    await browser.close();
  }
}, 120000);
