'use strict';
// Paper 001's throughput model (eqs. 1-4) against values worked out by hand from the equations,
// and against the one model figure the paper prints in its text (the request overhead).
const {
  singleTcpBound, requestResponseBound, packetsPerBlock, lostPacketsPerRound, requestOverheadRatio, boundForRun,
} = require('../../testbed/model/paper001-throughput');

const close = (actual, expected, rel = 1e-9) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected));

describe('eq. 1: one TCP connection', () => {
  test('(MSS / RTT) / sqrt(p), in bit/s', () => {
    // 1460 B * 8 / 0.1 s = 116800 bit/s per window; / sqrt(0.01) = 0.1 -> 1,168,000 bit/s.
    close(singleTcpBound({ mssBytes: 1460, rttSeconds: 0.1, lossRate: 0.01 }), 1168000);
    // 11680 / 0.05 = 233600; / sqrt(0.02) = 0.1414214 -> 1,651,801.4 bit/s.
    close(singleTcpBound({ rttSeconds: 0.05, lossRate: 0.02 }), 233600 / Math.sqrt(0.02));
    close(singleTcpBound({ rttSeconds: 0.05, lossRate: 0.02 }), 1651801.4, 1e-7);
  });

  test('no loss: no bound from the equation', () => {
    expect(singleTcpBound({ rttSeconds: 0.1, lossRate: 0 })).toBe(Infinity);
  });

  test('doubling the RTT halves it, quadrupling the loss halves it', () => {
    const b = singleTcpBound({ rttSeconds: 0.05, lossRate: 0.01 });
    close(singleTcpBound({ rttSeconds: 0.1, lossRate: 0.01 }), b / 2);
    close(singleTcpBound({ rttSeconds: 0.05, lossRate: 0.04 }), b / 2);
  });

  test('nonsense is refused', () => {
    expect(() => singleTcpBound({ rttSeconds: 0, lossRate: 0.01 })).toThrow(/rttSeconds/);
    expect(() => singleTcpBound({ rttSeconds: 0.1, lossRate: 1 })).toThrow(/lossRate/);
  });
});

describe('eqs. 2-4: n_c request-response streams', () => {
  test('n_d and eq. 3 by hand', () => {
    expect(packetsPerBlock(20480, 1460)).toBe(15); // 14.03 packets: the 15th is short
    expect(packetsPerBlock(14600, 1460)).toBe(10);
    // n_p = 150: p = 1 % -> 150 / 101 = 1.49 -> 2; p = 5 % -> 150 / 21 = 7.14 -> 8.
    expect(lostPacketsPerRound(150, 0.01)).toBe(2);
    expect(lostPacketsPerRound(150, 0.05)).toBe(8);
    expect(lostPacketsPerRound(150, 0)).toBe(0);
    // 100 / (1 + 1/0.25) = 20 exactly: not rounded up to 21 by float error.
    expect(lostPacketsPerRound(100, 0.25)).toBe(20);
  });

  test("the paper's configuration (10 x 20480 B, 350 ms) at 100 ms without loss: eq. 2", () => {
    const r = requestResponseBound({ rttSeconds: 0.1, lossRate: 0, streams: 10, chunkBytes: 20480, gapSeconds: 0.35 });
    // 10 * 163840 bit / 0.45 s = 3,640,888.9 bit/s
    close(r.rRr, 3640888.888888889);
    close(r.rRrMax, r.rRr);
    expect(r).toMatchObject({ blockPackets: 15, roundPackets: 150, lostPackets: 0, assumptionHolds: true });
  });

  test('eq. 4 at 1 % and 5 % loss', () => {
    // p = 1 %, RTT 100 ms: n_l = 2 -> 8 * 163840 / 0.45 + 2 * 163840 / 0.55
    //   = 2,912,711.1 + 595,781.8 = 3,508,492.9 bit/s
    const a = requestResponseBound({ rttSeconds: 0.1, lossRate: 0.01, streams: 10, chunkBytes: 20480, gapSeconds: 0.35 });
    close(a.rRrMax, (8 * 163840) / 0.45 + (2 * 163840) / 0.55);
    close(a.rRrMax, 3508492.9, 1e-7);
    // p = 5 %, RTT 200 ms: n_l = 8 -> 2 * 163840 / 0.55 + 8 * 163840 / 0.75
    //   = 595,781.8 + 1,747,626.7 = 2,343,408.5 bit/s
    const b = requestResponseBound({ rttSeconds: 0.2, lossRate: 0.05, streams: 10, chunkBytes: 20480, gapSeconds: 0.35 });
    close(b.rRrMax, 2343408.5, 1e-7);
    expect(b.lostPackets).toBe(8);
  });

  test('past one loss per stream the model no longer holds, and says so', () => {
    // p = 10 %: n_l = ceil(150 / 11) = 14 > n_c = 10: every stream takes the slow path.
    const r = requestResponseBound({ rttSeconds: 0.1, lossRate: 0.1, streams: 10, chunkBytes: 20480, gapSeconds: 0.35 });
    expect(r.lostPackets).toBe(14);
    expect(r.assumptionHolds).toBe(false);
    close(r.rRrMax, (10 * 163840) / 0.55);
  });

  test("the streams' bound varies far less with loss and RTT than one connection's (the paper's Fig. 2 claim)", () => {
    const cells = [[0.05, 0.01], [0.2, 0.05]];
    const tcp = cells.map(([rtt, p]) => singleTcpBound({ rttSeconds: rtt, lossRate: p }));
    const rr = cells.map(([rtt, p]) => requestResponseBound({ rttSeconds: rtt, lossRate: p, streams: 10, chunkBytes: 20480, gapSeconds: 0.35 }).rRrMax);
    expect(tcp[0] / tcp[1]).toBeGreaterThan(8); // 4.67 Mbit/s vs 0.52 Mbit/s: 8.9x
    expect(rr[0] / rr[1]).toBeLessThan(2); // 3.97 vs 2.34 Mbit/s: 1.7x
  });
});

test("the request overhead the paper prints: 5.8 %, 2.9 % and 1.5 % of 10240, 20480 and 40960 bytes", () => {
  // The paper rounds inconsistently (5.86 -> 5.8, 1.46 -> 1.5): within 0.1 percentage point.
  for (const [bytes, printed] of [[10240, 5.8], [20480, 2.9], [40960, 1.5]]) {
    expect(Math.abs(100 * requestOverheadRatio(bytes) - printed)).toBeLessThanOrEqual(0.1);
  }
});

describe("a run's bound", () => {
  test('a single connection gets eq. 1, capped by the link rate', () => {
    expect(boundForRun({ rttMs: 100, lossPercent: 1, rateBps: 8192e3 })).toMatchObject({ equation: 'eq1', bound: 1168000, capped: 1168000 });
    // No loss: eq. 1 is unbounded, the link is the limit.
    expect(boundForRun({ rttMs: 100, lossPercent: 0, rateBps: 8192e3 })).toMatchObject({ equation: 'eq1', bound: Infinity, capped: 8192e3 });
    expect(boundForRun({ rttMs: 100, lossPercent: 0 }).capped).toBeNull();
  });

  test('request-response streams get eq. 4 with their own n_c, l_d, t_gap', () => {
    const r = boundForRun({ rttMs: 100, lossPercent: 1, rateBps: 8192e3, streams: { streams: 10, chunkBytes: 20480, gapMs: 350 } });
    expect(r.equation).toBe('eq4');
    close(r.bound, 3508492.9, 1e-7);
    close(r.capped, r.bound);
    // On a 2048 kbit/s link (paper 001 Fig. 7) the link is the limit at t_gap = 0.
    const fast = boundForRun({ rttMs: 50, rateBps: 2048e3, streams: { streams: 10, chunkBytes: 20480, gapMs: 0 } });
    expect(fast.capped).toBe(2048e3);
    expect(fast.bound).toBeCloseTo(10 * 163840 / 0.05, 3);
  });
});
