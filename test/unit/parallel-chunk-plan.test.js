'use strict';
// The parallel transport's chunk plan: l_d-byte ranges with a shorter last one, the first chunk
// of a response of unknown size, and the Content-Range that gives the size.
const { planChunks, probeChunk, parseContentRange } = require('../../player/transports/parallel/chunk-plan');

test('a segment of known size is cut into l_d-byte ranges, the last one shorter', () => {
  expect(planChunks(0, 78599, 20480)).toEqual([
    { start: 0, end: 20479 }, { start: 20480, end: 40959 }, { start: 40960, end: 61439 }, { start: 61440, end: 78599 },
  ]);
  // An exact multiple has no short chunk; a range that does not start at 0 keeps its offsets.
  expect(planChunks(0, 40959, 20480)).toHaveLength(2);
  expect(planChunks(1000, 1999, 400)).toEqual([{ start: 1000, end: 1399 }, { start: 1400, end: 1799 }, { start: 1800, end: 1999 }]);
  // One byte, and nothing (end = start - 1).
  expect(planChunks(5, 5, 20480)).toEqual([{ start: 5, end: 5 }]);
  expect(planChunks(5, 4, 20480)).toEqual([]);
  // Every byte exactly once.
  const plan = planChunks(0, 999999, 20480);
  expect(plan.reduce((n, c) => n + c.end - c.start + 1, 0)).toBe(1000000);
  expect(plan.every((c, i) => i === 0 || c.start === plan[i - 1].end + 1)).toBe(true);
});

test('bad input is refused with the value', () => {
  expect(() => planChunks(-1, 10, 5)).toThrow(/start must be a whole number >= 0, got -1/);
  expect(() => planChunks(10, 3, 5)).toThrow(/end must be a whole number >= start - 1, got 3/);
  expect(() => planChunks(0, 10, 0)).toThrow(/chunkBytes must be a whole number >= 1, got 0/);
});

test('a response of unknown size starts with one l_d chunk', () => {
  expect(probeChunk(0, 20480)).toEqual({ start: 0, end: 20479 });
  expect(probeChunk(4096, 1024)).toEqual({ start: 4096, end: 5119 });
});

test('Content-Range gives the total, or nothing usable', () => {
  expect(parseContentRange('bytes 0-20479/174321')).toEqual({ start: 0, end: 20479, total: 174321 });
  expect(parseContentRange('bytes */0')).toEqual({ start: null, end: null, total: 0 });
  for (const bad of [null, undefined, '', 'bytes 0-20479/*', 'bytes 10-5/100', 'bytes 0-100/100', 'items 0-1/2', 'bytes=0-1/2']) {
    expect(parseContentRange(bad)).toBeNull();
  }
});
