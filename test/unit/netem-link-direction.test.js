'use strict';
const { LinkDirection } = require('../../testbed/netem/link-direction');
const { squareWave, parseStepCsv, stepTrace, parseMahimahi, mahimahiTrace, createRateSchedule } = require('../../testbed/netem/rate-schedule');

const at = (r) => r.deliveries.map((d) => d.atMs);

describe('delay, rate and queue', () => {
  test('pure delay shifts every packet by it', () => {
    const link = new LinkDirection({ delayMs: 50 });
    expect(at(link.send(0, 1500))).toEqual([50]);
    expect(at(link.send(10, 1500))).toEqual([60]);
  });

  test('rate serialises packets behind each other (1 Mbps: 1250 bytes take 10 ms)', () => {
    const link = new LinkDirection({ rate: 1e6, delayMs: 5 });
    // finish 10, 20, 30; + 5 ms propagation
    expect([0, 0, 0].map((t) => at(link.send(t, 1250))[0])).toEqual([15, 25, 35]);
    // queueing delays 0, 10, 20
    expect(link.counters.queueDelayMsTotal).toBe(30);
    expect(link.counters.queueDelayMsMax).toBe(20);
  });

  test('drop-tail queue in packets and in bytes', () => {
    const byPackets = new LinkDirection({ rate: 1e6, queueLimitPackets: 2 });
    expect([0, 0, 0].map((t) => byPackets.send(t, 1250).dropped)).toEqual([null, null, 'queue']);
    // At 10 ms the first packet has left: room for one more.
    expect(byPackets.send(10, 1250).dropped).toBeNull();
    expect(byPackets.counters.drops.queue).toBe(1);
    const byBytes = new LinkDirection({ rate: 1e6, queueLimitBytes: 2500 });
    expect([0, 0, 0].map((t) => byBytes.send(t, 1250).dropped)).toEqual([null, null, 'queue']);
  });
});

describe('random effects', () => {
  test('loss matches the configured rate and the seed decides which packets', () => {
    const run = (seed) => {
      const link = new LinkDirection({ lossRate: 0.1, seed });
      return Array.from({ length: 10000 }, (_, i) => link.send(i, 100).dropped === 'loss');
    };
    const a = run(7);
    const lost = a.filter(Boolean).length;
    // Binomial(10000, 0.1): mean 1000, sd 30.
    expect(lost).toBeGreaterThan(910);
    expect(lost).toBeLessThan(1090);
    expect(run(7)).toEqual(a);
    expect(run(8)).not.toEqual(a);
  });

  test('jitter keeps packet order unless told it may reorder', () => {
    const inOrder = new LinkDirection({ delayMs: 100, jitterMs: 20, seed: 3 });
    const times = Array.from({ length: 500 }, (_, i) => at(inOrder.send(i * 2, 100))[0]);
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]);
    for (let i = 0; i < times.length; i++) expect(times[i] - i * 2).toBeGreaterThanOrEqual(80);
    const free = new LinkDirection({ delayMs: 100, jitterMs: 20, jitterReorders: true, seed: 3 });
    const t2 = Array.from({ length: 500 }, (_, i) => at(free.send(i * 2, 100))[0]);
    expect(t2.some((x, i) => i > 0 && x < t2[i - 1])).toBe(true);
    for (let i = 0; i < t2.length; i++) {
      expect(t2[i] - i * 2).toBeGreaterThanOrEqual(80);
      expect(t2[i] - i * 2).toBeLessThanOrEqual(120);
    }
  });

  test('reordered packets skip the delay and overtake', () => {
    const link = new LinkDirection({ delayMs: 100, reorderRate: 0.25, seed: 5 });
    const times = Array.from({ length: 400 }, (_, i) => at(link.send(i, 100))[0]);
    const early = times.filter((x, i) => x === i).length;
    expect(early).toBe(link.counters.reordered);
    expect(early / 400).toBeGreaterThan(0.18);
    expect(early / 400).toBeLessThan(0.32);
  });

  test('duplicate and corrupt', () => {
    const link = new LinkDirection({ duplicateRate: 1, corruptRate: 1 });
    const r = link.send(0, 100);
    expect(r.deliveries.map((d) => d.duplicate)).toEqual([false, true]);
    expect(r.deliveries[0].corruptBit).toBeGreaterThanOrEqual(0);
    expect(r.deliveries[0].corruptBit).toBeLessThan(800);
    expect(link.counters).toMatchObject({ packetsIn: 1, packetsOut: 2, duplicated: 1, corrupted: 1 });
  });
});

describe('link down/up and live changes', () => {
  test('down intervals drop everything inside them', () => {
    const link = new LinkDirection({ downIntervals: [{ fromMs: 1000, toMs: 2000 }] });
    expect([999, 1000, 1999, 2000].map((t) => link.send(t, 100).dropped)).toEqual([null, 'down', 'down', null]);
  });

  test('settings change while running; counters and queue stay', () => {
    const link = new LinkDirection({ delayMs: 10 });
    link.send(0, 100);
    link.configure({ delayMs: 200 });
    expect(at(link.send(100, 100))).toEqual([300]);
    expect(link.counters.packetsIn).toBe(2);
  });

  test('a time origin moves down intervals and rate schedules with it (a schedule starts with the playback)', () => {
    const link = new LinkDirection({ downIntervals: [{ fromMs: 1000, toMs: 2000 }] });
    link.configure({ timeOriginMs: 5000 });
    // 1000-2000 ms after the origin, i.e. 6000-7000 on the caller's clock.
    expect([1500, 5999, 6000, 6999, 7000].map((t) => link.send(t, 100).dropped)).toEqual([null, null, 'down', 'down', null]);
    // Square wave 1/2 Mbit/s, period 4 s: high during [0, 2 s) after the origin.
    const sq = new LinkDirection({ rate: { kind: 'square', lowBitsPerSecond: 1e6, highBitsPerSecond: 2e6, periodMs: 4000 }, timeOriginMs: 10000 });
    expect(at(sq.send(10000, 1250))).toEqual([10005]); // 10 kbit at 2 Mbit/s
    expect(at(sq.send(12500, 1250))).toEqual([12510]); // at 1 Mbit/s
    expect(() => new LinkDirection({ timeOriginMs: 'later' })).toThrow(/timeOriginMs must be a number/);
  });

  test('bad settings are refused with the reason', () => {
    expect(() => new LinkDirection({ lossRate: 2 })).toThrow(/lossRate must be a probability/);
    expect(() => new LinkDirection({ delayMs: -1 })).toThrow(/delayMs must be >= 0/);
    expect(() => new LinkDirection({ queueLimitPackets: 1.5 })).toThrow(/whole number/);
    expect(() => new LinkDirection({ lag: 5 })).toThrow(/unknown link setting "lag"/);
    expect(() => new LinkDirection({ downIntervals: [{ fromMs: 5, toMs: 1 }] })).toThrow(/down interval/);
  });
});

describe('rate schedules', () => {
  test('square wave: high for the first half of each period (paper 000 dynamic bandwidth)', () => {
    const s = squareWave({ lowBitsPerSecond: 1e6, highBitsPerSecond: 2e6, periodMs: 4000 });
    expect(s.finish(0, 1250)).toBe(5);
    expect(s.finish(2500, 1250)).toBe(2510);
    expect(s.rateAt(4100)).toBe(2e6);
  });

  test('step trace from CSV (paper 003 style), header and comments allowed', () => {
    const steps = parseStepCsv('seconds,kbps\n0,1000\n10,6000 # burst\n\n20,2500\n');
    expect(steps).toEqual([{ atMs: 0, bitsPerSecond: 1e6 }, { atMs: 10000, bitsPerSecond: 6e6 }, { atMs: 20000, bitsPerSecond: 2.5e6 }]);
    const s = stepTrace(steps);
    expect([s.rateAt(5000), s.rateAt(10000), s.rateAt(99999)]).toEqual([1e6, 6e6, 2.5e6]);
    expect(() => parseStepCsv('0,1000\nten,5')).toThrow(/line 2/);
    expect(() => stepTrace([{ atMs: 5, bitsPerSecond: 1 }, { atMs: 5, bitsPerSecond: 2 }])).toThrow(/must increase/);
  });

  test('mahimahi: 1500-byte opportunities, shared by small packets, unused ones lost, trace repeats', () => {
    const s = mahimahiTrace(parseMahimahi('5\n10\n'));
    expect(s.finish(0, 1500)).toBe(5);
    expect(s.finish(0, 1500)).toBe(10);
    expect(s.finish(0, 1500)).toBe(15); // second repetition
    expect(s.finish(16, 700)).toBe(20);
    expect(s.finish(16, 700)).toBe(20); // shares the opportunity
    expect(s.finish(16, 700)).toBe(25);
    expect(s.finish(60, 100)).toBe(60); // 30..55 passed unused
    expect(() => parseMahimahi('5\n3\n')).toThrow(/back in time/);
    expect(() => parseMahimahi('x')).toThrow(/whole number/);
    expect(() => s.finish(0, 1600)).toThrow(/does not fit/);
  });

  test('schedule from a scenario description', () => {
    expect(createRateSchedule(null).finish(7, 1e9)).toBe(7);
    expect(createRateSchedule(8e6).finish(0, 1000)).toBe(1);
    expect(createRateSchedule({ kind: 'steps', csv: '0,8000' }).finish(0, 1000)).toBe(1);
    expect(() => createRateSchedule({ kind: 'sine' })).toThrow(/unknown rate schedule kind "sine"/);
  });
});
