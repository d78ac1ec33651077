'use strict';
// The one timer an FDSP client adapter keeps for its core (shared/fdsp/wake-timer.js).
const { WakeTimer } = require('../../shared/fdsp/wake-timer');

describe('the adapters\' timer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('fires once at the earliest time asked for; a later time keeps it; null stops it', () => {
    const woke = [];
    const timer = new WakeTimer(() => woke.push(Date.now()), () => Date.now());
    const t0 = Date.now();
    timer.arm(t0 + 100);
    timer.arm(t0 + 30); // earlier: re-armed
    timer.arm(t0 + 60); // later: the 30 ms timer stays (the adapter arms again when it fires)
    jest.advanceTimersByTime(200);
    expect(woke).toEqual([t0 + 30]);
    timer.arm(Date.now() + 10);
    timer.arm(null);
    jest.advanceTimersByTime(100);
    expect(woke).toHaveLength(1);
  });
});
