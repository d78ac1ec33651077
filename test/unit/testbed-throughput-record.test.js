'use strict';
// What a throughput run's record holds, from a page result and a competing flow worked out by
// hand: 10 s windows, the model's bound by transport (eq. 4 for the parallel streams, eq. 1
// for one connection), the throughput ratio, the overhead without the flow's bytes; then the
// report's mean and 95 % interval over repetitions, and the progress line.
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { expandMatrix } = require('../../testbed/scenario/expand-matrix');
const { getPreset } = require('../../origin/content/presets');
const { throughputFields, modelForRun } = require('../../testbed/runner/throughput-record');
const { playbackRecord } = require('../../testbed/runner/playback-record');
const { toRow } = require('../../testbed/runner/results-table');
const { aggregate, interval95, formatCell, pivot, reportMetrics } = require('../../testbed/report/aggregate');
const { outcomeLine } = require('../../testbed/runner/outcome-line');

const scenario = validateScenario({
  name: 'tp', throughput: { seconds: 30 }, competingFlows: [{ cc: 'reno' }],
  transports: ['http11', { name: 'parallel', label: 'par-gap350', streams: 10, chunkBytes: 20480, gapMs: 350 }],
  profiles: { rtt100: { rttMs: 100, lossPercent: 1, rateMbps: 8.192 } },
}, { source: 'tp.yaml', defaultName: 'tp', getPreset, readText: () => { throw new Error('no files'); } });
const [http11, parallel] = expandMatrix(scenario);

const T0 = 1.7e12; // the page's start on the runner's lab clock (lab-clock.js)
const PAGE_ORIGIN = T0 - 1000; // the page's time 0 on that clock: the page started fetching 1 s after it
// The page: a steady 2 Mbit/s (250000 B/s) for 30 s, sampled each second. Its wall clock had
// stepped 13 s forward (a VM resumed from a snapshot), which the page's clock does not see.
const page = (rate = 250000) => ({
  startedAtPageMs: 1000, seconds: 30, bytes: 30 * rate, requests: 2, completedRequests: 1, protocols: ['http/1.1'], transportStats: null,
  samples: Array.from({ length: 31 }, (_, s) => [s * 1000, s * rate]),
});
// The competing flow: 1 Mbit/s from the start, on the lab clock; the emulator saw 3.9 MB of it.
const flow = () => ({
  label: 'reno1', cc: 'reno', ccSeen: 'reno', address: '10.77.50.100', port: 50000, startSeconds: 0, stopSeconds: null, error: null,
  receivedBytes: 3750000, sentBytes: 3800000, samples: [[T0, 0], [T0 + 30000, 3750000]],
  emulator: { toClient: { packetsIn: 2700, bytesIn: 3.95e6, packetsOut: 2650, bytesOut: 3.9e6 }, toServer: {} },
});
const counters = { toClient: { packetsIn: 8000, bytesOut: 12e6, drops: { loss: 80 } }, toServer: { packetsIn: 4000, bytesOut: 3e5, drops: { loss: 40 } }, lateTimers: { count: 0, maxMs: 0 } };

const fieldsOf = (p, t = page()) => throughputFields({
  playback: p, profile: p.profile, throughputOptions: scenario.throughput, throughput: t, competingFlows: [flow()], linkStartLabMs: T0 - 20, pageTimeOrigin: PAGE_ORIGIN, counters,
});

test('windows, mean, model (eq. 4), ratio and overhead of a parallel run', () => {
  const f = fieldsOf(parallel);
  expect(f.throughput.windows.map((w) => w.bitsPerSecond)).toEqual([2e6, 2e6, 2e6]);
  expect(f.throughput.windowStats).toMatchObject({ n: 3, mean: 2e6, cv: 0 });
  expect(f.throughput.inOrderThroughput).toBe(2e6);
  // eq. 4, RTT 100 ms, 1 % loss: 3,508,492.9 bit/s, under the 8192 kbit/s link.
  expect(f.model).toMatchObject({ equation: 'eq4', lostPackets: 2, assumptionHolds: true, rateBps: 8192000, streams: { streams: 10, chunkBytes: 20480, gapMs: 350 } });
  expect(f.model.capped).toBeCloseTo(3508492.9, 0);
  expect(f.ratio).toEqual({ fromMs: 0, toMs: 30000, ours: 2e6, theirs: 1e6, ratio: 2 });
  expect(f.competingFlows[0]).toMatchObject({ label: 'reno1', ccSeen: 'reno', meanThroughput: 1e6 });
  expect(f.competingFlows[0].windows.map((w) => w.bitsPerSecond)).toEqual([1e6, 1e6, 1e6]);
  // Overhead counts the run's own IP bytes: 12 MB down minus the flow's 3.9 MB.
  expect(f.metrics.overhead).toBeCloseTo(1 - 7.5e6 / 8.1e6, 12);
  expect(f.metrics).toMatchObject({ inOrderThroughput: 2e6, throughputRatio: 2, competingThroughput: 1e6, modelEquation: 'eq4', packetLossRatio: 0.01, mediaThroughput: null });
  expect(f.metrics.throughputToModel).toBeCloseTo(2e6 / 3508492.9, 6);
  expect(f.metrics.linkUtilization).toBeCloseTo(2e6 / 8192000, 12);
});

test('one connection gets eq. 1; no loss leaves only the link as the bound; no RTT, no model', () => {
  expect(fieldsOf(http11).model).toMatchObject({ equation: 'eq1', bound: 1168000, capped: 1168000, streams: null });
  const clean = { ...http11, profile: { ...http11.profile, lossPercent: 0 } };
  expect(modelForRun(clean, clean.profile, 8192000)).toMatchObject({ equation: 'eq1', bound: null, capped: 8192000 });
  expect(modelForRun(http11, { rate: http11.profile.rate }, 8192000)).toBeNull();
  expect(modelForRun(http11, null, null)).toBeNull();
});

test("a flow that starts late: the ratio covers only the time both ran", () => {
  const late = { ...flow(), startSeconds: 10, samples: [[T0 + 10000, 0], [T0 + 30000, 1250000]] }; // 0.5 Mbit/s from 10 s
  const f = throughputFields({ playback: parallel, profile: parallel.profile, throughputOptions: scenario.throughput, throughput: page(), competingFlows: [late], linkStartLabMs: T0, pageTimeOrigin: PAGE_ORIGIN, counters });
  expect(f.ratio).toEqual({ fromMs: 10000, toMs: 30000, ours: 2e6, theirs: 0.5e6, ratio: 4 });
  expect(f.competingFlows[0].windows.map((w) => [w.startMs, w.bitsPerSecond])).toEqual([[10000, 0.5e6], [20000, 0.5e6]]);
});

/** A whole record as the runner writes it, for the results table and the report. */
function record(p, rate, repetition = 1) {
  return playbackRecord({
    scenario, playback: { ...p, repetition, id: p.id.replace(/r1$/, `r${repetition}`) }, emulated: true, playerConfig: {}, startedAt: new Date(0), endedAt: new Date(40000),
    played: { throughput: page(rate), competingFlows: [flow()], linkStartLabMs: T0, pageTimeOrigin: PAGE_ORIGIN, counters, endpointDrops: null, countersPageLoad: null, switchLog: [], pageToLinkMs: 0, wireSeries: null, pageErrors: [], console: [] },
    requestLog: [],
  });
}

test('the record and its results.csv row', () => {
  const r = record(parallel, 250000);
  expect(r).toMatchObject({ status: 'ok', kind: 'throughput', summary: null, transport: 'par-gap350', abr: null });
  expect(r.qoe).toBeUndefined();
  const row = toRow(r);
  expect(row).toMatchObject({ inOrderThroughput: 2e6, throughputRatio: 2, competingThroughput: 1e6, modelEquation: 'eq4', abr: null, startupDelaySeconds: null });
  expect(outcomeLine('[1/2] x', r)).toMatch(/ok in-order 2\.00 Mbit\/s, 10 s windows vary 0 %, model <= 3\.51 Mbit\/s \(eq4\), reno1 \(reno\) 1\.00 Mbit\/s, ratio 2\.00 \(40 s\)/);
});

test('the report: mean and 95 % interval over repetitions, the model beside, no ABR in the headers', () => {
  // 2.0 and 2.2 Mbit/s: mean 2.1, sd 0.1414, t(1) = 12.706 -> +-1.2706 Mbit/s.
  expect(interval95([2e6, 2.2e6])).toBeCloseTo(12.706 * 1e5, 3);
  expect(interval95([1])).toBeNull();
  // t(4) = 2.776: values 1..5, sd 1.5811, half-width 2.776 * 1.5811 / sqrt(5) = 1.963.
  expect(interval95([1, 2, 3, 4, 5])).toBeCloseTo(1.963, 3);
  const groups = aggregate([record(parallel, 250000, 1), record(parallel, 275000, 2), record(http11, 125000, 1)]);
  const par = groups.find((g) => g.key.transport === 'par-gap350');
  expect(par.label).toBe('par-gap350');
  expect(par.metrics.inOrderThroughput).toMatchObject({ n: 2, mean: 2.1e6, min: 2e6, max: 2.2e6 });
  expect(par.metrics.inOrderThroughput.ci95).toBeCloseTo(12.706 * 1e5, 3);
  expect(par.metrics.startupDelaySeconds).toEqual({ n: 0, mean: null, min: null, max: null, ci95: null }); // a throughput run plays nothing
  const metric = reportMetrics().find((m) => m.key === 'inOrderThroughput');
  const t = pivot(groups, 'inOrderThroughput');
  expect(t.colHeader).toBe('transport');
  expect(t.cols).toEqual(['par-gap350', 'http11']); // in the order the records came
  expect(formatCell(t.cells[0][0], metric)).toBe('2100 ± 1271 (2000-2200, n=2)');
  expect(formatCell(t.cells[0][1], metric)).toBe('1000 (n=1)');
  expect(metric.beside).toBe('modelBound');
});
