'use strict';
// FIXED (paper 003's fixed quality level): the rung a bitrate names, and the buffer cap.
const fixed = require('../../player/abr/fixed');
const { ALGORITHMS } = require('../../player/abr');
const { LADDER } = require('../support/ladders');

function input(overrides = {}) {
  return { ladder: LADDER, currentIndex: null, bufferLevelSeconds: 0, segmentDurationSeconds: 2, recentDownloads: [], ...overrides };
}

test('registered, with paper 003 defaults (top rung, 40 s buffer)', () => {
  expect(ALGORITHMS.fixed.decide).toBe(fixed.decide);
  expect(fixed.decide(input(), null).representationIndex).toBe(13);
  expect(fixed.bufferCeilingSeconds({}, 2)).toBe(42);
});

test.each([
  [100, 0], [700, 4], [1900, 9], [4500, 13], [4499, 12], [50, 0], [99999, 13],
])('bitrateKbps %p -> rung %p (highest nominal <= the bitrate)', (kbps, rung) => {
  const d = fixed.decide(input({ currentIndex: 3, bufferLevelSeconds: 10, recentDownloads: [{ bytes: 1e6, seconds: 0.1 }] }), null, { bitrateKbps: kbps });
  expect(d.representationIndex).toBe(rung);
  expect(d.delayMs).toBe(0);
});

test('waits for the buffer to drain to bufferSeconds', () => {
  const d = fixed.decide(input({ bufferLevelSeconds: 43.5 }), null, { bitrateKbps: 700, bufferSeconds: 40 });
  expect(d.delayMs).toBe(3500);
  expect(d.reason).toMatch(/wait 3\.500 s/);
});

test('bad parameters are refused', () => {
  expect(() => fixed.decide(input(), null, { bitrateKbps: -1 })).toThrow(/bitrateKbps must be >/);
  expect(() => fixed.decide(input(), null, { bitrate: 700 })).toThrow(/no parameter "bitrate"/);
});
