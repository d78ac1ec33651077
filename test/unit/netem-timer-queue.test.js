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

describe('corruptPacket', () => {
  const { corruptPacket } = require('../../testbed/netem/udp-relay');
  const ipv4 = () => Buffer.from([0x45, 0x00, 0x00, 0x1c, 1, 2, 3, 4, 5, 6, 7, 8]);

  test('flips exactly the given bit and leaves the original alone', () => {
    const p = ipv4();
    const c = corruptPacket(p, 8 * 5 + 3);
    expect(p).toEqual(ipv4());
    expect(c[5]).toBe(2 ^ 8);
    expect([...c].filter((x, i) => x !== p[i])).toHaveLength(1);
  });

  test('never touches the IP version nibble (a TUN device would refuse the packet and socat would exit)', () => {
    for (let bit = 0; bit < 8; bit += 1) {
      const c = corruptPacket(ipv4(), bit);
      expect(c[0] >> 4).toBe(4);
      expect(c[0]).not.toBe(0x45); // the header is still damaged: the receiver drops it
    }
  });
});
