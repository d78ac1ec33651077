'use strict';
// A scenario on two paths (npm run qoe -- scenarios/mptcp-smoke): the runner builds the link
// with a second path, turns on Multipath TCP, starts the origin and Chromium under mptcpize,
// and records each path's bytes and the origin's TCP subflows per path. Over two 3 Mbit/s paths
// the player gets more than over one. Real Chromium, real kernel MPTCP, real packets through
// the emulator. Needs root (CI has it).
const fs = require('node:fs');
const path = require('node:path');
const { ensureContent } = require('../../origin/content/ensure-content');
const { runScenarioByTransport } = require('../support/qoe-cli');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('qoe-mptcp-scenario needs root (network namespaces, TUN): skipped\n');

describeAsRoot('npm run qoe -- scenarios/mptcp-smoke', () => {
  let tmp;
  let run;
  const rec = {};
  beforeAll(async () => {
    await ensureContent({ preset: 'sample', contentDir: path.join(REPO, 'content') });
    tmp = makeLabTempDir('mptcp-run');
    run = path.join(tmp, 'run');
    Object.assign(rec, (await runScenarioByTransport('scenarios/mptcp-smoke', run, [], (x) => x.id)).records);
    for (const x of Object.values(rec)) {
      process.stderr.write(`mptcp-smoke ${x.id}: ${(x.summary.averagePlaybackBitrate / 1e6).toFixed(2)} Mbit/s, paths ${JSON.stringify(x.pathCounters && x.pathCounters.map((p) => p.toClient.bytesOut))}, tcp ${JSON.stringify(x.tcp)}\n`);
    }
  }, 600000);
  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('four playbacks, each ok; two-path ones with both paths\' counters and subflows on both', () => {
    expect(Object.keys(rec).sort()).toEqual(['h2.basic.one-path.r1', 'h2.basic.two-paths.r1', 'http11.basic.one-path.r1', 'http11.basic.two-paths.r1']);
    for (const x of Object.values(rec)) expect(x.status).toBe('ok');
    for (const t of ['http11', 'h2']) {
      const one = rec[`${t}.basic.one-path.r1`];
      const two = rec[`${t}.basic.two-paths.r1`];
      expect(one.pathCounters).toBeNull();
      expect(one.tcp.connections).toBeGreaterThanOrEqual(1);
      expect(two.networkDescription).toBe('path 1: RTT 20 ms, 3 Mbit/s; path 2: RTT 40 ms, 3 Mbit/s; Multipath TCP');
      expect(two.pathCounters.map((p) => p.path)).toEqual([1, 2]);
      // Both paths carried a real share of the media.
      for (const p of two.pathCounters) expect(p.toClient.bytesOut).toBeGreaterThan(2e6);
      expect(two.tcp.byPath.map((p) => p.sockets > 0 && p.bytesSent > 1e6)).toEqual([true, true]);
      // Each subflow's bytes over time (paper 004 Figs. 9-10): one rising series per path at least.
      const flows = two.tcp.subflowSeries.filter((f) => f.points.length > 2 && f.points[f.points.length - 1][1] > 1e6);
      expect([...new Set(flows.map((f) => f.path))].sort()).toEqual([1, 2]);
      for (const f of flows) for (let i = 1; i < f.points.length; i += 1) expect(f.points[i][1]).toBeGreaterThanOrEqual(f.points[i - 1][1]);
      expect(one.tcp.subflowSeries).toBeUndefined();
      // The record's link counters are both paths' together.
      expect(two.counters.toClient.bytesOut).toBe(two.pathCounters[0].toClient.bytesOut + two.pathCounters[1].toClient.bytesOut);
    }
  });

  test('two 3 Mbit/s paths give the player more than one', () => {
    for (const t of ['http11', 'h2']) {
      expect(rec[`${t}.basic.two-paths.r1`].summary.averageDownloadedBitrate).toBeGreaterThan(rec[`${t}.basic.one-path.r1`].summary.averageDownloadedBitrate);
    }
  });

  test('results.csv and the report carry the extra paths\' share and the retransmissions', () => {
    const csv = fs.readFileSync(path.join(run, 'results.csv'), 'utf8').trim().split('\n');
    const header = csv[0].split(',');
    const share = header.indexOf('extraPathShare');
    const retrans = header.indexOf('tcpRetransSegments');
    const cc = header.indexOf('tcpCongestionControls');
    expect(share).toBeGreaterThan(0);
    expect(cc).toBeGreaterThan(0);
    expect(retrans).toBeGreaterThan(0);
    for (const line of csv.slice(1)) {
      const cells = line.split(',');
      // What the kernel ran (ss -ti), per path on two: the scenario's default, cubic.
      if (cells[0].includes('two-paths')) {
        expect(Number(cells[share])).toBeGreaterThan(0.2);
        expect(cells[cc]).toBe('cubic|cubic');
      } else {
        expect(cells[share]).toBe('');
        expect(cells[cc]).toBe('cubic');
      }
      expect(cells[retrans]).toMatch(/^\d+$/);
    }
    expect(fs.readFileSync(path.join(run, 'report.md'), 'utf8')).toContain('Share of downlink bytes over the extra paths');
    expect(fs.readFileSync(path.join(run, 'report.html'), 'utf8')).toContain('bytes sent per subflow (sequence-number progress)');
  });
});
