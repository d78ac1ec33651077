'use strict';
// Paper 001 §IV-A's timeout, worked by hand: 2000 ms at first, then the mean of the last 20
// transfer durations + 30 %, within 1000-3000 ms; an expired transfer counts as 1.5 x its timeout.
const { TimeoutEstimator, TIMEOUT_DEFAULTS } = require('../../player/transports/parallel/timeout-estimator');

test('the paper\'s defaults', () => {
  expect(TIMEOUT_DEFAULTS).toMatchObject({ initialMs: 2000, minMs: 1000, maxMs: 3000, window: 20, tolerance: 0.3, expiredPenalty: 1.5 });
  expect(new TimeoutEstimator().currentMs()).toBe(2000);
});

test('mean of the last 20 durations + 30 %, clamped', () => {
  const e = new TimeoutEstimator();
  e.recordTransfer(1000);
  e.recordTransfer(2000);
  expect(e.currentMs()).toBeCloseTo(1500 * 1.3, 9); // 1950
  // Fast transfers: the lower bound.
  const fast = new TimeoutEstimator();
  for (let i = 0; i < 5; i += 1) fast.recordTransfer(50);
  expect(fast.currentMs()).toBe(1000);
  // Slow ones: the upper bound.
  const slow = new TimeoutEstimator();
  slow.recordTransfer(2500);
  expect(slow.currentMs()).toBe(3000);
});

test('only the last 20 count', () => {
  const e = new TimeoutEstimator();
  for (let i = 0; i < 20; i += 1) e.recordTransfer(2000); // mean 2000 -> 2600
  expect(e.currentMs()).toBe(2600);
  for (let i = 0; i < 10; i += 1) e.recordTransfer(1000); // 10 x 2000 + 10 x 1000 -> 1500 -> 1950
  expect(e.currentMs()).toBeCloseTo(1950, 9);
  for (let i = 0; i < 10; i += 1) e.recordTransfer(1000); // all 1000 -> 1300
  expect(e.currentMs()).toBeCloseTo(1300, 9);
});

test('an expired transfer enters at once as 1.5 x its timeout: a stall raises the timeout before it ends', () => {
  const e = new TimeoutEstimator();
  for (let i = 0; i < 19; i += 1) e.recordTransfer(800); // mean 800 -> 1040
  expect(e.currentMs()).toBeCloseTo(1040, 9);
  e.recordExpired(1040); // counts 1560: mean (19 x 800 + 1560) / 20 = 838 -> 1089.4
  expect(e.currentMs()).toBeCloseTo(((19 * 800 + 1560) / 20) * 1.3, 9);
  // A run of stalls drives it to the upper bound.
  for (let i = 0; i < 20; i += 1) e.recordExpired(e.currentMs());
  expect(e.currentMs()).toBe(3000);
});

test('options change the bounds and the start; bad ones are refused', () => {
  expect(new TimeoutEstimator({ minMs: 500, maxMs: 800 }).currentMs()).toBe(800); // 2000 clamped
  const e = new TimeoutEstimator({ minMs: 100, maxMs: 10000, initialMs: 400 });
  expect(e.currentMs()).toBe(400);
  e.recordTransfer(5000);
  expect(e.currentMs()).toBe(6500);
  expect(() => new TimeoutEstimator({ minMs: 3000, maxMs: 1000 })).toThrow(/minMs \(3000\) must be <= maxMs \(1000\)/);
  expect(() => new TimeoutEstimator({ window: 0 })).toThrow(/window/);
  expect(() => new TimeoutEstimator().recordTransfer(-1)).toThrow(/>= 0 ms/);
  expect(() => new TimeoutEstimator().recordExpired(0)).toThrow(/> 0 ms/);
});
