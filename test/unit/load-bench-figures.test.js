'use strict';
// The arithmetic behind npm run bench:load's verdicts: nearest-rank percentiles, the
// flat/growing verdict on the origin's RSS and fds, the split of players over protocols, the
// p99 comparison between the clean and the abuse phase, CPU per delivered Gbit.
const { percentileOfSorted, summarize } = require('../../testbed/bench/load/percentiles');
const { trendVerdict } = require('../../testbed/bench/load/trend-verdict');
const { parseMix, splitPlayers } = require('../../testbed/bench/load/player-mix');
const { parseAbuse, DEFAULT_ABUSE } = require('../../testbed/bench/load/abuse-options');
const { compareP99, cpuPerGbit, summarizeRequests } = require('../../testbed/bench/load/load-summary');

const MIB = 1024 * 1024;
const RSS = { relativeTolerance: 0.1, absoluteTolerance: 20 * MIB };
const FDS = { relativeTolerance: 0.1, absoluteTolerance: 10 };

test('percentiles are nearest-rank: the value of a real request', () => {
  const oneToHundred = Array.from({ length: 100 }, (_, i) => i + 1);
  expect(percentileOfSorted(oneToHundred, 50)).toBe(50);
  expect(percentileOfSorted(oneToHundred, 99)).toBe(99);
  expect(percentileOfSorted(oneToHundred, 100)).toBe(100);
  // 10 values: p99 is the largest (rank ceil(9.9) = 10), not an interpolation below it.
  expect(percentileOfSorted([1, 2, 3, 4, 5, 6, 7, 8, 9, 1000], 99)).toBe(1000);
  expect(percentileOfSorted([7], 50)).toBe(7);
  expect(percentileOfSorted([], 99)).toBeNull();
  expect(() => percentileOfSorted([1], 0)).toThrow(RangeError);
  // summarize sorts numerically (not as strings: "10" < "9"), and leaves its input alone.
  const input = [9, 10, 100, 2];
  expect(summarize(input)).toEqual({ count: 4, p50: 9, p99: 100, max: 100 });
  expect(input).toEqual([9, 10, 100, 2]);
});

test('RSS and fds: flat when steady or sawing, growing when the fitted line climbs', () => {
  const series = (f, n = 60) => Array.from({ length: n }, (_, i) => ({ t: 2 * i, value: f(i) }));
  // Garbage collection saws RSS between 180 and 220 MiB: no trend.
  expect(trendVerdict(series((i) => (i % 10 < 5 ? 180 : 220) * MIB), RSS).verdict).toBe('flat');
  // A leak of 1 MiB per sample (60 MiB over the run, a third of the mean) is growing...
  const leak = trendVerdict(series((i) => (150 + i) * MIB), RSS);
  expect(leak.verdict).toBe('growing');
  expect(leak.growth / MIB).toBeCloseTo(59, 5);
  // ...one of 5 fds over the run on 137 is not (below both tolerances), 40 fds is.
  expect(trendVerdict(series((i) => 137 + Math.floor(i / 12)), FDS).verdict).toBe('flat');
  expect(trendVerdict(series((i) => 137 + Math.floor((2 * i) / 3)), FDS).verdict).toBe('growing');
  // Falling is not growing.
  expect(trendVerdict(series((i) => 300 - i), FDS).verdict).toBe('flat');
  // One high sample at the end does not make a trend the way last-minus-first would.
  expect(trendVerdict(series((i) => (i === 59 ? 260 : 137)), FDS).verdict).toBe('flat');
  expect(trendVerdict(series(() => 1, 2), FDS).verdict).toBe('too few samples');
});

test('players split over protocols by weight, adding up to N, DataChannel within the origin limit', () => {
  const weights = parseMix('http11=45,h2=45,datachannel=10');
  expect(splitPlayers(100, weights)).toEqual({ http11: 45, h2: 45, datachannel: 10 });
  // 7 players: 3.15 / 3.15 / 0.7 -> the leftover player goes to the largest remainder.
  expect(splitPlayers(7, weights)).toEqual({ http11: 3, h2: 3, datachannel: 1 });
  expect(splitPlayers(1, parseMix('h2=1'))).toEqual({ http11: 0, h2: 1, datachannel: 0 });
  expect(() => splitPlayers(400, weights)).toThrow(/40 DataChannel players.*at most 32/);
  expect(() => parseMix('http11=45,quic=5')).toThrow(/unknown protocol "quic"/);
  expect(() => parseMix('http11')).toThrow(/not PROTOCOL=WEIGHT/);
  expect(() => parseMix('h2=0')).toThrow(/add up to 0/);
});

test('abuse options: named kinds change, others keep their defaults, bounded', () => {
  expect(parseAbuse('')).toEqual(DEFAULT_ABUSE);
  expect(parseAbuse('rapidreset=0,slowloris=5')).toEqual({ ...DEFAULT_ABUSE, rapidreset: 0, slowloris: 5 });
  expect(() => parseAbuse('rapidreset=1000')).toThrow(/at most 16/);
  expect(() => parseAbuse('flood=1')).toThrow(/unknown kind "flood"/);
});

test('the abuse verdict: every protocol with enough samples within 2x of its clean p99', () => {
  const requests = [];
  const add = (phase, protocol, n, ttfbMs) => {
    for (let i = 0; i < n; i += 1) requests.push({ phase, protocol, ttfbMs, totalMs: ttfbMs, bytes: 1000 });
  };
  add('clean', 'http11', 100, 10);
  add('clean', 'h2', 100, 10);
  add('abuse', 'http11', 100, 19);
  add('abuse', 'h2', 100, 30); // 3x: fails on its own, though "all" mixes it with http11
  add('clean', 'datachannel', 5, 10);
  add('abuse', 'datachannel', 5, 500); // too few samples to judge alone
  requests.push({ phase: 'abuse', protocol: 'h2', error: 'socket hang up' });
  const byPhase = summarizeRequests(requests, [], ['clean', 'abuse'], ['http11', 'h2', 'datachannel']);
  expect(byPhase.abuse.h2).toMatchObject({ requests: 101, errors: 1, errorMessages: { 'socket hang up': 1 }, bytes: 100000 });
  const c = compareP99(byPhase, ['http11', 'h2', 'datachannel']);
  const verdicts = Object.fromEntries(c.rows.map((r) => [r.protocol, r.verdict]));
  expect(verdicts).toEqual({ http11: 'PASS', h2: 'FAIL', datachannel: 'not judged (too few samples)', all: 'FAIL' });
  expect(c.pass).toBe(false);
  // Without the h2 slowdown (and the DataChannel's, which "all" counts) it passes.
  const calm = requests.map((r) => (r.phase === 'abuse' && r.protocol !== 'http11' && !r.error ? { ...r, ttfbMs: 15 } : r));
  expect(compareP99(summarizeRequests(calm, [], ['clean', 'abuse'], ['http11', 'h2', 'datachannel']), ['http11', 'h2', 'datachannel']).pass).toBe(true);
});

test('CPU per delivered Gbit runs from a phase\'s first sample to its last', () => {
  const samples = [
    { t: 0, phase: 'warmup', cpuSeconds: 0, deliveredBytes: 0 },
    { t: 10, phase: 'warmup', cpuSeconds: 1, deliveredBytes: 1e8 },
    { t: 10, phase: 'clean', cpuSeconds: 1, deliveredBytes: 1e8 },
    { t: 60, phase: 'clean', cpuSeconds: 6, deliveredBytes: 1e8 + 1.25e9 }, // 10 Gbit in 50 s
  ];
  expect(cpuPerGbit(samples, 'clean')).toEqual({ seconds: 50, cpuSeconds: 5, gbit: 10, cpuSecondsPerGbit: 0.5, cpuPercent: 10, mbitPerSecond: 200 });
  expect(cpuPerGbit(samples, 'abuse')).toBeNull();
});
