'use strict';
// The relay's delivery timers: a delivery already due goes out at once (no 1 ms timer floor),
// later ones in time order, none more than EARLY_MS early.
const { TimerQueue, EARLY_MS } = require('../../testbed/netem/udp-relay');

test('due deliveries go out synchronously; later ones in order, never more than EARLY_MS early', async () => {
  const late = [];
  const q = new TimerQueue((ms) => late.push(ms));
  const out = [];
  const t0 = performance.now();
  q.push(t0 + 30, () => out.push(['c', performance.now() - t0]));
  q.push(t0 + 10, () => out.push(['b', performance.now() - t0]));
  q.push(t0, () => out.push(['a', performance.now() - t0]));
  expect(out.map((x) => x[0])).toEqual(['a']); // due now: delivered inside push()
  await new Promise((r) => setTimeout(r, 80));
  expect(out.map((x) => x[0])).toEqual(['a', 'b', 'c']);
  expect(out[1][1]).toBeGreaterThanOrEqual(10 - EARLY_MS);
  expect(out[2][1]).toBeGreaterThanOrEqual(30 - EARLY_MS);
  q.clear();
});

test('a due delivery behind an earlier queued one waits its turn (no overtaking)', () => {
  let clock = 100;
  const q = new TimerQueue(() => {}, () => clock);
  const out = [];
  q.push(150, () => out.push('first'));
  q.push(160, () => out.push('second'));
  clock = 170; // both due, but the timer has not fired yet
  q.push(170, () => out.push('third'));
  expect(out).toEqual([]); // 'third' is behind them in the queue
  q.fire();
  expect(out).toEqual(['first', 'second', 'third']);
  q.clear();
});
