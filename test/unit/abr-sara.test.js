'use strict';
// SARA walked through hand-computed traces. With V = 2 s the thresholds are I = 1 * 2 = 2 s,
// B_alpha = 5 * 2 = 10 s, B_beta = 10 * 2 = 20 s. H is the size-weighted harmonic mean of the
// last 5 downloads (= sum(bytes) / sum(seconds)); the predicted time of rung l is t[l] = S[l] / H
// with S[l] the next segment's size in bytes and H in bytes/s.
const sara = require('../../player/abr/sara');
const { sizeWeightedHarmonicMeanBitsPerSecond } = require('../../player/abr/throughput');
const { KBPS, LADDER, SIZES, KBPS_002, LADDER_002 } = require('../support/ladders');

function input(overrides = {}) {
  return { ladder: LADDER, currentIndex: null, bufferLevelSeconds: 0, segmentDurationSeconds: 2, recentDownloads: [], nextSegmentSizes: SIZES, ...overrides };
}
const times = (n, bytes, seconds) => Array.from({ length: n }, () => ({ bytes, seconds }));
// H = 5 * 125 000 / 2.5 = 250 000 bytes/s (2 Mbps)
const H_2MBPS = times(5, 125000, 0.5);
// H = 5 * 100 000 / 10 = 50 000 bytes/s (400 kbps)
const H_400K = times(5, 100000, 2);

test('defaults are AStream\'s / the paper\'s', () => {
  expect(sara.defaults).toEqual({ throughputWindowSegments: 5, initialBufferSegments: 1, alphaSegments: 5, betaSegments: 10, seekHoldDecisions: 0, astreamUnits: false });
});

describe('the throughput estimate', () => {
  test('is the size-weighted harmonic mean, which is total bytes over total time', () => {
    // 100 000 B in 0.5 s (1.6 Mbps) and 300 000 B in 3 s (0.8 Mbps):
    // H = (100 000 + 300 000) / (100 000 / 200 000 + 300 000 / 100 000) = 400 000 / 3.5 B/s
    //   = 114 285.7 B/s = 914 285.7 bits/s (the plain mean of the two rates would be 1.2 Mbps)
    const downloads = [{ bytes: 100000, seconds: 0.5 }, { bytes: 300000, seconds: 3 }];
    expect(sizeWeightedHarmonicMeanBitsPerSecond(downloads, 5)).toBeCloseTo(914285.714, 2);
    const d = sara.decide(input({ currentIndex: 0, bufferLevelSeconds: 6, recentDownloads: downloads }), null);
    expect(d.details.harmonicMeanBitsPerSecond).toBeCloseTo(914285.714, 2);
  });

  test('uses only the last 5 downloads (AStream averages over 6)', () => {
    // a very fast old download first, then five at 50 000 B/s: H = 400 000 bits/s
    const downloads = [{ bytes: 1000000, seconds: 0.1 }, ...H_400K];
    const d = sara.decide(input({ currentIndex: 0, bufferLevelSeconds: 6, recentDownloads: downloads }), null);
    expect(d.details.harmonicMeanBitsPerSecond).toBeCloseTo(400000, 6);
  });
});

describe('startup from an empty buffer (fast start)', () => {
  test('no download yet: the lowest rate', () => {
    const d = sara.decide(input(), null);
    expect(d.representationIndex).toBe(0);
    expect(d.details.case).toBe('fast-start');
    expect(d.reason).toMatch(/no download yet/);
  });

  test('buffer at or below I = 2 s: the lowest rate whatever the throughput', () => {
    const d = sara.decide(input({ currentIndex: 6, bufferLevelSeconds: 2, recentDownloads: H_2MBPS }), null);
    expect(d.representationIndex).toBe(0);
    expect(d.details.case).toBe('fast-start');
  });

  test('additive increase: one rung up while the next rung\'s segment fits in B - I', () => {
    // cur 3, B = 6: t[3] = 125 000 / 250 000 = 0.5 s <= B - I = 4 s; B <= B_alpha = 10;
    // t[4] = 175 000 / 250 000 = 0.7 s < 4 s -> rung 4
    const d = sara.decide(input({ currentIndex: 3, bufferLevelSeconds: 6, recentDownloads: H_2MBPS }), null);
    expect(d.details.case).toBe('additive-increase');
    expect(d.details.predictedSeconds[4]).toBeCloseTo(0.7, 9);
    expect(d.representationIndex).toBe(4);
  });

  test('additive increase stays when the next rung would not fit', () => {
    // cur 3, B = 2.5: B - I = 0.5; t[3] = 0.5 is not > 0.5 (no decrease); t[4] = 0.7 >= 0.5 -> stay 3
    const d = sara.decide(input({ currentIndex: 3, bufferLevelSeconds: 2.5, recentDownloads: H_2MBPS }), null);
    expect(d.details.case).toBe('additive-increase');
    expect(d.representationIndex).toBe(3);
  });
});

describe('steady state', () => {
  test('aggressive switching: the highest rung >= current whose segment fits in B - I', () => {
    // cur 4, B = 14, H = 50 000 B/s: t[4] = 3.5 s <= 12 s; 10 < B <= 20 -> highest l >= 4 with
    // S[l] <= 12 * 50 000 = 600 000 bytes: 575 000 (2300 kbps, rung 10)
    const d = sara.decide(input({ currentIndex: 4, bufferLevelSeconds: 14, recentDownloads: H_400K }), null);
    expect(d.details.case).toBe('aggressive-switching');
    expect(d.representationIndex).toBe(10);
    expect(d.delayMs).toBe(0);
  });
});

describe('a sudden bandwidth drop', () => {
  test('the current rung would drain the buffer below I: the highest lower rung that fits', () => {
    // four 575 000 B segments in 2 s, then one in 23 s: H = 2 875 000 / 31 = 92 741.9 B/s.
    // cur 10, B = 6: t[10] = 575 000 / 92 741.9 = 6.2 s > B - I = 4 s -> highest l < 10 with
    // S[l] <= 4 * 92 741.9 = 370 967.7 bytes: 325 000 (1300 kbps, rung 7)
    // (AStream's 8x unit slip would predict 49.6 s and budget 4 s x 92 741.9 B/s / 8 = 46 371 bytes: rung 0.)
    const downloads = [...times(4, 575000, 2), { bytes: 575000, seconds: 23 }];
    const d = sara.decide(input({ currentIndex: 10, bufferLevelSeconds: 6, recentDownloads: downloads }), null);
    expect(d.details.case).toBe('decrease');
    expect(d.details.predictedSeconds[10]).toBeCloseTo(6.2, 9);
    expect(d.representationIndex).toBe(7);
  });

  test('the lowest rung when no lower rung fits', () => {
    // H = 10 000 / 10 = 1 000 B/s; cur 5, B = 6: budget 4 s = 4 000 bytes, nothing fits -> rung 0
    const d = sara.decide(input({ currentIndex: 5, bufferLevelSeconds: 6, recentDownloads: [{ bytes: 10000, seconds: 10 }] }), null);
    expect(d.representationIndex).toBe(0);
  });
});

describe('a full buffer (delayed download)', () => {
  test('above B_beta: the highest rung >= current that fits in B - B_alpha, and wait B - B_beta', () => {
    // cur 7, B = 26, H = 50 000 B/s: t[7] = 6.5 s <= 24 s; B > 20 -> budget B - B_alpha = 16 s =
    // 800 000 bytes: 700 000 (2800 kbps, rung 11); delay = 26 - 20 = 6 s
    const d = sara.decide(input({ currentIndex: 7, bufferLevelSeconds: 26, recentDownloads: H_400K }), null);
    expect(d.details.case).toBe('delayed-download');
    expect(d.representationIndex).toBe(11);
    expect(d.delayMs).toBe(6000);
    expect(d.reason).toMatch(/wait 6\.000 s \(B - B_beta\)/);
  });

  test('the NEXT segment\'s real size decides: a big upcoming segment is not taken', () => {
    // same, but the next 2800 kbps segment is 900 000 bytes (VBR) > 800 000: rung 10 (575 000)
    const sizes = SIZES.slice();
    sizes[11] = 900000;
    const d = sara.decide(input({ currentIndex: 7, bufferLevelSeconds: 26, recentDownloads: H_400K, nextSegmentSizes: sizes }), null);
    expect(d.representationIndex).toBe(10);
  });

  test('without segment sizes it falls back to bandwidth x V / 8 and says so', () => {
    // the fallback sizes equal SIZES (kbps * 250), so the answer is the same rung 11
    const d = sara.decide(input({ currentIndex: 7, bufferLevelSeconds: 26, recentDownloads: H_400K, nextSegmentSizes: null }), null);
    expect(d.representationIndex).toBe(11);
    expect(d.details.sizesFromIndex).toBe(false);
    expect(d.reason).toMatch(/no segment sizes: assumed bandwidth x V \/ 8/);
  });

  test('paper 002\'s 4 s segments: thresholds 4 / 20 / 40 s', () => {
    // V = 4: B = 44 > B_beta = 40 -> wait 4 s. H = 5 * 100 000 / 10 = 50 000 B/s; budget
    // B - B_alpha = 24 s = 1 200 000 bytes; nominal S = kbps * 500: highest <= 1 200 000 is
    // 2087 kbps (1 043 500 bytes, rung 14)
    const d = sara.decide(input({ ladder: LADDER_002, segmentDurationSeconds: 4, currentIndex: 10, bufferLevelSeconds: 44, recentDownloads: H_400K, nextSegmentSizes: null }), null);
    expect(d.details.thresholdsSeconds).toEqual({ I: 4, alpha: 20, beta: 40 });
    expect(d.representationIndex).toBe(14);
    expect(d.delayMs).toBe(4000);
    expect(sara.bufferCeilingSeconds({}, 4)).toBe(44);
  });
});

describe('only the Delayed-Download phase waits (issue 19: SARA used to wait whenever B > B_beta)', () => {
  test('a decrease with B above B_beta requests at once', () => {
    // cur 13 (4500 kbps, 1 125 000 B), B = 24 > B_beta = 20, H = 400 000 B / 10 s = 40 000 B/s:
    // t[13] = 28.1 s > B - I = 22 s -> decrease to the highest lower rung with S <= 22 * 40 000 =
    // 880 000 B: rung 12 (3400 kbps, 850 000 B), which takes 21.25 s of the 24 s buffered. Waiting
    // B - B_beta = 4 s first would leave 20 s of buffer for a 21.25 s download: a stall.
    const d = sara.decide(input({ currentIndex: 13, bufferLevelSeconds: 24, recentDownloads: [{ bytes: 400000, seconds: 10 }] }), null);
    expect(d.details.case).toBe('decrease');
    expect(d.representationIndex).toBe(12);
    expect(d.delayMs).toBe(0);
    expect(d.details.delaySeconds).toBe(0);
    expect(d.reason).not.toMatch(/wait/);
  });

  test('neither fast start with no download nor a pending seek waits, whatever the buffer', () => {
    expect(sara.decide(input({ currentIndex: 5, bufferLevelSeconds: 30 }), null).delayMs).toBe(0);
    const held = sara.decide(input({ currentIndex: 5, bufferLevelSeconds: 30, recentDownloads: H_400K, holdCurrent: true, currentRepresentationIndex: 5 }), null);
    expect(held.details.held).toBe(true);
    expect(held.delayMs).toBe(0);
  });
});

describe('AStream\'s units (params.astreamUnits, the SARA paper 002 ran)', () => {
  test('every predicted time is 8x the paper\'s, so SARA steps up less and down sooner', () => {
    // As the additive-increase case above: cur 3, B = 6, H = 250 000 B/s. Paper: t[4] = 0.7 s
    // < B - I = 4 s -> up to 4. AStream: t[3] = 8 * 0.5 = 4 s, not > 4 s; t[4] = 5.6 s >= 4 s -> stay.
    const paper = sara.decide(input({ currentIndex: 3, bufferLevelSeconds: 6, recentDownloads: H_2MBPS }), null);
    const astream = sara.decide(input({ currentIndex: 3, bufferLevelSeconds: 6, recentDownloads: H_2MBPS }), null, { astreamUnits: true });
    expect(paper.representationIndex).toBe(4);
    expect(astream.representationIndex).toBe(3);
    expect(astream.details.predictedSeconds[4]).toBeCloseTo(8 * paper.details.predictedSeconds[4], 9);
    expect(astream.reason).toMatch(/AStream units: times x 8/);
    // cur 5 (225 000 B): paper t = 0.9 s fits B - I = 4 s; AStream 7.2 s does not -> decrease
    // to the highest rung with 8 S / H <= 4 s, S <= 125 000: rung 3.
    const down = sara.decide(input({ currentIndex: 5, bufferLevelSeconds: 6, recentDownloads: H_2MBPS }), null, { astreamUnits: true });
    expect([down.details.case, down.representationIndex]).toEqual(['decrease', 3]);
    expect(() => sara.decide(input(), null, { astreamUnits: 'yes' })).toThrow(/astreamUnits/);
  });
});

describe('a seek', () => {
  // H = 5 * 60 000 / 10 = 30 000 B/s (240 kbps); before the seek SARA was at rung 9 (475 000 B)
  const H_240K = times(5, 60000, 2);

  test('the paper\'s SARA: the flushed buffer means fast start at the lowest rate', () => {
    const d = sara.decide(input({ currentIndex: 9, bufferLevelSeconds: 0, recentDownloads: H_240K, justSeeked: true }), sara.initialState());
    expect(d.representationIndex).toBe(0);
    expect(d.details.case).toBe('fast-start');
    expect(d.state).toEqual({ seekInProgress: true, seekHoldRemaining: 0 });
  });

  test('the QUIC fork\'s hold: 4 decisions as if beta segments were buffered, then the real buffer', () => {
    const params = { seekHoldDecisions: 4 };
    let state = sara.initialState();
    const picks = [];
    // With B taken as 20 s: t[9] = 475 000 / 30 000 = 15.8 s <= B - I = 18 s, B <= B_beta ->
    // aggressive switching: highest l >= 9 with S <= 18 * 30 000 = 540 000 bytes: rung 9 (keep).
    // justSeeked stays true until playback resumes; the hold counts down 3, 2, 1, 0 and is not restarted.
    for (const [buffer, remaining] of [[0, 3], [2, 2], [4, 1], [6, 0]]) {
      const d = sara.decide(input({ currentIndex: 9, bufferLevelSeconds: buffer, recentDownloads: H_240K, justSeeked: true }), state, params);
      expect(d.state).toEqual({ seekInProgress: true, seekHoldRemaining: remaining });
      expect(d.details.bufferSeconds).toBe(20);
      expect(d.details.case).toBe('aggressive-switching');
      expect(d.delayMs).toBe(0); // delays follow the real buffer
      picks.push(d.representationIndex);
      state = d.state;
    }
    expect(picks).toEqual([9, 9, 9, 9]);
    // 5th decision, real B = 8: t[9] = 15.8 s > B - I = 6 s -> decrease: highest l < 9 with
    // S <= 6 * 30 000 = 180 000 bytes: 175 000 (rung 4)
    const d = sara.decide(input({ currentIndex: 9, bufferLevelSeconds: 8, recentDownloads: H_240K, justSeeked: false }), state, params);
    expect(d.details.case).toBe('decrease');
    expect(d.representationIndex).toBe(4);
    expect(d.state).toEqual({ seekInProgress: false, seekHoldRemaining: 0 });
  });

  test('holdCurrent keeps the pre-seek rung and still tracks the seek', () => {
    const d = sara.decide(input({ currentIndex: 9, bufferLevelSeconds: 0, recentDownloads: H_240K, justSeeked: true, holdCurrent: true }), null);
    expect(d.representationIndex).toBe(9);
    expect(d.state.seekInProgress).toBe(true);
  });
});

describe('invalid input and parameters', () => {
  test('bad input throws', () => {
    expect(() => sara.decide(input({ nextSegmentSizes: [1, 2] }), null)).toThrow(/nextSegmentSizes has 2 entries but the ladder has 14 rungs/);
    expect(() => sara.decide(input({ segmentDurationSeconds: -2 }), null)).toThrow(/segmentDurationSeconds must be > 0/);
  });

  test('thresholds out of order throw', () => {
    expect(() => sara.decide(input(), null, { alphaSegments: 12 })).toThrow(/initialBufferSegments <= alphaSegments <= betaSegments/);
    expect(() => sara.decide(input(), null, { seekHoldDecisions: -1 })).toThrow(/seekHoldDecisions must be >= 0/);
  });
});
