'use strict';
// BASIC walked through hand-computed traces. Throughput T = 8 * sum(bytes) / sum(seconds) over
// the last 5 downloads; up one rung if T > 1.2 * current, else the highest r with T > 1.2 * r.
const basic = require('../../player/abr/basic');
const { ALGORITHMS } = require('../../player/abr');
const { KBPS, LADDER, KBPS_002, LADDER_002 } = require('../support/ladders');

function input(overrides = {}) {
  return { ladder: LADDER, currentIndex: null, bufferLevelSeconds: 0, segmentDurationSeconds: 2, recentDownloads: [], ...overrides };
}
// Five downloads of 750 000 bytes in 2 s each: T = 8 * 3 750 000 / 10 = 3 000 000 bits/s.
const AT_3_MBPS = Array.from({ length: 5 }, () => ({ bytes: 750000, seconds: 2 }));

test('the registry exposes BASIC with AStream defaults', () => {
  expect(ALGORITHMS.basic.decide).toBe(basic.decide);
  expect(basic.defaults).toEqual({ throughputWindowSegments: 5, switchUpFactor: 1.2, maxBufferSegments: 10 });
});

describe('startup from an empty buffer', () => {
  test('no download yet: the lowest rate, no delay', () => {
    const d = basic.decide(input(), null);
    expect(d.representationIndex).toBe(0);
    expect(d.delayMs).toBe(0);
    expect(d.reason).toMatch(/no download yet/);
    expect(d.details.throughputBitsPerSecond).toBeNull();
  });

  test('climbs one rung per segment even when the throughput would allow far more', () => {
    let state = null;
    const downloads = [{ bytes: 25000, seconds: 0.1 }];
    // T = 8 * 25 000 / 0.1 = 2 000 000 > 1.2 * 100 000 -> up one: rung 1 (200 kbps)
    let d = basic.decide(input({ currentIndex: 0, bufferLevelSeconds: 2, recentDownloads: downloads }), state);
    expect(d.details.throughputBitsPerSecond).toBeCloseTo(2000000, 6);
    expect(d.representationIndex).toBe(1);
    state = d.state;
    downloads.push({ bytes: 50000, seconds: 0.2 });
    // T = 8 * 75 000 / 0.3 = 2 000 000 > 1.2 * 200 000 -> rung 2 (350 kbps), not 2 000/1.2 = 1 667 kbps
    d = basic.decide(input({ currentIndex: 1, bufferLevelSeconds: 3.8, recentDownloads: downloads }), state);
    expect(d.representationIndex).toBe(2);
    expect(d.state).toEqual({});
  });
});

describe('steady state', () => {
  test('at 3 Mbps it alternates between 2300 and 2800 kbps, as AStream does', () => {
    // at 2300 kbps: 1.2 * 2 300 000 = 2 760 000 < 3 000 000 -> up one to 2800 kbps (rung 11)
    const up = basic.decide(input({ currentIndex: 10, bufferLevelSeconds: 12, recentDownloads: AT_3_MBPS }), null);
    expect(up.representationIndex).toBe(11);
    expect(up.reason).toMatch(/up one/);
    // at 2800 kbps: 1.2 * 2 800 000 = 3 360 000 >= 3 000 000 -> highest r with 1.2 r < 3 000 000,
    // r < 2 500 000: 2300 kbps (rung 10)
    const down = basic.decide(input({ currentIndex: 11, bufferLevelSeconds: 12, recentDownloads: AT_3_MBPS }), up.state);
    expect(down.representationIndex).toBe(10);
  });

  test('stays at the top rung when the throughput is far above it', () => {
    // T = 8 * 10 000 000 / 8 = 10 000 000 > 1.2 * 4 500 000, already at the top
    const d = basic.decide(input({ currentIndex: 13, bufferLevelSeconds: 12, recentDownloads: [{ bytes: 10000000, seconds: 8 }] }), null);
    expect(d.representationIndex).toBe(13);
    expect(d.reason).toMatch(/already at the top/);
  });
});

describe('a sudden bandwidth drop', () => {
  // An old, very fast download (outside the 5-download window), four segments of 2800 kbps
  // downloaded in real time, then one that took 11.2 s (the link fell to 0.5 Mbps).
  const downloads = [
    { bytes: 700000, seconds: 0.1 },
    { bytes: 700000, seconds: 2 },
    { bytes: 700000, seconds: 2 },
    { bytes: 700000, seconds: 2 },
    { bytes: 700000, seconds: 2 },
    { bytes: 700000, seconds: 11.2 },
  ];

  test('drops straight to the highest sustainable rung, several rungs down', () => {
    // last 5: T = 8 * 3 500 000 / 19.2 = 1 458 333 bits/s; 1.2 * 2 800 000 > T, so the highest r
    // with r < T / 1.2 = 1 215 278: 1100 kbps (rung 6)
    const d = basic.decide(input({ currentIndex: 11, bufferLevelSeconds: 10, recentDownloads: downloads }), null);
    expect(d.details.throughputBitsPerSecond).toBeCloseTo(1458333.333, 2);
    expect(d.details.samples).toBe(5);
    expect(d.representationIndex).toBe(6);
  });

  test('the window length is a parameter', () => {
    // last 6: T = 8 * 4 200 000 / 19.3 = 1 740 933; r < 1 450 777: 1300 kbps (rung 7)
    const d = basic.decide(input({ currentIndex: 11, bufferLevelSeconds: 10, recentDownloads: downloads }), null, { throughputWindowSegments: 6 });
    expect(d.representationIndex).toBe(7);
  });

  test('falls to the lowest rung when nothing is sustainable', () => {
    // T = 8 * 10 000 / 1 = 80 000 < 1.2 * 200 000 (and below even 100 kbps): the lowest
    const d = basic.decide(input({ currentIndex: 5, bufferLevelSeconds: 4, recentDownloads: [{ bytes: 10000, seconds: 1 }] }), null);
    expect(d.representationIndex).toBe(0);
  });
});

describe('a full buffer delays the next request', () => {
  test.each([
    // buffer, V, expected delay: (buffer / V - 10) * V = buffer - 10 V when above 10 segments
    ['exactly 10 segments: no wait', 20, 2, 0],
    ['10.75 segments', 21.5, 2, 1500],
    ['13 segments of 2 s: (13 - 10) * 2 s', 26, 2, 6000],
    ['11 segments of 4 s (paper 002): (11 - 10) * 4 s', 44, 4, 4000],
  ])('%s', (_name, bufferLevelSeconds, segmentDurationSeconds, delayMs) => {
    const ladder = segmentDurationSeconds === 4 ? LADDER_002 : LADDER;
    const d = basic.decide(input({ ladder, currentIndex: 5, bufferLevelSeconds, segmentDurationSeconds, recentDownloads: AT_3_MBPS }), null);
    expect(d.delayMs).toBe(delayMs);
    if (delayMs > 0) expect(d.reason).toMatch(/segments buffered > 10: wait/);
  });

  test('the live setting of the QUIC fork (threshold 4) waits sooner', () => {
    // 10 s of 2 s segments = 5 segments > 4: wait (5 - 4) * 2 s
    const d = basic.decide(input({ currentIndex: 5, bufferLevelSeconds: 10, recentDownloads: AT_3_MBPS }), null, { maxBufferSegments: 4 });
    expect(d.delayMs).toBe(2000);
    expect(basic.bufferCeilingSeconds({ maxBufferSegments: 4 }, 2)).toBe(10);
    expect(basic.bufferCeilingSeconds({}, 4)).toBe(44);
  });

  test('the rate decision does not change with the buffer', () => {
    const full = basic.decide(input({ currentIndex: 10, bufferLevelSeconds: 30, recentDownloads: AT_3_MBPS }), null);
    expect(full.representationIndex).toBe(11);
    expect(full.delayMs).toBe(10000); // 30 - 10 * 2
  });
});

describe('a seek', () => {
  test('the emptied buffer does not matter: BASIC decides from throughput alone (paper 002 §4.2)', () => {
    const d = basic.decide(input({ currentIndex: 10, bufferLevelSeconds: 0, recentDownloads: AT_3_MBPS, justSeeked: true }), null);
    expect(d.representationIndex).toBe(11);
    expect(d.delayMs).toBe(0);
  });

  test('holdCurrent keeps the pre-seek rung (paper 002 §3.1)', () => {
    const d = basic.decide(input({ currentIndex: 10, bufferLevelSeconds: 0, recentDownloads: [{ bytes: 10000, seconds: 1 }], justSeeked: true, holdCurrent: true }), null);
    expect(d.representationIndex).toBe(10);
    expect(d.reason).toMatch(/holding rung 10/);
  });
});

describe('invalid input and parameters', () => {
  test('bad input throws before any decision', () => {
    expect(() => basic.decide(input({ ladder: [] }), null)).toThrow(/ladder is empty/);
    expect(() => basic.decide(input({ recentDownloads: [{ bytes: 1000, seconds: 0 }] }), null)).toThrow(/seconds must be > 0/);
  });

  test('bad parameters throw', () => {
    expect(() => basic.decide(input(), null, { switchUpFactor: 0 })).toThrow(/switchUpFactor must be > 0/);
    expect(() => basic.decide(input(), null, { throughputWindowSegments: 2.5 })).toThrow(/must be an integer/);
  });
});
