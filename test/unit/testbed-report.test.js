'use strict';
// Report arithmetic: summaries over repetitions, pivots, cell text, the testbed's own metrics.
const { aggregate, describe: summarize, pivot, formatCell, METRICS } = require('../../testbed/report/aggregate');
const { playbackMetrics, meanRate, valueAt } = require('../../testbed/runner/playback-metrics');
const { toCsv, csvCell } = require('../../testbed/runner/results-table');
const { diffCounters } = require('../../testbed/runner/link-counters');
const { summarizeRequestLog } = require('../../testbed/runner/origin-log-summary');
const { lineChartModel, barChartModel, createChartSet, assets: chartAssets } = require('../../testbed/report/report-charts');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

function record(o) {
  return {
    id: `${o.transport}.${o.abr}.${o.network}.r${o.repetition}`,
    seekSchedule: 'none',
    switchSchedule: 'none',
    status: 'ok',
    ...o,
    summary: { startupDelaySeconds: 1, meanSeekWaitSeconds: null, rebufferRate: 0, rebufferInstances: 0, averagePlaybackBitrate: 1e6, ...(o.summary || {}) },
    metrics: { packetLossRatio: 0, linkUtilization: null, overhead: 0.05, ...(o.metrics || {}) },
  };
}

describe('summaries over repetitions', () => {
  test('mean, min, max, n and the 95 % interval, ignoring nulls and non-numbers', () => {
    // 1, 2, 6: mean 3, sd 2.6458, t(2) = 4.303 -> half-width 4.303 * 2.6458 / sqrt(3) = 6.5727
    const three = summarize([1, 2, 6]);
    expect(three).toMatchObject({ n: 3, mean: 3, min: 1, max: 6 });
    expect(three.ci95).toBeCloseTo(6.5727, 3);
    expect(summarize([null, 4, undefined, NaN])).toEqual({ n: 1, mean: 4, min: 4, max: 4, ci95: null });
    expect(summarize([])).toEqual({ n: 0, mean: null, min: null, max: null, ci95: null });
  });

  test('groups by transport x abr x network x schedules; failed playbacks are counted, never averaged', () => {
    const records = [
      record({ transport: 'h2', abr: 'bba2', network: 'wifi', repetition: 1, summary: { rebufferRate: 0.02, startupDelaySeconds: 0.5 } }),
      record({ transport: 'h2', abr: 'bba2', network: 'wifi', repetition: 2, summary: { rebufferRate: 0.04, startupDelaySeconds: 1.5 } }),
      record({ transport: 'h2', abr: 'bba2', network: 'wifi', repetition: 3, status: 'failed', summary: { rebufferRate: 0.9 } }),
      record({ transport: 'http11', abr: 'bba2', network: 'wifi', repetition: 1, summary: { rebufferRate: 0.1, meanSeekWaitSeconds: 2 } }),
      record({ transport: 'http11', abr: 'bba2', network: 'lte', repetition: 1, metrics: { linkUtilization: 0.8 } }),
    ];
    const groups = aggregate(records);
    expect(groups.map((g) => g.label)).toEqual(['h2 / wifi', 'http11 / wifi', 'http11 / lte']);
    const [h2wifi, h1wifi, h1lte] = groups;
    expect(h2wifi).toMatchObject({ ok: 2, failed: 1 });
    expect(h2wifi.metrics.rebufferRate.mean).toBeCloseTo(0.03, 12);
    expect(h2wifi.metrics.rebufferRate).toMatchObject({ n: 2, min: 0.02, max: 0.04 });
    expect(h2wifi.metrics.startupDelaySeconds).toMatchObject({ n: 2, mean: 1, min: 0.5, max: 1.5 });
    expect(h2wifi.metrics.startupDelaySeconds.ci95).toBeCloseTo(12.706 * 0.5, 9); // sd 0.7071, t(1), /sqrt(2)
    expect(h2wifi.metrics.meanSeekWaitSeconds.n).toBe(0);
    expect(h1wifi.metrics.meanSeekWaitSeconds.mean).toBe(2);
    expect(h1lte.metrics.linkUtilization.mean).toBe(0.8);

    const t = pivot(groups, 'rebufferRate');
    expect(t.rows).toEqual(['wifi', 'lte']);
    expect(t.cols).toEqual(['h2 / bba2', 'http11 / bba2']);
    expect(t.cells[1][0]).toBeNull(); // h2 never ran on lte
    const rate = METRICS.find((m) => m.key === 'rebufferRate');
    // 2 % and 4 %: sd 1.414 points, t(1) = 12.706 -> +-12.71 points
    expect(formatCell(t.cells[0][0], rate)).toBe('3.00 ± 12.71 (2.00-4.00, n=2)');
    expect(formatCell(t.cells[0][1], rate)).toBe('10.00 (n=1)');
    expect(formatCell(t.cells[1][0], rate)).toBe('-');
  });
});

describe('testbed metrics of one playback', () => {
  const qoe = {
    segments: [
      { bytes: 500000, requestStart: 1000, lastByte: 2000 },
      { bytes: 500000, requestStart: 2000, lastByte: 5000 },
    ],
  };
  const counters = {
    toClient: { packetsIn: 1000, bytesIn: 1100000, packetsOut: 990, bytesOut: 1050000, drops: { down: 0, loss: 4, queue: 6 } },
    toServer: { packetsIn: 500, bytesIn: 30000, packetsOut: 500, bytesOut: 30000, drops: { down: 0, loss: 0, queue: 0 } },
    lateTimers: { count: 2, maxMs: 7 },
  };

  test('overhead, media throughput, link utilization and PLR (paper 003 eq. 1 and 2)', () => {
    const m = playbackMetrics({ qoe, counters, rate: { kind: 'constant', bitsPerSecond: 2.5e6 } });
    expect(m.mediaBytes).toBe(1e6);
    expect(m.overhead).toBeCloseTo(1 - 1e6 / 1050000, 12); // 4.76 %
    expect(m.mediaThroughput).toBe(2e6); // 8 Mbit over 4 s
    expect(m.availableRate).toBe(2.5e6);
    expect(m.linkUtilization).toBeCloseTo(0.8, 12);
    expect(m.packetLossRatio).toBeCloseTo(0.01, 12);
    expect(m.packetLossRatioUp).toBe(0);
    expect(m.lateTimers).toBe(2);
  });

  test('a multipath link offers the sum of its paths: two 2.5 Mbit/s paths, 2 Mbit/s of media = 40 %; an unlimited path leaves it unknown', () => {
    const path = { kind: 'constant', bitsPerSecond: 2.5e6 };
    const m = playbackMetrics({ qoe, counters, rate: [path, path] });
    expect(m.availableRate).toBe(5e6);
    expect(m.linkUtilization).toBeCloseTo(0.4, 12);
    expect(playbackMetrics({ qoe, counters, rate: [path, null] }).linkUtilization).toBeNull();
    expect(playbackMetrics({ qoe, counters, rate: [path] }).linkUtilization).toBeCloseTo(0.8, 12);
  });

  test('the available rate is the schedule\'s mean over the download window, on the link\'s clock', () => {
    // square 1/3 Mbit/s, 4 s period: high in [0, 2 s), low in [2, 4 s): mean over 4 s = 2 Mbit/s
    const square = { kind: 'square', lowBitsPerSecond: 1e6, highBitsPerSecond: 3e6, periodMs: 4000 };
    expect(meanRate(square, 0, 4000)).toBeCloseTo(2e6, 6);
    expect(meanRate(square, 0, 2000)).toBeCloseTo(3e6, 6);
    // page clock 1000..5000 + 1000 ms offset = link clock 2000..6000: 2 s low, 2 s high
    const m = playbackMetrics({ qoe, counters, rate: square, pageToLinkMs: 1000 });
    expect(m.availableRate).toBeCloseTo(2e6, 6);
    expect(meanRate({ kind: 'steps', steps: [{ atMs: 0, bitsPerSecond: 1e6 }, { atMs: 1000, bitsPerSecond: 5e6 }] }, 0, 2000)).toBeCloseTo(3e6, 6);
  });

  test('overhead counts up to the last finished response: a download cut off by the stop is not overhead', () => {
    // Wire bytes over page time: 1.05 MB by 5000 ms (the last segment's last byte), then a
    // cut-off download adds 400 KB the player never finished.
    const wireSeries = [[1000, 0], [3000, 500000], [5000, 1050000], [6000, 1450000]];
    const withBodies = { ...qoe, summary: { bytesPerTransport: { http11: 1010000 } } }; // + MPD and init
    const m = playbackMetrics({ qoe: withBodies, counters: { ...counters, toClient: { ...counters.toClient, bytesOut: 1450000 } }, wireSeries });
    expect(m.bodyBytes).toBe(1010000);
    expect(m.wireBytesDown).toBe(1450000);
    expect(m.overhead).toBeCloseTo(1 - 1010000 / 1050000, 12);
  });

  test('interpolation in a time series', () => {
    const series = [[0, 0], [10, 100], [20, 100]];
    expect([-5, 0, 5, 10, 15, 25].map((t) => valueAt(series, t))).toEqual([0, 0, 50, 100, 100, 100]);
    expect(valueAt([], 3)).toBeNull();
  });

  test('no emulator, no link rate: those metrics are null, not zero', () => {
    const m = playbackMetrics({ qoe, counters: null, rate: null });
    expect(m).toMatchObject({ overhead: null, linkUtilization: null, packetLossRatio: null, wireBytesDown: null, mediaThroughput: 2e6 });
  });

  test('counters of the playback alone: after minus before, maxima kept', () => {
    const before = { toClient: { bytesIn: 100, drops: { loss: 1 }, queueDelayMsMax: 5 }, lateTimers: { count: 1, maxMs: 3 } };
    const after = { toClient: { bytesIn: 350, drops: { loss: 4 }, queueDelayMsMax: 9 }, lateTimers: { count: 1, maxMs: 3 } };
    expect(diffCounters(after, before)).toEqual({ toClient: { bytesIn: 250, drops: { loss: 3 }, queueDelayMsMax: 9 }, lateTimers: { count: 0, maxMs: 3 } });
  });

  test('the origin log in numbers: requests, media segments, connections, aborts', () => {
    const s = summarizeRequestLog([
      { listener: 'http11', connectionId: 1, path: '/content/sample/manifest.mpd', status: 200, bytes: 900, protocol: 'http/1.1' },
      { listener: 'http11', connectionId: 1, path: '/content/sample/init-0.m4s', status: 200, bytes: 800, protocol: 'http/1.1' },
      { listener: 'http11', connectionId: 2, path: '/content/sample/chunk-0-00001.m4s', status: 200, bytes: 50000, protocol: 'http/1.1', aborted: true },
    ]);
    expect(s).toEqual({ requests: 3, segments: 1, bytes: 51700, connections: 2, aborted: 1, statuses: { 200: 3 }, protocols: { 'http/1.1': 3 } });
  });
});

describe('tables and charts as text', () => {
  test('CSV quotes what needs quoting and keeps numbers readable', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(null)).toBe('');
    expect(csvCell(0.1 + 0.2)).toBe('0.3');
    const csv = toCsv([record({ transport: 'h2', abr: 'bba2', network: 'wifi', repetition: 1, status: 'failed', error: 'timed out, twice' })]);
    const [header, row] = csv.trim().split('\n');
    expect(header.split(',').slice(0, 24)).toEqual(['id', 'transport', 'bp', 'mode', 'pace', 'window', 'associations', 'receiveBuffer', 'carrier', 'cc', 'fixedMargin', 'streams', 'chunkBytes', 'gapMs', 'timeoutMinMs', 'timeoutMaxMs', 'losingCopy', 'abr', 'network', 'seekSchedule', 'switchSchedule', 'repetition', 'status', 'error']);
    expect(row).toContain('failed,"timed out, twice"');
  });

  test('charts: line models keep their series and styles, bar models a whisker over the 95 % interval, into one self-contained report', () => {
    const line = lineChartModel({ title: 'a<b', xLabel: 's', yLabel: 'v', series: [{ name: 'x', points: [[0, 1], [10, 2]] }, { name: 'y', step: true, dashed: true, points: [[0, 0], [5, 1]] }, { name: 'empty', points: [] }, { name: 'd', dots: true, points: [[1, 1]] }] });
    expect(line.series.map((x) => [x.label, x.style, x.dash])).toEqual([['x', 'line', false], ['y', 'step', true], ['d', 'points', false]]);
    const bars = barChartModel({ title: 't', unit: '%', bars: [{ label: 'h2', mean: 2, ci95: 0.5 }, { label: 'http11', mean: 3, ci95: null }, { label: 'h3', mean: null, ci95: null }] });
    expect(bars).toEqual({ type: 'bars', title: 't', unit: '%', categories: ['h2', 'http11', 'h3'], values: [2, 3, null], lo: [1.5, null, null], hi: [2.5, null, null] });
    const set = createChartSet();
    expect(set.place(line)).toBe('<div class="chart" data-chart="0"></div>');
    expect(set.place(bars)).toBe('<div class="chart" data-chart="1"></div>');
    // A "<" in a title cannot end the script early.
    expect(set.script()).toContain('"title":"a\\u003cb"');
    const inline = chartAssets();
    expect(inline).toContain('.uplot');
    expect(inline).toContain('root.labCharts = api');
    expect(inline).not.toMatch(/<script[^>]+src=/);
  });
});

test('the progress line of a playback warns when the emulator fell behind', () => {
  const { describeOutcome } = require('../../testbed/runner/outcome-line');
  const ok = { status: 'ok', summary: { startupDelaySeconds: 1.234, rebufferRate: 0.05, rebufferInstances: 2, averagePlaybackBitrate: 2.5e6, meanSeekWaitSeconds: null }, metrics: { linkUtilization: 0.8 } };
  expect(describeOutcome(ok)).toBe('startup 1.23 s, rebuffer 5.0 % (2x), 2.50 Mbit/s, link use 80 %');
  expect(describeOutcome({ ...ok, counters: { lateTimers: { count: 3, maxMs: 12.5 } } })).toMatch(/WARNING: emulator timers late 3x \(max 12\.5 ms\)/);
  // A few among many packets, none past the lab's 50 ms limit (the runner keeps such a playback):
  // reported, not a warning; one past the limit, or many: a warning.
  const traffic = { toClient: { packetsOut: 90000 }, toServer: { packetsOut: 50000 } };
  expect(describeOutcome({ ...ok, counters: { ...traffic, lateTimers: { count: 5, maxMs: 9.4 } } })).toBe('startup 1.23 s, rebuffer 5.0 % (2x), 2.50 Mbit/s, link use 80 %, emulator timers late 5x (max 9.4 ms)');
  expect(describeOutcome({ ...ok, counters: { ...traffic, lateTimers: { count: 5, maxMs: 44.6 } } })).toBe('startup 1.23 s, rebuffer 5.0 % (2x), 2.50 Mbit/s, link use 80 %, emulator timers late 5x (max 44.6 ms)');
  expect(describeOutcome({ ...ok, counters: { ...traffic, lateTimers: { count: 5, maxMs: 52.1 } } })).toMatch(/WARNING: emulator timers late 5x \(max 52\.1 ms\), past the lab's 50 ms limit; the machine was too busy/);
  // Judged by the limit the run played it under: kept after all its tries, or with no limit at all.
  const late = { ...ok, counters: { ...traffic, lateTimers: { count: 5, maxMs: 64.1 } } };
  expect(describeOutcome({ ...late, lateCheck: { limitMs: 50, try: 3, tries: 3 } })).toMatch(/max 64\.1 ms\), past the run's 50 ms limit on all 3 tries; the machine was too busy/);
  expect(describeOutcome({ ...late, lateCheck: { limitMs: null, try: 1, tries: 1 } })).toMatch(/past the lab's 50 ms limit; the run set none \(--late-limit off\); the machine was too busy/);
  expect(describeOutcome({ ...late, counters: { ...traffic, lateTimers: { count: 5, maxMs: 25 } }, lateCheck: { limitMs: 20, try: 1, tries: 1 } })).toMatch(/WARNING: .*past the run's 20 ms limit on its only try/);
  expect(describeOutcome({ ...ok, counters: { ...traffic, lateTimers: { count: 141, maxMs: 9.4 } } })).toMatch(/WARNING: emulator timers late 141x \(max 9\.4 ms\), more than 1 in 1000 packets; the machine was busy/);
  expect(describeOutcome({ status: 'failed', error: 'boom' })).toBe('FAILED: boom');
  // A live playback's latency growth is signed: none (a few ms less at the end) is +0.0.
  const liveOk = (g) => ({ ...ok, summary: { ...ok.summary, liveLatencyMeanSeconds: 9.7, liveLatencyGrowthSeconds: g } });
  expect(describeOutcome(liveOk(-0.004))).toContain('live latency 9.7 s (+0.0)');
  expect(describeOutcome(liveOk(1.26))).toContain('live latency 9.7 s (+1.3)');
  expect(describeOutcome(liveOk(-0.5))).toContain('live latency 9.7 s (-0.5)');
  // A timeout says where the page was: stuck at the end with everything buffered is a player bug.
  const diagnostics = { labState: 'running', video: { currentTime: 149.96, duration: 150, paused: false, ended: false, readyState: 2, error: null, buffered: [[0, 149.96]] } };
  expect(describeOutcome({ status: 'failed', error: 'Timeout', diagnostics }))
    .toBe('FAILED: Timeout (page running: media time 150.0 s of 150.0, buffered 0-149.96, playing, readyState 2)');
});

test('the progress line shows FDSP PLR and warns of drops outside the emulator', () => {
  const { describeOutcome } = require('../../testbed/runner/outcome-line');
  const summary = { startupDelaySeconds: 1, rebufferRate: 0, rebufferInstances: 0, averagePlaybackBitrate: 1e6, meanSeekWaitSeconds: null, transport: { plr: 0.0123, unreliableChunks: 800 } };
  const drops = (rcv) => ({ client: { udp: { RcvbufErrors: rcv }, tun: { txDropped: 0 } }, server: { udp: { RcvbufErrors: 0 }, tun: { txDropped: 1 } } });
  expect(describeOutcome({ status: 'ok', summary, endpointDrops: drops(0) })).toBe('startup 1.00 s, rebuffer 0.0 % (0x), 1.00 Mbit/s, WARNING: 1 packets dropped at the endpoints (socket buffers), outside the emulator, PLR 1.23 %');
  expect(describeOutcome({ status: 'ok', summary: { ...summary, transport: null }, endpointDrops: { ...drops(0), server: { udp: { RcvbufErrors: 0 }, tun: { txDropped: 0 } } } })).toBe('startup 1.00 s, rebuffer 0.0 % (0x), 1.00 Mbit/s');
});

describe('the paper\'s figures beside ours', () => {
  const { referencePivot } = require('../../testbed/report/paper-reference');
  const reference = {
    source: 'paper 000 Table 3',
    entries: [
      { transport: 'fdsp-bp0', network: 'rtt50', values: { rebufferSeconds: 0.093, rebufferInstances: 2 } },
      { transport: 'http11', abr: 'fixed', network: 'rtt50', values: { rebufferSeconds: 1.147 } },
      { transport: 'http11', abr: 'other', network: 'rtt100', values: { rebufferSeconds: 99 } },
    ],
  };
  const records = [
    record({ transport: 'fdsp-bp0', abr: 'fixed', network: 'rtt50', repetition: 1, summary: { rebufferSeconds: 0.4 } }),
    record({ transport: 'http11', abr: 'fixed', network: 'rtt50', repetition: 1, summary: { rebufferSeconds: 3 } }),
    record({ transport: 'http11', abr: 'fixed', network: 'rtt100', repetition: 1, summary: { rebufferSeconds: 5 } }),
  ];

  test('laid out like our table: same rows and columns, the paper\'s value or nothing', () => {
    const groups = aggregate(records);
    const ours = pivot(groups, 'rebufferSeconds');
    const paper = referencePivot(groups, reference, 'rebufferSeconds');
    expect(paper.rows).toEqual(ours.rows);
    expect(paper.cols).toEqual(ours.cols);
    const rebuffer = METRICS.find((m) => m.key === 'rebufferSeconds');
    const text = paper.cells.map((row) => row.map((c) => formatCell(c, rebuffer)));
    // rows rtt50, rtt100; columns fdsp-bp0, http11. The http11 entry for another ABR is not ours.
    expect(paper.rows).toEqual(['rtt50', 'rtt100']);
    expect(paper.cols).toEqual(['fdsp-bp0 / fixed', 'http11 / fixed']);
    expect(text).toEqual([['0.09', '1.15'], ['-', '-']]);
    expect(referencePivot(groups, reference, 'startupDelaySeconds')).toBeNull();
    expect(referencePivot(groups, undefined, 'rebufferSeconds')).toBeNull();
  });

  test('an entry with a switch schedule fills only that row; rows are network / switch schedule', () => {
    const groups = aggregate([
      record({ transport: 'http11', abr: 'basic', network: 'wifi', switchSchedule: 'wifi-lte', repetition: 1, summary: { rebufferRate: 0.01 } }),
      record({ transport: 'http11', abr: 'basic', network: 'wifi', switchSchedule: 'wifi-3g', repetition: 1, summary: { rebufferRate: 0.2 } }),
    ]);
    const ref = { source: 'paper 002 Tables 8-9', entries: [{ transport: 'http11', abr: 'basic', network: 'wifi', switch: 'wifi-3g', values: { rebufferRate: 0.13 } }] };
    const paper = referencePivot(groups, ref, 'rebufferRate');
    expect(paper.rowHeader).toBe('network / switchSchedule');
    expect(paper.rows).toEqual(['wifi / wifi-lte', 'wifi / wifi-3g']);
    expect(paper.cells.map((row) => row.map((c) => (c ? c.mean : null)))).toEqual([[null], [0.13]]);
  });

  test('report.md shows the paper\'s table after ours, naming the source', () => {
    const fs = require('node:fs');
    const os = require('node:os');
    const path = require('node:path');
    const { writeReport } = require('../../testbed/report/write-report');
    const { validateScenario } = require('../../testbed/scenario/validate-scenario');
    const { getPreset } = require('../../origin/content/presets');
    const scenario = validateScenario({
      name: 'ref', content: 'sample', transports: ['http11', { name: 'datachannel', label: 'fdsp-bp0', bp: 0 }], abrs: ['fixed'],
      profiles: { rtt50: { rttMs: 50 }, rtt100: { rttMs: 100 } },
      reference: { source: 'paper 000 Table 3', entries: [{ transport: 'fdsp-bp0', network: 'rtt50', rebufferSeconds: 0.093 }, { transport: 'http11', network: 'rtt50', rebufferSeconds: 1.147 }] },
    }, { source: 'ref.yaml', defaultName: 'ref', getPreset });
    const dir = makeLabTempDir('report');
    try {
      fs.writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify(scenario));
      fs.mkdirSync(path.join(dir, 'playbacks'));
      for (const r of records.map((x) => ({ ...x, id: `${x.transport}.${x.abr}.${x.network}.r1`, emulated: true }))) fs.writeFileSync(path.join(dir, 'playbacks', `${r.id}.json`), JSON.stringify(r));
      // An FDSP run records its content's reliable shares per BP; the report prints them.
      const byBp = [0, 100].map((bp) => ({ bp, bytesShare: bp ? 0.2 : 0.01, packetsShare: bp ? 0.15 : 0.008 }));
      fs.writeFileSync(path.join(dir, 'content-shares.json'), JSON.stringify({ content: 'sample', segmentSeconds: 2, representations: [{ id: '0', bandwidth: 300000, height: 216, iSliceBytesShare: 0.19, iFramesPer30Seconds: 15, byBp }] }));
      // A results.csv from an older code (fewer columns): the report rebuilds it from the records.
      fs.writeFileSync(path.join(dir, 'results.csv'), 'id,status\nstale,ok\n');
      const files = writeReport(dir);
      const csv = fs.readFileSync(path.join(dir, 'results.csv'), 'utf8');
      expect(csv.split('\n')[0]).toBe(toCsv([]).split('\n')[0]);
      expect(csv).toContain('http11.fixed.rtt50.r1');
      expect(csv).not.toContain('stale');
      const md = fs.readFileSync(files.md, 'utf8');
      expect(md).toContain('## Reliable share per BP (content sample)');
      expect(md).toContain('| rung | I-slice data | I-frames / 30 s | BP 0 | BP 100 |\n| --- | --- | --- | --- | --- |\n| 300 kbit/s 216p | 19.0 % | 15.0 | 1.0 % / 0.8 % | 20.0 % / 15.0 % |');
      expect(fs.readFileSync(files.html, 'utf8')).toContain('<h2>Reliable share per BP (content sample)</h2>');
      const section = md.slice(md.indexOf('## Rebuffer time'), md.indexOf('## ', md.indexOf('## Rebuffer time') + 3));
      expect(section).toMatch(/\| network \\ transport \/ abr \| http11 \/ fixed \| fdsp-bp0 \/ fixed \|\n\| --- \| --- \| --- \|\n\| rtt50 \| 3.00 \(n=1\) \| 0.40 \(n=1\) \|\n\| rtt100 \| 5.00 \(n=1\) \| - \|/);
      // One playback per cell: no interval, said under the table.
      expect(section).toContain('- every cell rests on one playback: no intervals, so no difference between cells is established');
      expect(section).toMatch(/The paper's figures \(paper 000 Table 3\), same layout; - where it gives none:\n\n\| network \\ transport \/ abr \| http11 \/ fixed \| fdsp-bp0 \/ fixed \|\n\| --- \| --- \| --- \|\n\| rtt50 \| 1.15 \| 0.09 \|\n\| rtt100 \| - \| - \|/);
      // Metrics the paper gives nothing for get no paper table.
      expect(md.slice(md.indexOf('## Startup delay'), md.indexOf('## Rebuffer rate'))).not.toMatch(/paper's figures/);
      expect(fs.readFileSync(files.html, 'utf8')).toMatch(/The paper&#39;s figures|The paper's figures/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
