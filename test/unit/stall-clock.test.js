'use strict';
// The player's stall time as one running total (player/playback/stall-clock.js), which FDSP's
// fragment deadlines move by.
const { StallClock } = require('../../player/playback/stall-clock');

test('counts waiting -> playing after the start, the stall in progress included; startup is not a stall', () => {
  const c = new StallClock();
  c.waiting(0); // before the first frame: startup
  c.playing(800);
  expect(c.valueAt(900)).toBe(0);
  c.waiting(1000);
  expect(c.valueAt(1300)).toBe(300);
  c.waiting(1200); // a second 'waiting' in the same stall does not restart it
  c.playing(1500);
  expect(c.valueAt(5000)).toBe(500);
  c.waiting(6000);
  c.playing(6250);
  expect(c.valueAt(7000)).toBe(750);
});

test('stateAt: the running total and when the stall in progress began', () => {
  const c = new StallClock();
  c.playing(100);
  expect(c.stateAt(200)).toEqual({ totalMs: 0, since: null });
  c.waiting(300);
  expect(c.stateAt(450)).toEqual({ totalMs: 150, since: 300 });
  c.playing(500);
  expect(c.stateAt(600)).toEqual({ totalMs: 200, since: null });
});
