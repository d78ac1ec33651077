'use strict';
// Paper 000 Fig. 10's "stable client buffer" as a number: the buffer level's mean and standard
// deviation from the first frame to the last segment's download (the drain after it is the
// media's end, not the transport's).
const { bufferOccupancy } = require('../../player/qoe/buffer-occupancy');
const { toRow, resultColumns } = require('../../testbed/runner/results-table');

const TIMELINE = [
  { type: 'load', t: 0 },
  { type: 'segment', t: 500, bytes: 1 },
  { type: 'playing', t: 1000 },
  { type: 'segment', t: 3000, bytes: 1 },
  { type: 'ended', t: 6000 },
];
// Before the first frame and after the last download: left out. Within: 2, 4, 6, 4 s.
const SERIES = [[250, 1], [750, 1.5], [1000, 2], [2000, 4], [2500, 6], [3000, 4], [4000, 3], [5000, 1]];

test('mean and standard deviation of the level between the first frame and the last download', () => {
  const o = bufferOccupancy(SERIES, TIMELINE);
  expect(o.samples).toBe(4);
  expect(o.meanSeconds).toBeCloseTo(4, 12);
  expect(o.sdSeconds).toBeCloseTo(Math.sqrt((4 + 0 + 4 + 0) / 4), 12);
});

test("a seek's wait is left out: the seek empties the buffer, not the transport", () => {
  const withSeek = [...TIMELINE.slice(0, 3), { type: 'seek', t: 2000, from: 1, to: 20 }, { type: 'playing', t: 2600 }, ...TIMELINE.slice(3)];
  const o = bufferOccupancy(SERIES, withSeek);
  expect(o.samples).toBe(2); // 2000 and 2500 are in the wait
  expect(o.meanSeconds).toBeCloseTo(3, 12);
});

test('nothing to say without a first frame, a later download, or samples', () => {
  expect(bufferOccupancy(SERIES, TIMELINE.filter((e) => e.type !== 'playing'))).toBeNull();
  expect(bufferOccupancy(SERIES, TIMELINE.filter((e) => e.t <= 1000))).toBeNull();
  expect(bufferOccupancy([], TIMELINE)).toBeNull();
  expect(bufferOccupancy(undefined, TIMELINE)).toBeNull();
});

test("results.csv reads them from a record's series, and leaves them empty for a record without one", () => {
  const names = resultColumns().map((c) => c.name);
  expect(names).toEqual(expect.arrayContaining(['bufferLevelMeanSeconds', 'bufferLevelSdSeconds']));
  const row = toRow({ id: 'x', status: 'ok', summary: {}, qoe: { bufferSeries: SERIES, timeline: TIMELINE } });
  expect(row.bufferLevelMeanSeconds).toBeCloseTo(4, 12);
  expect(row.bufferLevelSdSeconds).toBeCloseTo(Math.SQRT2, 12);
  const bare = toRow({ id: 'y', status: 'ok', summary: {} });
  expect(bare.bufferLevelSdSeconds == null).toBe(true);
});
