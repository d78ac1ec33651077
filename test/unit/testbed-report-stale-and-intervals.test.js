'use strict';
// What a reviewer needs to trust a report: which cells rest on how many playbacks and whether
// their intervals tell them apart (overlapsByRow), which cells were measured before a fix that
// changes them (known-fixes.js), paper 000's rebuffering definition beside ours, and the same
// tables rebuilt from a stored results.csv (results/ keeps no playback records).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { aggregateRows, pivot, formatCell, overlapsByRow, reportMetrics } = require('../../testbed/report/aggregate');
const { markCells, loadKnownFixes, gitAncestry, namesFromScenario, DEFAULT_FILE } = require('../../testbed/report/known-fixes');
const { parseResultsCsv } = require('../../testbed/report/results-csv');
const { toCsv, resultColumns } = require('../../testbed/runner/results-table');
const { codeVersion } = require('../../testbed/runner/code-version');
const { writeReport } = require('../../testbed/report/write-report');
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { getPreset } = require('../../origin/content/presets');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const row = (o) => ({ seekSchedule: 'none', switchSchedule: 'none', status: 'ok', startupDelaySeconds: 1, rebufferSeconds: 0, rebufferInstances: 0, ...o });
const metric = (key) => reportMetrics().find((m) => m.key === key);

describe('intervals and overlaps', () => {
  const rows = [
    // h2 on wifi: 10, 11, 12 -> mean 11, sd 1, t(2) 4.303 -> +-2.484: [8.52, 13.48]
    ...[10, 11, 12].map((v, i) => row({ id: `h2.${i}`, transport: 'h2', abr: 'basic', network: 'wifi', startupDelaySeconds: v })),
    // h3 on wifi: 13, 14, 15 -> [11.52, 16.48]: overlaps h2's
    ...[13, 14, 15].map((v, i) => row({ id: `h3.${i}`, transport: 'h3', abr: 'basic', network: 'wifi', startupDelaySeconds: v })),
    // http11 on wifi: 30, 30.5, 31 -> [28.76, 32.24]: apart from both
    ...[30, 30.5, 31].map((v, i) => row({ id: `h1.${i}`, transport: 'http11', abr: 'basic', network: 'wifi', startupDelaySeconds: v })),
    // on lte each transport once: no interval
    row({ id: 'h2.lte', transport: 'h2', abr: 'basic', network: 'lte', startupDelaySeconds: 3 }),
    row({ id: 'h3.lte', transport: 'h3', abr: 'basic', network: 'lte', startupDelaySeconds: 4 }),
  ];
  const t = pivot(aggregateRows(rows), 'startupDelaySeconds');

  test('every cell shows mean, half-width, range and n', () => {
    expect(formatCell(t.cells[0][0], metric('startupDelaySeconds'))).toBe('11.00 ± 2.48 (10.00-12.00, n=3)');
    expect(formatCell(t.cells[1][0], metric('startupDelaySeconds'))).toBe('3.00 (n=1)');
  });

  test('per row, the pairs whose 95 % intervals overlap and the cells with no interval', () => {
    expect(overlapsByRow(t)).toEqual([
      { row: 'wifi', overlapping: [['h2 / basic', 'h3 / basic']], noInterval: [] },
      { row: 'lte', overlapping: [], noInterval: ['h2 / basic', 'h3 / basic'] },
    ]);
  });
});

test('paper 000\'s rebuffering (startup as instance 1) is derived beside ours', () => {
  const g = aggregateRows([row({ id: 'a', transport: 'http11', abr: 'fixed', network: 'rtt50', startupDelaySeconds: 5.7, rebufferSeconds: 3.2, rebufferInstances: 2 })])[0];
  expect(g.metrics.rebufferSeconds.mean).toBe(3.2);
  expect(g.metrics.rebufferSecondsWithStartup.mean).toBeCloseTo(8.9, 12);
  expect(g.metrics.rebufferInstancesWithStartup.mean).toBe(3);
  // A playback with no startup figure (it never started) has no value on the paper's definition.
  const none = aggregateRows([row({ id: 'b', transport: 'http11', abr: 'fixed', network: 'rtt50', startupDelaySeconds: null, rebufferSeconds: 0 })])[0];
  expect(none.metrics.rebufferSecondsWithStartup.n).toBe(0);
});

test('bytes on the wire (paper 000 Fig. 9\'s bandwidth needed) are a report metric, shown in MB', () => {
  const rows = [94.477e6, 95.1e6, 93.9e6].map((b, i) => row({ id: `fdsp.${i}`, transport: 'fdsp', abr: 'fixed', network: 'sc', wireBytesDown: b }));
  const t = pivot(aggregateRows(rows), 'wireBytesDown');
  // mean 94.492, sd 0.6002 -> t(2) 4.303 x 0.3465 = 1.49
  expect(formatCell(t.cells[0][0], metric('wireBytesDown'))).toBe('94.49 ± 1.49 (93.90-95.10, n=3)');
  expect(metric('wireBytesDown')).toMatchObject({ unit: 'MB', bar: true });
});

describe('cells measured before a known fix', () => {
  const scenario = { name: 'paper002-connswitch', transports: ['http11', { name: 'h3', label: 'quic' }], abrs: [{ name: 'sara', label: 'sara' }, { name: 'basic', label: 'basic' }] };
  const fixes = [
    { commit: 'aaaaaaa', date: '2026-11-23', what: 'SARA read the wrong size', metrics: '*', scope: { abr: ['sara'] } },
    { commit: 'bbbbbbb', date: '2026-11-24', what: 'h3 overhead', metrics: ['overhead'], scope: { transport: ['h3'] } },
  ];
  // Commits "old" lack both fixes, "new" has both; "mystery" is unknown to the repository.
  const contains = (fix, r) => ({ old: false, new: true, mystery: null }[r.commit]);
  const rows = [
    row({ id: 's1', transport: 'http11', abr: 'sara', network: 'wifi', overhead: 0.05, commit: 'new' }),
    row({ id: 's2', transport: 'http11', abr: 'sara', network: 'wifi', overhead: 0.06, commit: 'old' }),
    row({ id: 'b1', transport: 'http11', abr: 'basic', network: 'wifi', overhead: 0.05, commit: 'old' }),
    row({ id: 'q1', transport: 'quic', abr: 'basic', network: 'wifi', overhead: 0.07, commit: 'old' }),
    row({ id: 'q2', transport: 'quic', abr: 'sara', network: 'wifi', overhead: 0.07, commit: 'mystery' }),
  ];

  test('a cell is marked when one of its playbacks lacks a fix that applies to its metric and scope', () => {
    const groups = aggregateRows(rows);
    const { used, unknown } = markCells(groups, new Map(rows.map((r) => [r.id, r])), fixes, { contains, namesOf: namesFromScenario(scenario) });
    const cell = (transport, abr, key) => groups.find((g) => g.key.transport === transport && g.key.abr === abr).metrics[key];
    expect(cell('http11', 'sara', 'startupDelaySeconds').predates).toEqual([1]); // s2 is old
    expect(cell('http11', 'basic', 'startupDelaySeconds').predates).toBeUndefined(); // fix 1 is SARA's only
    expect(cell('quic', 'basic', 'overhead').predates).toEqual([2]); // label quic = transport h3
    expect(cell('quic', 'basic', 'startupDelaySeconds').predates).toBeUndefined(); // fix 2 changes overhead only
    expect(cell('quic', 'sara', 'overhead').predates).toBeUndefined(); // cannot tell: not marked, but named
    expect(used).toEqual([1, 2]);
    expect(unknown).toEqual(['q2']);
    expect(formatCell(cell('http11', 'sara', 'startupDelaySeconds'), metric('startupDelaySeconds'))).toBe('1.00 ± 0.00 (1.00-1.00, n=2) †1');
  });

  test('a fix scoped to a scenario\'s label for one variant marks that variant\'s cells, not the transport\'s others', () => {
    const wt = { name: 'paper000-fdsp', transports: [{ name: 'webtransport', label: 'wt-bp100', bp: 100 }, { name: 'webtransport', label: 'wtsplit-bp100', bp: 100, carrier: 'split' }], abrs: [] };
    const paced = [{ commit: 'ccccccc', date: '2026-11-27', what: 'single carrier paced', metrics: '*', scope: { transport: ['wt-bp100'] } }];
    const wtRows = [row({ id: 'w1', transport: 'wt-bp100', abr: null, network: 'rtt50', commit: 'old' }), row({ id: 'w2', transport: 'wtsplit-bp100', abr: null, network: 'rtt50', commit: 'old' })];
    const groups = aggregateRows(wtRows);
    const { used } = markCells(groups, new Map(wtRows.map((r) => [r.id, r])), paced, { contains, namesOf: namesFromScenario(wt) });
    const cell = (label) => groups.find((g) => g.key.transport === label).metrics.startupDelaySeconds;
    expect(cell('wt-bp100').predates).toEqual([1]);
    expect(cell('wtsplit-bp100').predates).toBeUndefined();
    expect(used).toEqual([1]);
  });

  test('a fix scoped to playbacks by id (with their scenario) marks their cells alone', () => {
    const scen = { name: 'paper000-table2', transports: ['fdsp-bp100', 'http11'], abrs: [] };
    const jump = [{ commit: 'ddddddd', date: '2026-11-27', what: 'gap jumps', metrics: ['rebufferSeconds'], scope: { scenario: ['paper000-table2'], playback: ['f2'] } }];
    const rs = [
      row({ id: 'f1', transport: 'fdsp-bp100', abr: null, network: 'dc-4M', rebufferSeconds: 0.1, commit: 'old' }),
      row({ id: 'f2', transport: 'fdsp-bp100', abr: null, network: 'sc-4M', rebufferSeconds: 0.4, commit: 'old' }),
    ];
    const groups = aggregateRows(rs);
    const { used } = markCells(groups, new Map(rs.map((r) => [r.id, r])), jump, { contains, namesOf: namesFromScenario(scen) });
    const cell = (network) => groups.find((g) => g.key.network === network).metrics.rebufferSeconds;
    expect(cell('sc-4M').predates).toEqual([1]);
    expect(cell('dc-4M').predates).toBeUndefined();
    expect(used).toEqual([1]);
    // The same ids in another scenario are other playbacks.
    const other = aggregateRows(rs);
    markCells(other, new Map(rs.map((r) => [r.id, r])), jump, { contains, namesOf: namesFromScenario({ ...scen, name: 'paper000-fdsp' }) });
    expect(other.find((g) => g.key.network === 'sc-4M').metrics.rebufferSeconds.predates).toBeUndefined();
  });

  test('git history answers "does this code contain the fix", by commit or else by date', () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const first = execFileSync('git', ['rev-list', '--max-parents=0', 'HEAD'], { encoding: 'utf8' }).trim().split('\n')[0];
    const has = gitAncestry();
    expect(has(first, { commit: head })).toBe(true);
    expect(has(head, { commit: `${first}+` })).toBe(false);
    expect(has(head, { commit: 'f'.repeat(40) })).toBeNull();
    // No commit recorded: started before the fix was committed means without it; after, unknown.
    expect(has(head, { commit: null, startedAt: '2000-01-01T00:00:00Z' })).toBe(false);
    expect(has(first, { commit: null, startedAt: new Date().toISOString() })).toBeNull();
  });

  test('the shipped list is valid, and a bad one is refused with every problem named', () => {
    const keys = reportMetrics().map((m) => m.key);
    expect(loadKnownFixes(DEFAULT_FILE, keys).length).toBeGreaterThan(0);
    const dir = makeLabTempDir('fixes');
    try {
      const bad = path.join(dir, 'fixes.json');
      fs.writeFileSync(bad, JSON.stringify({ fixes: [{ commit: 'xyz', date: 'today', what: '', metrics: ['speed'], scope: { codec: ['h264'] } }] }));
      expect(() => loadKnownFixes(bad, keys)).toThrow(/commit must be a commit hash[\s\S]*date must be YYYY-MM-DD[\s\S]*what must say[\s\S]*"speed" is not a report metric[\s\S]*unknown key "codec"/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('a playback records the commit that measured it', () => {
  const v = codeVersion();
  expect(v.commit).toMatch(/^[0-9a-f]{40}$/);
  expect(typeof v.dirty).toBe('boolean');
  expect(codeVersion(os.tmpdir())).toMatchObject({ commit: null, why: 'not a git checkout' });
});

test('results.csv reads back into the rows it was written from, quoted fields and all', () => {
  const record = {
    id: 'http11.basic.wifi.r1', transport: 'http11', abr: 'basic', network: 'wifi', seekSchedule: 'none', switchSchedule: 'none', repetition: 1,
    status: 'failed', error: 'page said "stalled", then:\nnothing', summary: { startupDelaySeconds: 0.5, rebufferRate: 0.0123 }, metrics: { overhead: 0.05 },
    startedAt: '2026-11-25T10:00:00.000Z', commit: 'abcdef0123456789abcdef0123456789abcdef01', commitDirty: true,
  };
  const [back] = parseResultsCsv(toCsv([record]));
  expect(Object.keys(back)).toEqual(resultColumns().map((c) => c.name));
  expect(back).toMatchObject({ id: record.id, transport: 'http11', repetition: 1, status: 'failed', error: record.error, startupDelaySeconds: 0.5, rebufferRate: 0.0123, overhead: 0.05, meanSeekWaitSeconds: null, startedAt: record.startedAt, commit: `${record.commit}+` });
  expect(() => parseResultsCsv('a,b\n1,2\n')).toThrow(/not a results.csv/);
  expect(() => parseResultsCsv('id,status\nx,ok,extra\n')).toThrow(/line 2: 3 fields where the header has 2/);
});

test('a directory with only results.csv and scenario.json gets the tables, marks and no plots', () => {
  const scenario = validateScenario({
    name: 'stored', content: 'sample', transports: ['http11', 'h2'], abrs: ['sara'], profiles: { wifi: { rttMs: 50 } }, repetitions: 2,
  }, { source: 'stored.yaml', defaultName: 'stored', getPreset });
  const dir = makeLabTempDir('stored');
  try {
    fs.writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify(scenario));
    const rec = (transport, r, startup, commit) => ({ id: `${transport}.sara.wifi.r${r}`, transport, abr: 'sara', network: 'wifi', seekSchedule: 'none', switchSchedule: 'none', repetition: r, status: 'ok', summary: { startupDelaySeconds: startup, rebufferRate: 0 }, metrics: { packetLossRatio: 0, wireBytesDown: 1 }, commit });
    fs.writeFileSync(path.join(dir, 'results.csv'), toCsv([rec('http11', 1, 1.0, 'old'), rec('http11', 2, 1.2, 'new'), rec('h2', 1, 2.0, 'new'), rec('h2', 2, 2.4, 'new')]));
    const knownFixes = [{ commit: 'ccccccc', date: '2026-11-25', what: 'SARA waited outside Delayed Download', metrics: '*', scope: { abr: ['sara'] } }];
    const files = writeReport(dir, { knownFixes, contains: (fix, r) => r.commit === 'new' });
    const md = fs.readFileSync(files.md, 'utf8');
    expect(md).toContain('## Figures measured before a fix');
    expect(md).toContain('†1: measured before ccccccc (2026-11-25), which changes every metric of abr sara: SARA waited outside Delayed Download');
    // http11 1.0 and 1.2 s: mean 1.1, sd 0.1414, t(1) -> +-1.27; h2 2.0 and 2.4: +-2.54; they overlap.
    expect(md).toMatch(/\| wifi \| 1\.10 ± 1\.27 \(1\.00-1\.20, n=2\) †1 \| 2\.20 ± 2\.54 \(2\.00-2\.40, n=2\) \|/);
    expect(md).toContain('- wifi: intervals overlap: http11 / sara ~ h2 / sara');
    expect(fs.readFileSync(files.html, 'utf8')).toContain('keeps results.csv only');
    expect(fs.readFileSync(files.csv, 'utf8')).toMatch(/^startupDelaySeconds,s,http11,sara,wifi,none,none,2,0,2,1\.1,1,1\.2,1\.27\d*,1$/m);
    expect(() => writeReport(dir, { knownFixes, contains: () => true, plots: ['http11.sara.wifi.r1'] })).toThrow(/keeps no playback records/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('distributions across repetitions (CDF plots)', () => {
  const { empiricalCdf, segmentThroughputsMbps, seekWaitsSeconds, cdfsByRow } = require('../../testbed/report/distributions');

  test('the empirical CDF steps 1/n per value, equal values in one step', () => {
    expect(empiricalCdf([3, 1, 2, 2, null, NaN])).toEqual([[1, 0], [1, 0.25], [2, 0.75], [3, 1]]);
    expect(empiricalCdf([])).toEqual([]);
  });

  test('segment throughput and seek waits come from the QoE JSON; pooled per network and column', () => {
    const rec = (id, transport, network, segs, seeks, status = 'ok') => ({ id, status, qoe: { segments: segs, summary: { seeks } }, transport, network });
    // 500 000 B in 1 s = 4 Mbit/s; 250 000 B in 2 s = 1 Mbit/s; a 0 ms one carries no throughput.
    const a = rec('a', 'h2', 'wifi', [{ bytes: 500000, requestStart: 1000, lastByte: 2000 }, { bytes: 250000, requestStart: 0, lastByte: 2000 }, { bytes: 9, requestStart: 5, lastByte: 5 }],
      [{ waitSeconds: 1.5, superseded: false }, { waitSeconds: null, superseded: true }]);
    expect(segmentThroughputsMbps(a)).toEqual([4, 1]);
    expect(seekWaitsSeconds(a)).toEqual([1.5]);
    const b = rec('b', 'h2', 'wifi', [{ bytes: 125000, requestStart: 0, lastByte: 1000 }], []);
    const failed = rec('c', 'h2', 'wifi', [{ bytes: 1, requestStart: 0, lastByte: 1 }], [], 'failed');
    const groups = [{ key: { transport: 'h2', abr: 'basic', network: 'wifi', seekSchedule: 'none', switchSchedule: 'none' }, ids: ['a', 'b', 'c'] }];
    const rows = cdfsByRow(groups, new Map([a, b, failed].map((r) => [r.id, r])), segmentThroughputsMbps);
    expect(rows).toEqual([{ row: 'wifi', series: [{ name: 'h2 / basic (n=3, 2 playbacks)', n: 3, playbacks: 2, points: [[1, 0], [1, 2 / 3], [4, 1]] }] }]);
    expect(cdfsByRow(groups, new Map([[b.id, b]]), seekWaitsSeconds)).toEqual([]);
  });
});
