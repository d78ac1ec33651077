'use strict';
// Paper 000's playout rule per movie fragment (shared/fdsp/fragment-release.js) on scripted
// timelines: a 2 s segment in four 0.5 s fragments.
const { fragmentsDue } = require('../../shared/fdsp/fragment-release');

const FRAGMENTS = [[0, 1000, 0], [1000, 2000, 0.5], [2000, 3000, 1], [3000, 4000, 1.5]];
const at = (o) => fragmentsDue({ fragments: FRAGMENTS, released: 0, deadlineAt: 10000, reliableDoneAt: 4000, complete: false, ...o });

test('each fragment at its own deadline: the segment\'s plus the fragment\'s media time', () => {
  expect(at({ now: 9999 })).toEqual({ release: 0, wakeAt: 10000 });
  expect(at({ now: 10000 })).toEqual({ release: 1, wakeAt: 10500 });
  expect(at({ now: 10700, released: 1 })).toEqual({ release: 1, wakeAt: 11000 });
  // A late timer: everything due by now goes at once, in order.
  expect(at({ now: 11600, released: 1 })).toEqual({ release: 3, wakeAt: null });
  // The margin hands each over that much earlier.
  expect(at({ now: 9800, marginMs: 250 })).toEqual({ release: 1, wakeAt: 10250 });
});

test('nothing before the segment\'s reliable part is in, whatever the deadline', () => {
  expect(at({ now: 20000, reliableDoneAt: null })).toEqual({ release: 0, wakeAt: null });
});

test('without a deadline (starting, stalled) the first goes when the reliable part is in, the rest at their media times after it', () => {
  const start = { deadlineAt: null, reliableDoneAt: 3000 };
  expect(at({ ...start, now: 3000 })).toEqual({ release: 1, wakeAt: 3500 });
  expect(at({ ...start, now: 3500, released: 1 })).toEqual({ release: 1, wakeAt: 4000 });
});

test('a stall moves every later deadline by its length', () => {
  expect(at({ now: 10600, released: 1, stalledMs: 400 })).toEqual({ release: 0, wakeAt: 10900 });
  expect(at({ now: 10900, released: 1, stalledMs: 400 })).toEqual({ release: 1, wakeAt: 11400 });
});

test('once every byte is in, the rest go at once; done once all are out', () => {
  expect(at({ now: 5000, complete: true, released: 1 })).toEqual({ release: 3, wakeAt: null });
  expect(at({ now: 20000, released: 4 })).toEqual({ release: 0, wakeAt: null });
});

test('a segment of one fragment: the segment\'s own deadline rule', () => {
  expect(fragmentsDue({ fragments: [[0, 4000, 0]], released: 0, deadlineAt: 10000, reliableDoneAt: 4000, complete: false, now: 9000 })).toEqual({ release: 0, wakeAt: 10000 });
});

test('bad input is refused', () => {
  expect(() => at({ now: 0, fragments: [] })).toThrow('a segment has at least one fragment');
  expect(() => at({ now: 0, released: 5 })).toThrow('released must be 0-4, got 5');
});

test('a stall in progress: the next fragment goes at once, then one per media duration of the one before', () => {
  // Released 1 at 10000; the stall began at 10200, after it.
  expect(at({ now: 10300, released: 1, stalledMs: 100, stalledSince: 10200, lastReleaseAt: 10000 })).toEqual({ release: 1, wakeAt: 10800 });
  // Released during this stall at 10300: the next at 10300 + 500.
  expect(at({ now: 10500, released: 2, stalledMs: 300, stalledSince: 10200, lastReleaseAt: 10300 })).toEqual({ release: 0, wakeAt: 10800 });
  expect(at({ now: 10800, released: 2, stalledMs: 600, stalledSince: 10200, lastReleaseAt: 10300 })).toEqual({ release: 1, wakeAt: 11300 });
  // Nothing goes before the reliable part is in, stall or not.
  expect(at({ now: 10300, reliableDoneAt: null, stalledSince: 10200 })).toEqual({ release: 0, wakeAt: null });
});
