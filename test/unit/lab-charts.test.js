'use strict';
// The charts of the page and the report: chart models -> uPlot's options and data (the real
// uPlot module), and what the page's charts show of a QoE record.
const uPlot = require('uplot');
const { toUplot, alignSeries, formatValue, formatTick } = require('../../shared/charts/lab-charts');
const { pageChartModels, linkRatePoints } = require('../../player/ui/page-charts');

const SIZE = { width: 400, height: 200 };

test('series on one x axis: a series without a point at some x is undefined there (drawn across), not null (a gap)', () => {
  expect(alignSeries([[[0, 1], [2, 3]], [[1, 10], [2, 20]]])).toEqual([[0, 1, 2], [1, undefined, 3], [undefined, 10, 20]]);
});

test('values carry their unit; bit/s as kbit/s or Mbit/s, ticks in Mbit/s', () => {
  expect(formatValue(2.5e6, 'bit/s')).toBe('2.50 Mbit/s');
  expect(formatValue(750e3, 'bit/s')).toBe('750 kbit/s');
  expect(formatValue(7.25, 's')).toBe('7.25 s');
  expect(formatValue(null, 's')).toBe('-');
  expect(formatTick(4.5e6, 'bit/s')).toBe('4.5');
});

test('a line model: one uPlot series per model series, step and point styles, axes labelled', () => {
  const { opts, data } = toUplot({
    type: 'lines', title: 'Bitrate', xLabel: 'seconds', yLabel: 'Mbit/s', unit: 'bit/s',
    series: [{ label: 'rendered', style: 'step', points: [[0, 1e6], [4, 2e6]] }, { label: 'ABR decision', style: 'points', points: [[1, 2e6]] }, { label: 'link', dash: true, points: [[0, 3e6], [4, 3e6]] }],
  }, uPlot, SIZE);
  expect(opts.series.map((s) => s.label)).toEqual(['x', 'rendered', 'ABR decision', 'link']);
  expect(typeof opts.series[1].paths).toBe('function');
  expect(opts.series[2].points.show).toBe(true);
  expect(opts.series[2].width).toBe(0);
  expect(opts.series[3].dash).toEqual([6, 4]);
  expect(opts.series[1].value(null, 2e6)).toBe('2.00 Mbit/s');
  expect(opts.axes.map((a) => a.label)).toEqual(['seconds', 'Mbit/s']);
  expect(data).toEqual([[0, 1, 4], [1e6, undefined, 2e6], [undefined, 2e6, undefined], [3e6, undefined, 3e6]]);
});

test('a bar model: one bar per category, the y range covering the intervals, a draw hook for the whiskers', () => {
  const model = { type: 'bars', title: 'Startup', unit: 's', categories: ['h2', 'h3'], values: [2, null], lo: [-0.5, null], hi: [4.5, null] };
  const { opts, data } = toUplot(model, uPlot, SIZE);
  expect(data).toEqual([[0, 1], [2, null]]);
  expect(opts.scales.y.range()).toEqual([-0.55, 4.95]);
  expect(opts.axes[0].values(null, [0, 1])).toEqual(['h2', 'h3']);
  expect(opts.hooks.draw).toHaveLength(1);
  expect(() => toUplot({ type: 'pie' }, uPlot, SIZE)).toThrow(/unknown chart type pie/);
});

test('the link\'s configured rate over a playback follows each state from its clock origin', () => {
  const square = { kind: 'square', lowBitsPerSecond: 1e6, highBitsPerSecond: 2e6, periodMs: 2000 };
  const history = [{ downlinkRate: square, clockOriginWallMs: 10000 }, { downlinkRate: { kind: 'constant', bitsPerSecond: 5e6 }, clockOriginWallMs: 12000 }];
  const points = linkRatePoints(history, 9500, 3);
  // Before the first state: nothing; then the square wave (high first) from its origin; then 5 Mbit/s.
  expect(points[0]).toEqual([0.5, 2e6]);
  expect(points.find(([x]) => x === 1.5)).toEqual([1.5, 1e6]);
  expect(points.find(([x]) => x === 2.5)).toEqual([2.5, 5e6]);
  expect(linkRatePoints([], 0, 3)).toBeNull();
  expect(linkRatePoints([{ downlinkRate: null, clockOriginWallMs: 0 }], 0, 3)).toBeNull();
});

test('the page\'s charts: buffer (and live latency), bitrate with ABR decisions, throughput with the link rate', () => {
  const q = {
    timeline: [{ type: 'load', t: 1000 }],
    bufferSeries: [[1000, 0], [3000, 4]],
    liveLatencySeries: [[2000, 8]],
    bitrateSeries: [[1500, 1e6]],
    decisions: [{ t: 1200, bandwidth: 1e6 }, { t: 1300, abandoned: true }],
    segments: [{ lastByte: 1600, bandwidth: 1e6, throughput: 8e6 }],
  };
  const [buffer, bitrate, throughput] = pageChartModels(q, { linkHistory: [{ downlinkRate: 20e6, clockOriginWallMs: 0 }], pageTimeOrigin: 5000 });
  expect(buffer.series.map((s) => s.label)).toEqual(['buffer level', 'live latency']);
  expect(buffer.series[0].points).toEqual([[0, 0], [2, 4]]);
  expect(bitrate.series.map((s) => [s.label, s.style])).toEqual([['rendered', 'step'], ['ABR decision', 'points'], ['downloaded segment', 'points']]);
  expect(bitrate.series[1].points).toEqual([[0.2, 1e6]]);
  expect(throughput.series.map((s) => s.label)).toEqual(['segment throughput', 'link rate (configured)']);
  expect(throughput.series[1].points[0]).toEqual([0, 20e6]);
  expect(pageChartModels({ ...q, liveLatencySeries: undefined })[0].series).toHaveLength(1);
});
