'use strict';
// Throughput series arithmetic: cumulative byte samples into 10 s windows, mean rates over an
// interval, steadiness, and paper 001's throughput ratio, on series worked out by hand.
const {
  bytesAt, meanRate, windowRates, windowStats, overlap, rebase, throughputRatio,
} = require('../../testbed/runner/throughput-series');

// 1 Mbit/s (125000 B/s) for 10 s, then 2 Mbit/s for 10 s, then nothing for 5 s; sampled each second.
const series = [];
for (let s = 0; s <= 25; s += 1) series.push([s * 1000, s <= 10 ? s * 125000 : s <= 20 ? 1250000 + (s - 10) * 250000 : 3750000]);

test('bytes at a time: linear between samples, clamped outside them', () => {
  expect(bytesAt(series, 500)).toBe(62500);
  expect(bytesAt(series, 10000)).toBe(1250000);
  expect(bytesAt(series, -5)).toBe(0);
  expect(bytesAt(series, 99999)).toBe(3750000);
  expect(bytesAt([], 10)).toBe(0);
  // A sample whose time repeats takes the later value.
  expect(bytesAt([[0, 0], [1000, 5], [1000, 9]], 1000)).toBe(5);
});

test('mean rate over an interval, in bit/s', () => {
  expect(meanRate(series, 0, 10000)).toBe(1e6);
  expect(meanRate(series, 10000, 20000)).toBe(2e6);
  expect(meanRate(series, 5000, 15000)).toBe(1.5e6);
  expect(meanRate(series, 0, 25000)).toBe(1.2e6); // 3.75 MB in 25 s
  expect(meanRate(series, 10, 10)).toBeNull();
  expect(meanRate([], 0, 10)).toBeNull();
});

test('whole windows only: the last 5 s are no window', () => {
  const w = windowRates(series, { fromMs: 0, toMs: 25000, windowMs: 10000 });
  expect(w).toEqual([{ startMs: 0, endMs: 10000, bitsPerSecond: 1e6 }, { startMs: 10000, endMs: 20000, bitsPerSecond: 2e6 }]);
  // A window ending exactly at the end counts; a start other than 0 shifts them (15-25 s: 5 s at 2, 5 s at 0).
  expect(windowRates(series, { fromMs: 5000, toMs: 25000, windowMs: 10000 }).map((x) => x.bitsPerSecond)).toEqual([1.5e6, 1e6]);
});

test('window statistics: mean, sample standard deviation, coefficient of variation', () => {
  const s = windowStats([{ bitsPerSecond: 1e6 }, { bitsPerSecond: 2e6 }, { bitsPerSecond: 3e6 }]);
  expect(s).toMatchObject({ n: 3, mean: 2e6, sd: 1e6, min: 1e6, max: 3e6 });
  expect(s.cv).toBeCloseTo(0.5, 12);
  expect(windowStats([{ bitsPerSecond: 4 }])).toMatchObject({ n: 1, mean: 4, sd: 0, cv: 0 });
  expect(windowStats([])).toEqual({ n: 0, mean: null, sd: null, cv: null, min: null, max: null });
});

test('intervals and clocks', () => {
  expect(overlap([0, 500000], [0, 300000])).toEqual([0, 300000]);
  expect(overlap([0, 10], [10, 20])).toBeNull();
  expect(rebase([[1700000001000, 5], [1700000002000, 9]], 1700000000000)).toEqual([[1000, 5], [2000, 9]]);
});

test("throughput ratio: ours over the competing flows' sum, over the window both ran", () => {
  // Ours: 1 Mbit/s then 2 Mbit/s; a flow at a steady 0.5 Mbit/s, another at 1 Mbit/s.
  const half = [[0, 0], [20000, 1250000]];
  const one = [[0, 0], [20000, 2500000]];
  expect(throughputRatio(series, [half], [0, 20000])).toEqual({ ours: 1.5e6, theirs: 0.5e6, ratio: 3 });
  expect(throughputRatio(series, [half, one], [10000, 20000])).toEqual({ ours: 2e6, theirs: 1.5e6, ratio: 2e6 / 1.5e6 });
  // A flow that carried nothing: no ratio rather than Infinity.
  expect(throughputRatio(series, [[[0, 0], [20000, 0]]], [0, 20000]).ratio).toBeNull();
});
