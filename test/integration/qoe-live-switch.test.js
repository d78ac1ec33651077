'use strict';
// A live broadcast through a connection switch (npm run qoe -- scenarios/live-switch-smoke), in
// real Chromium through the link emulator: the sample broadcast live at a 6 s target latency,
// an 8 s outage at 12 s with a new client address. The playback must start near its target
// latency, never ask for a segment before the broadcast has it, stall in the outage, reconnect
// (HTTP/1.1 and HTTP/3) and play on, and its live latency must grow by the time it stalled (no
// catch-up). Needs root (CI has it).
const fs = require('node:fs');
const path = require('node:path');
const { ensureContent } = require('../../origin/content/ensure-content');
const { runScenarioByTransport } = require('../support/qoe-cli');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('qoe-live-switch needs root (network namespaces, TUN): skipped\n');

describeAsRoot('npm run qoe -- scenarios/live-switch-smoke', () => {
  let tmp;
  let run;
  const rec = {};
  const logs = {};
  beforeAll(async () => {
    await ensureContent({ preset: 'sample', contentDir: path.join(REPO, 'content') });
    tmp = makeLabTempDir('live-switch');
    run = path.join(tmp, 'run');
    const got = await runScenarioByTransport('scenarios/live-switch-smoke', run);
    Object.assign(rec, got.records);
    Object.assign(logs, got.logs);
    for (const x of Object.values(rec)) {
      const s = x.qoe.summary;
      process.stderr.write(`live-switch-smoke ${x.id}: latency ${s.liveLatencyStartSeconds} -> ${s.liveLatencyEndSeconds} s, rebuffer ${s.rebufferSeconds.toFixed(2)} s (${s.rebufferInstances}x), startup ${s.startupDelaySeconds} s\n`);
    }
  }, 600000);
  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('both playbacks played their live broadcast through the outage, over the protocol asked for', () => {
    expect(Object.keys(rec).sort()).toEqual(['h3', 'http11']);
    for (const [transport, x] of Object.entries(rec)) {
      expect(x.status).toBe('ok');
      expect(x.emulated).toBe(true);
      expect(x.qoe.config).toMatchObject({ live: true, liveDelaySeconds: 6 });
      expect(x.qoe.config.manifest).toMatch(/^\/live\/\d+\/sample\/manifest\.mpd$/);
      expect(x.qoe.summary.playSeconds).toBeGreaterThan(35);
      expect(x.switchLog.map((e) => [e.network, e.error])).toEqual([['lte', undefined]]);
      expect(Object.keys(x.qoe.summary.protocols)).toEqual([transport === 'h3' ? 'h3' : 'http/1.1']);
      // dash.js positioning the playback at its start is not a viewer's seek.
      expect(x.qoe.summary.seeks).toEqual([]);
      expect(x.qoe.summary.startupDelaySeconds).toBeGreaterThan(0);
    }
  });

  test('every media request went to the broadcast, none before its segment was available', () => {
    for (const l of Object.values(logs)) {
      const media = l.filter((e) => /chunk-\d+-\d+\.m4s$/.test(e.path || ''));
      expect(media.length).toBeGreaterThan(15);
      expect(media.every((e) => /^\/live\/\d+\/sample\//.test(e.path))).toBe(true);
      expect(l.filter((e) => e.status === 404)).toEqual([]);
    }
  });

  test('latency starts near the target and grows by the time stalled (no catch-up)', () => {
    for (const x of Object.values(rec)) {
      const s = x.qoe.summary;
      // dash.js starts at a segment boundary at or behind the target, and the broadcast goes on
      // while the first segment loads (startup).
      expect(s.liveLatencyStartSeconds).toBeGreaterThan(6 - 2 - 0.5);
      expect(s.liveLatencyStartSeconds).toBeLessThan(6 + s.startupDelaySeconds + 0.5);
      // An 8 s outage with at most ~6 s buffered: the player stalled.
      expect(s.rebufferSeconds).toBeGreaterThan(1);
      expect(s.liveLatencyJumpsUp).toBeGreaterThanOrEqual(1);
      expect(s.liveLatencyGrowthSeconds).toBeGreaterThan(s.rebufferSeconds - 0.5);
      expect(s.liveLatencyGrowthSeconds).toBeLessThan(s.rebufferSeconds + 0.5);
    }
  });

  test('results.csv and the report carry the live latency', () => {
    const csv = fs.readFileSync(path.join(run, 'results.csv'), 'utf8').trim().split('\n');
    const header = csv[0].split(',');
    const at = header.indexOf('liveLatencyGrowthSeconds');
    expect(at).toBeGreaterThan(0);
    for (const line of csv.slice(1)) expect(Number(line.split(',')[at])).toBeGreaterThan(1);
    expect(fs.readFileSync(path.join(run, 'report.md'), 'utf8')).toContain('Live latency growth');
  });
});
