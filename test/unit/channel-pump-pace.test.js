'use strict';
// The unreliable channel's pace (origin/datachannel/channel-pump.js setRate): a token bucket on
// a scripted clock and timers, in front of a channel that takes everything.
const { PACE_BURST_MS } = require('../../origin/datachannel/channel-pump');
const { scriptedPump } = require('../support/scripted-pump');

const setup = scriptedPump;

test('unpaced: everything goes at once', () => {
  const { pump, sent } = setup();
  for (let i = 0; i < 50; i++) pump.push(1, new Uint8Array(1112));
  expect(sent).toHaveLength(50);
});

test('paced at 8 Mbit/s: 1000 bytes per ms after a burst of PACE_BURST_MS worth', () => {
  const { pump, sent, advance } = setup();
  pump.setRate(8e6);
  for (let i = 0; i < 200; i++) pump.push(1, new Uint8Array(1000));
  expect(sent).toHaveLength(0); // the bucket starts empty
  advance(1000);
  // 1 s at 8 Mbit/s = 1,000,000 bytes: all 200 frames (200,000 bytes) in the first 200 ms or so.
  expect(sent).toHaveLength(200);
  const last = sent[sent.length - 1][0];
  expect(last).toBeGreaterThanOrEqual(200 - PACE_BURST_MS);
  expect(last).toBeLessThanOrEqual(202);
  // The rate over any 50 ms window stays at the pace (+ one burst).
  const in50 = sent.filter(([at]) => at >= 100 && at < 150).reduce((a, [, n]) => a + n, 0);
  expect(in50).toBeLessThanOrEqual(50 * 1000 + (8e6 / 8) * (PACE_BURST_MS / 1000));
});

test('back to unpaced: the rest goes at once; close clears the timer', () => {
  const { pump, sent, advance, timers } = setup();
  pump.setRate(1e6);
  for (let i = 0; i < 10; i++) pump.push(1, new Uint8Array(1000));
  advance(9);
  const before = sent.length;
  expect(before).toBeLessThan(10);
  pump.setRate(null);
  expect(sent).toHaveLength(10);
  pump.setRate(1e5);
  pump.push(1, new Uint8Array(5000));
  pump.close();
  expect(timers[timers.length - 1].cleared).toBe(true);
});

test('a pace that is not a positive number is refused', () => {
  const { pump } = setup();
  for (const bad of [0, -1, NaN, '8e6']) expect(() => pump.setRate(bad)).toThrow(/a pace is a positive number/);
});

test('a frame larger than the bucket still goes once the bucket holds it', () => {
  const { pump, sent, advance } = setup();
  pump.setRate(1e5); // a 125-byte bucket at 10 ms; 12.5 bytes per ms
  pump.push(1, new Uint8Array(16 * 1024));
  advance(2000);
  expect(sent).toHaveLength(1);
});
