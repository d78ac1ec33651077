'use strict';
// BBA-2 walked through hand-computed traces. Defaults, V = 2 s: buffer 60 segments = 120 s,
// cushion end 0.9 * 120 = 108 s. Without upcoming lowest-rung sizes the reservoir falls back to
// 0.1 * 120 = 12 s; without segment sizes the chunk map uses bandwidth * V / 8, so
//   f(B) = 25 000 + (1 125 000 - 25 000) * (B - 12) / (108 - 12) bytes.
// Startup steps up one rung when dB = V - (last download time) > f * V with
//   f = 0.875 - (0.875 - 0.5) * min(1, B / 108).
const bba2 = require('../../player/abr/bba2');
const { dynamicReservoir } = require('../../player/abr/bba-reservoir');
const { algorithmOne, astreamSteps } = require('../../player/abr/bba-maps');
const { KBPS, LADDER, SIZES, KBPS_002, LADDER_002 } = require('../support/ladders');

function input(overrides = {}) {
  return { ladder: LADDER, currentIndex: null, bufferLevelSeconds: 0, segmentDurationSeconds: 2, recentDownloads: [], ...overrides };
}
const STEADY = { phase: 'steady', seekInProgress: false, seekHoldRemaining: 0 };
const STARTUP = { phase: 'startup', seekInProgress: false, seekHoldRemaining: 0 };
const ANY_DOWNLOAD = [{ bytes: 325000, seconds: 1 }];

test('defaults: AStream\'s constants, the paper\'s algorithm', () => {
  expect(bba2.defaults).toMatchObject({
    bufferSizeSegments: 60,
    bufferSizeSeconds: null,
    mapKind: 'chunk',
    reservoirMode: 'dynamic',
    reservoirFraction: 0.1,
    cushionEndFraction: 0.9,
    startupStepUpFactorEmpty: 0.875,
    startupStepUpFactorCushionFull: 0.5,
    restartStartupOnSeek: true,
    seekHoldDecisions: 0,
  });
  expect(bba2.defaults.reservoirMinFraction * 240).toBeCloseTo(8, 9);
  expect(bba2.defaults.reservoirMaxFraction * 240).toBeCloseTo(140, 9);
  expect(bba2.bufferCeilingSeconds({}, 2)).toBe(120);
  expect(bba2.bufferCeilingSeconds({ bufferSizeSeconds: 20 }, 4)).toBe(20);
});

describe('startup from an empty buffer', () => {
  test('a trace: lowest first, then one rung at a time while chunks arrive ~8x faster than real time', () => {
    const downloads = [];
    // 1: nothing downloaded -> rung 0, startup
    let d = bba2.decide(input(), null);
    expect([d.representationIndex, d.state.phase]).toEqual([0, 'startup']);
    // 2: 25 000 B in 0.2 s, B = 2: dB = 1.8; f = 0.875 - 0.375 * 2/108 = 0.868056, threshold
    //    1.736 s; 1.8 > 1.736 -> rung 1. Map: B <= r = 12 -> rung 0, not higher: still startup.
    downloads.push({ bytes: 25000, seconds: 0.2 });
    d = bba2.decide(input({ currentIndex: 0, bufferLevelSeconds: 2, recentDownloads: downloads }), d.state);
    expect(d.details.deltaBufferSeconds).toBeCloseTo(1.8, 9);
    expect(d.details.stepUpThresholdSeconds).toBeCloseTo(1.7361111, 6);
    expect(d.details.mapIndex).toBe(0);
    expect([d.representationIndex, d.state.phase]).toEqual([1, 'startup']);
    // 3: 50 000 B in 0.3 s, B = 3.7: dB = 1.7; f = 0.875 - 0.375 * 3.7/108 = 0.862153,
    //    threshold 1.724 s; 1.7 <= 1.724 -> stay on rung 1
    downloads.push({ bytes: 50000, seconds: 0.3 });
    d = bba2.decide(input({ currentIndex: 1, bufferLevelSeconds: 3.7, recentDownloads: downloads }), d.state);
    expect(d.details.stepUpThresholdSeconds).toBeCloseTo(1.7243056, 6);
    expect([d.representationIndex, d.state.phase]).toEqual([1, 'startup']);
    // 4: 50 000 B in 0.2 s, B = 5.5: dB = 1.8; f = 0.875 - 0.375 * 5.5/108 = 0.855903,
    //    threshold 1.712 s -> rung 2
    downloads.push({ bytes: 50000, seconds: 0.2 });
    d = bba2.decide(input({ currentIndex: 1, bufferLevelSeconds: 5.5, recentDownloads: downloads }), d.state);
    expect([d.representationIndex, d.state.phase]).toEqual([2, 'startup']);
    expect(d.delayMs).toBe(0);
    expect(d.reason).toMatch(/no next segment sizes: assumed bandwidth x V \/ 8/);
    expect(d.reason).toMatch(/fixed \(no upcoming segment sizes\)/);
  });

  test('the step-up threshold falls linearly with the buffer (paper), not at a constant 0.875 (AStream)', () => {
    // cur 10, B = 54 (half of 108): f = 0.875 - 0.375 * 0.5 = 0.6875, threshold 1.375 s;
    // last chunk 575 000 B in 0.6 s: dB = 1.4 > 1.375 -> rung 11. Map at 54:
    // f(B) = 25 000 + 1 100 000 * 42/96 = 506 250 B, between Rate- (475 000) and Rate+ (700 000)
    // -> rung 10, not above 11: still startup.
    const at = input({ currentIndex: 10, bufferLevelSeconds: 54, recentDownloads: [{ bytes: 575000, seconds: 0.6 }] });
    const paper = bba2.decide(at, STARTUP);
    expect(paper.details.stepUpThresholdSeconds).toBeCloseTo(1.375, 9);
    expect(paper.details.mapValue).toBeCloseTo(506250, 6);
    expect(paper.details.mapIndex).toBe(10);
    expect([paper.representationIndex, paper.state.phase]).toEqual([11, 'startup']);
    // AStream's constant factor: threshold 0.875 * 2 = 1.75 > 1.4 -> stay on 10
    const astream = bba2.decide(at, STARTUP, { startupStepUpFactorCushionFull: 0.875 });
    expect([astream.representationIndex, astream.state.phase]).toEqual([10, 'startup']);
  });

  test('startup ends when the map suggests a higher rung', () => {
    // cur 2, B = 40, last 87 500 B in 1.5 s: dB = 0.5 <= (0.875 - 0.375 * 40/108) * 2 = 1.472
    // -> startup would stay on 2. Map: f(40) = 25 000 + 1 100 000 * 28/96 = 345 833 B >= Rate+
    // (125 000) -> max{l : S[l] < 345 833} = rung 7 (325 000) > 2 -> steady, rung 7
    const d = bba2.decide(input({ currentIndex: 2, bufferLevelSeconds: 40, recentDownloads: [{ bytes: 87500, seconds: 1.5 }] }), STARTUP);
    expect(d.details.startupIndex).toBe(2);
    expect([d.representationIndex, d.state.phase]).toEqual([7, 'steady']);
    expect(d.reason).toMatch(/the map suggests more/);
  });

  test('startup ends when the buffer decreases, and the map takes over', () => {
    // cur 5, B = 8, last 225 000 B in 2.5 s: dB = -0.5 < 0 -> steady; map: B <= r = 12 -> rung 0
    const d = bba2.decide(input({ currentIndex: 5, bufferLevelSeconds: 8, recentDownloads: [{ bytes: 225000, seconds: 2.5 }] }), STARTUP);
    expect(d.details.deltaBufferSeconds).toBeCloseTo(-0.5, 9);
    expect([d.representationIndex, d.state.phase]).toEqual([0, 'steady']);
    expect(d.reason).toMatch(/the buffer is decreasing/);
  });

  test('startup at the top rung stays there', () => {
    const d = bba2.decide(input({ currentIndex: 13, bufferLevelSeconds: 20, recentDownloads: [{ bytes: 1125000, seconds: 0.1 }] }), STARTUP);
    expect([d.representationIndex, d.state.phase]).toEqual([13, 'startup']);
  });
});

describe('steady state: the chunk map with Algorithm 1', () => {
  test('passing Rate+ jumps to the highest rung whose next chunk is below the map', () => {
    // B = 61: f = 25 000 + 1 100 000 * 49/96 = 586 458.3 B; from rung 7, Rate+ = 400 000 <= f ->
    // max{l : S[l] < 586 458.3} = rung 10 (575 000)
    const d = bba2.decide(input({ currentIndex: 7, bufferLevelSeconds: 61, recentDownloads: ANY_DOWNLOAD, nextSegmentSizes: SIZES }), STEADY);
    expect(d.details.mapValue).toBeCloseTo(586458.333, 2);
    expect(d.representationIndex).toBe(10);
    expect(d.state.phase).toBe('steady');
  });

  test('between the barriers it stays (the map is "sticky")', () => {
    // rung 10, B = 61: Rate+ = 700 000 > f = 586 458, Rate- = 475 000 < f -> stay 10
    const d = bba2.decide(input({ currentIndex: 10, bufferLevelSeconds: 61, recentDownloads: ANY_DOWNLOAD, nextSegmentSizes: SIZES }), STEADY);
    expect(d.representationIndex).toBe(10);
    expect(d.details.mapRule).toBe('between Rate- and Rate+');
  });

  test('a big upcoming chunk at the next rung up is a higher barrier', () => {
    // rung 9, B = 61: nominally Rate+ = 575 000 < f -> up to 10; but the next 2300 kbps chunk
    // is 650 000 B > 586 458 and Rate- = 400 000 < f -> stay 9
    const sizes = SIZES.slice();
    sizes[10] = 650000;
    const nominal = bba2.decide(input({ currentIndex: 9, bufferLevelSeconds: 61, recentDownloads: ANY_DOWNLOAD, nextSegmentSizes: SIZES }), STEADY);
    expect(nominal.representationIndex).toBe(10);
    const vbr = bba2.decide(input({ currentIndex: 9, bufferLevelSeconds: 61, recentDownloads: ANY_DOWNLOAD, nextSegmentSizes: sizes }), STEADY);
    expect(vbr.representationIndex).toBe(9);
  });

  test('the map runs between the MEAN chunk sizes of the lowest and highest rungs', () => {
    // means 30 000 and 1 000 000: f(61) = 30 000 + 970 000 * 49/96 = 525 104.2; from rung 7,
    // Rate+ = 400 000 <= f -> max{l : S[l] < 525 104.2} = rung 9 (475 000)
    const means = SIZES.slice();
    means[0] = 30000;
    means[13] = 1000000;
    const d = bba2.decide(input({ currentIndex: 7, bufferLevelSeconds: 61, recentDownloads: ANY_DOWNLOAD, nextSegmentSizes: SIZES, averageSegmentSizes: means }), STEADY);
    expect(d.details.mapValue).toBeCloseTo(525104.1667, 3);
    expect(d.representationIndex).toBe(9);
    expect(d.reason).not.toMatch(/assumed/);
  });

  test('a falling buffer passes Rate- and steps down to the lowest rung above the map', () => {
    // rung 10, B = 50: f = 25 000 + 1 100 000 * 38/96 = 460 416.7 <= Rate- = 475 000 ->
    // min{l : S[l] > 460 416.7} = rung 9 (475 000)
    const d = bba2.decide(input({ currentIndex: 10, bufferLevelSeconds: 50, recentDownloads: ANY_DOWNLOAD, nextSegmentSizes: SIZES }), STEADY);
    expect(d.representationIndex).toBe(9);
  });

  test.each([
    ['in the reservoir (B = r = 12)', 12, 0],
    ['at the end of the cushion (B = 108)', 108, 13],
    ['in the upper reservoir (B = 115)', 115, 13],
  ])('%s', (_name, bufferLevelSeconds, expected) => {
    const d = bba2.decide(input({ currentIndex: 7, bufferLevelSeconds, recentDownloads: ANY_DOWNLOAD }), STEADY);
    expect(d.representationIndex).toBe(expected);
  });
});

describe('steady state with no recent download (issue 19: BBA-2 fell back to startup)', () => {
  test('the map decides and the phase stays steady', () => {
    // Same buffer as above, B = 61 from rung 7, but the download list is empty: still rung 10.
    const d = bba2.decide(input({ currentIndex: 7, bufferLevelSeconds: 61, recentDownloads: [], nextSegmentSizes: SIZES }), STEADY);
    expect(d.state.phase).toBe('steady');
    expect(d.representationIndex).toBe(10);
  });

  test('in startup an empty list still means the lowest rate', () => {
    const d = bba2.decide(input({ currentIndex: 7, bufferLevelSeconds: 61, recentDownloads: [], nextSegmentSizes: SIZES }), STARTUP);
    expect([d.representationIndex, d.state.phase]).toEqual([0, 'startup']);
  });
});

describe('the other maps', () => {
  test('BBA-0\'s rate map (mapKind "rate")', () => {
    // f(61) = 100 000 + 4 400 000 * 49/96 = 2 345 833 bits/s; from rung 7 Rate+ = 1 600 000 <= f
    // -> max{R : R < f} = 2300 kbps (rung 10)
    const d = bba2.decide(input({ currentIndex: 7, bufferLevelSeconds: 61, recentDownloads: ANY_DOWNLOAD }), STEADY, { mapKind: 'rate', reservoirMode: 'fixed' });
    expect(d.details.mapValue).toBeCloseTo(2345833.333, 2);
    expect(d.representationIndex).toBe(10);
    expect(d.details.reservoirSource).toBe('fixed');
  });

  test.each([
    // marks at 12 + k * 96/13 = 12 + 7.3846 k; the first mark at or above B wins
    ['B = 60: (60 - 12) / 7.3846 = 6.5 -> rung 7', 60, 7],
    ['B = 12.5: just above the reservoir -> rung 1', 12.5, 1],
    ['B = 12 + 7 * 96/13, exactly on mark 7 -> rung 7', 12 + (7 * 96) / 13, 7],
    ['B = 107: 12.86 -> rung 13', 107, 13],
    ['B = 12: the reservoir -> rung 0', 12, 0],
  ])('AStream\'s evenly spaced steps: %s', (_name, bufferLevelSeconds, expected) => {
    const d = bba2.decide(input({ currentIndex: 3, bufferLevelSeconds, recentDownloads: ANY_DOWNLOAD }), STEADY, { mapKind: 'astream-steps' });
    expect(d.representationIndex).toBe(expected);
  });

  test('Algorithm 1 and the steps directly', () => {
    const values = [1, 2, 3, 4];
    expect(algorithmOne({ values, previous: 1, allowed: 3.5, bufferSeconds: 5, reservoirSeconds: 1, cushionEndSeconds: 9 })).toEqual({ index: 2, rule: 'passed Rate+' });
    expect(algorithmOne({ values, previous: 3, allowed: 2.5, bufferSeconds: 5, reservoirSeconds: 1, cushionEndSeconds: 9 })).toEqual({ index: 2, rule: 'passed Rate-' });
    expect(algorithmOne({ values, previous: 0, allowed: 0.5, bufferSeconds: 5, reservoirSeconds: 1, cushionEndSeconds: 9 })).toEqual({ index: 0, rule: 'passed Rate-' });
    expect(astreamSteps({ rungs: 1, bufferSeconds: 5, reservoirSeconds: 1, cushionEndSeconds: 9 }).index).toBe(0);
  });
});

describe('the dynamic reservoir (paper §5.1)', () => {
  // Look-ahead X = 2 * 120 s = 240 s = 120 chunks of 2 s; at R_min = 100 000 bits/s a chunk of
  // 50 000 B takes 4 s (buffer -2 s), one of 20 000 B takes 1.6 s (buffer +0.4 s).
  const big = (n) => Array(n).fill(50000);
  const small = (n) => Array(n).fill(20000);

  test('sums the buffer deficit over the window: 30 big then 90 small chunks -> 24 s', () => {
    // 30 * (4 - 2) + 90 * (1.6 - 2) = 60 - 36 = 24 s; chunks past the window (30 more big ones)
    // do not count
    const upcoming = [...big(30), ...small(90), ...big(30)];
    const d = bba2.decide(input({ currentIndex: 5, bufferLevelSeconds: 24, recentDownloads: ANY_DOWNLOAD, upcomingLowestRungSizes: upcoming }), STEADY);
    expect(d.details.reservoirSource).toBe('dynamic');
    expect(d.details.reservoirSeconds).toBeCloseTo(24, 9);
    expect(d.representationIndex).toBe(0); // B = 24 <= r
    // B = 67 with r = 24: f = 25 000 + 1 100 000 * (67 - 24) / (108 - 24) = 588 095.2 B; from
    // rung 5 Rate+ = 275 000 <= f -> max{l : S[l] < 588 095.2} = rung 10
    const up = bba2.decide(input({ currentIndex: 5, bufferLevelSeconds: 67, recentDownloads: ANY_DOWNLOAD, upcomingLowestRungSizes: upcoming }), STEADY);
    expect(up.details.mapValue).toBeCloseTo(588095.238, 2);
    expect(up.representationIndex).toBe(10);
  });

  test.each([
    ['near the end of the content only 10 chunks remain: 10 * 2 = 20 s', big(10), 20],
    ['all big: 120 * (4.8 - 2) = 336 s, bounded to 140/240 * 120 = 70 s', Array(120).fill(60000), 70],
    ['all small: 120 * -0.4 = -48 s, bounded to max(8/240 * 120, V) = 4 s', small(120), 4],
    ['nothing left: 0 s, bounded to 4 s', [], 4],
  ])('%s', (_name, upcoming, expected) => {
    const d = bba2.decide(input({ currentIndex: 5, bufferLevelSeconds: 30, recentDownloads: ANY_DOWNLOAD, upcomingLowestRungSizes: upcoming }), STEADY);
    expect(d.details.reservoirSeconds).toBeCloseTo(expected, 9);
  });

  test('the window in chunks is X / V', () => {
    const r = dynamicReservoir({ upcomingLowestRungSizes: big(50), lowestBandwidth: 100000, segmentDurationSeconds: 4, lookaheadSeconds: 40, minSeconds: 0, maxSeconds: 1000 });
    // 10 chunks of 4 s; each 50 000 B takes 4 s at 100 kbps: 10 * (4 - 4) = 0
    expect(r).toEqual({ reservoirSeconds: 0, rawSeconds: 0, chunks: 10 });
  });

  test('paper 002\'s 20 s buffer with 4 s segments: one-chunk floor, 11.7 s ceiling', () => {
    // min = max(8/240 * 20 = 0.67, V = 4) = 4 s; max = 140/240 * 20 = 11.67 s; window 40 s = 10
    // chunks; at R_min = 45 000 bits/s a 45 000 B chunk takes 8 s: 10 * (8 - 4) = 40 -> 11.67
    const d = bba2.decide(input({ ladder: LADDER_002, segmentDurationSeconds: 4, currentIndex: 3, bufferLevelSeconds: 10, recentDownloads: ANY_DOWNLOAD, upcomingLowestRungSizes: Array(30).fill(45000) }), STEADY, { bufferSizeSeconds: 20 });
    expect(d.details.reservoirSeconds).toBeCloseTo(140 / 12, 9);
    const tiny = bba2.decide(input({ ladder: LADDER_002, segmentDurationSeconds: 4, currentIndex: 3, bufferLevelSeconds: 10, recentDownloads: ANY_DOWNLOAD, upcomingLowestRungSizes: Array(30).fill(10000) }), STEADY, { bufferSizeSeconds: 20 });
    expect(tiny.details.reservoirSeconds).toBe(4);
  });
});

describe('a full buffer', () => {
  test.each([
    // past the cushion end (108 s) the map gives the top rung
    ['119 s of 120: the next 2 s segment fits after 1 s', 119, 2, {}, 1000, 13],
    ['118 s of 120: it fits now', 118, 2, {}, 0, 13],
    // 20 s buffer: cushion end 18 s
    ['paper 002 on demand, 18 s of 20 s with 4 s segments: wait 2 s', 18, 4, { bufferSizeSeconds: 20 }, 2000, 19],
    // 16 s of 20: fits. Fixed r = 2 s; f = 22 500 + (1 968 000 - 22 500) * 14/16 = 1 724 812.5 B;
    // nominal sizes kbps * 500; from rung 5, Rate+ = 161 500 <= f -> max{S < f} = 3341 kbps
    // (1 670 500 B, rung 17)
    ['paper 002, 16 s of 20 s: fits', 16, 4, { bufferSizeSeconds: 20 }, 0, 17],
  ])('%s', (_name, bufferLevelSeconds, segmentDurationSeconds, params, delayMs, rung) => {
    const ladder = segmentDurationSeconds === 4 ? LADDER_002 : LADDER;
    const d = bba2.decide(input({ ladder, segmentDurationSeconds, currentIndex: 5, bufferLevelSeconds, recentDownloads: ANY_DOWNLOAD }), STEADY, params);
    expect(d.delayMs).toBe(delayMs);
    expect(d.representationIndex).toBe(rung);
  });
});

describe('a seek', () => {
  test('restarts startup from the map\'s rung for the flushed buffer, then ramps again', () => {
    // steady on rung 11, seek: B = 0 -> map rung 0, phase startup
    let d = bba2.decide(input({ currentIndex: 11, bufferLevelSeconds: 0, recentDownloads: ANY_DOWNLOAD, justSeeked: true }), STEADY);
    expect([d.representationIndex, d.state.phase]).toEqual([0, 'startup']);
    expect(d.state.seekInProgress).toBe(true);
    expect(d.reason).toMatch(/seek: startup restarts/);
    // still justSeeked (playback not resumed), B = 2, 25 000 B in 0.2 s: dB = 1.8 > 1.736 -> rung 1
    d = bba2.decide(input({ currentIndex: 0, bufferLevelSeconds: 2, recentDownloads: [...ANY_DOWNLOAD, { bytes: 25000, seconds: 0.2 }], justSeeked: true }), d.state);
    expect([d.representationIndex, d.state.phase]).toEqual([1, 'startup']);
  });

  test('without the restart the steady map alone decides (B = 0 is in the reservoir: rung 0)', () => {
    const d = bba2.decide(input({ currentIndex: 11, bufferLevelSeconds: 0, recentDownloads: ANY_DOWNLOAD, justSeeked: true }), STEADY, { restartStartupOnSeek: false });
    expect([d.representationIndex, d.state.phase]).toEqual([0, 'steady']);
  });

  test('the QUIC fork\'s hold decides as if the buffer were full less one segment', () => {
    // fork setting: 4 segments of 4 s = 16 s buffer, hold 4. Taken as 16 - 4 = 12 s; fixed
    // r = 1.6 s, cushion end 14.4 s: f = 45 000 + (3 936 000 - 45 000) * (12 - 1.6) / 12.8 bits/s
    // with mapKind 'rate' = 3 206 437.5 -> from rung 3, max{R < f} = 2944 kbps (rung 16)
    const params = { bufferSizeSegments: 4, seekHoldDecisions: 4, mapKind: 'rate', reservoirMode: 'fixed' };
    const d = bba2.decide(input({ ladder: LADDER_002, segmentDurationSeconds: 4, currentIndex: 3, bufferLevelSeconds: 0, recentDownloads: ANY_DOWNLOAD, justSeeked: true }), STEADY, params);
    expect(d.details.bufferSeconds).toBe(12);
    expect(d.details.mapValue).toBeCloseTo(3206437.5, 6);
    expect(d.representationIndex).toBe(16);
    expect(d.state).toEqual({ phase: 'startup', seekInProgress: true, seekHoldRemaining: 3 });
    expect(d.delayMs).toBe(0);
  });

  test('holdCurrent keeps the pre-seek rung; startup resumes from it afterwards', () => {
    const held = bba2.decide(input({ currentIndex: 11, bufferLevelSeconds: 0, recentDownloads: ANY_DOWNLOAD, justSeeked: true, holdCurrent: true }), STEADY);
    expect(held.representationIndex).toBe(11);
    expect(held.state).toEqual({ phase: 'startup', seekInProgress: true, seekHoldRemaining: 0 });
  });
});

describe('invalid input and parameters', () => {
  test('bad input throws', () => {
    expect(() => bba2.decide(input({ upcomingLowestRungSizes: [25000, NaN] }), null)).toThrow(/upcomingLowestRungSizes\[1\] \(bytes\) must be a finite number, got NaN/);
    expect(() => bba2.decide(input({ averageSegmentSizes: [1] }), null)).toThrow(/averageSegmentSizes has 1 entries but the ladder has 14 rungs/);
  });

  test('bad parameters throw', () => {
    expect(() => bba2.decide(input(), null, { mapKind: 'curve' })).toThrow(/mapKind must be one of "chunk", "rate", "astream-steps"/);
    expect(() => bba2.decide(input(), null, { reservoirFraction: 0.95 })).toThrow(/reservoirFraction < cushionEndFraction/);
    expect(() => bba2.decide(input(), null, { bufferSizeSeconds: 0 })).toThrow(/bufferSizeSeconds must be > 0/);
    expect(() => bba2.decide(input(), null, { restartStartupOnSeek: 'yes' })).toThrow(/restartStartupOnSeek must be one of true, false/);
  });

  test('a buffer too small for the segments throws instead of deciding nonsense', () => {
    // 2 s buffer, 2 s segments, dynamic reservoir: r >= one segment = 2 s > cushion end 1.8 s
    expect(() => bba2.decide(input({ currentIndex: 0, recentDownloads: ANY_DOWNLOAD, upcomingLowestRungSizes: [25000] }), STEADY, { bufferSizeSeconds: 2 })).toThrow(/buffer \(2 s\) is too small for 2 s segments/);
  });
});
