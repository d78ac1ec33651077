'use strict';
// A scenario's `throughput` and `competingFlows` keys (paper 001's experiments): validation with
// clear errors, the normal form (absent when not given, so earlier runs still resume), the
// matrix of a throughput scenario, and the two shipped paper 001 scenarios.
const { validateScenario, ScenarioError } = require('../../testbed/scenario/validate-scenario');
const { expandMatrix } = require('../../testbed/scenario/expand-matrix');
const { loadScenario } = require('../../testbed/scenario/load-scenario');
const { getPreset } = require('../../origin/content/presets');
const { playerConfigFor } = require('../../testbed/runner/playback-record');
const { parseOnly } = require('../../testbed/runner/run-plan');

const ctx = { source: 'test.yaml', defaultName: 'test', getPreset, readText: () => { throw new Error('no files'); } };
const throughputBase = () => ({
  throughput: { seconds: 60 },
  transports: ['http11', { name: 'parallel', label: 'par-gap350', gapMs: 350 }],
  profiles: { rtt100: { rttMs: 100, rateMbps: 8.192, lossPercent: 1 } },
});

function problemsOf(raw) {
  try {
    validateScenario(raw, ctx);
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError);
    return err.problems.join('\n');
  }
  throw new Error('expected the scenario to be refused');
}

describe('throughput', () => {
  test('a throughput scenario: no content, no ABR, its seconds as the duration', () => {
    const s = validateScenario(throughputBase(), ctx);
    expect(s).toMatchObject({
      content: null, durationSeconds: 60, segmentSeconds: null, throughput: { seconds: 60, sampleSeconds: 10, requestMiB: 64 },
    });
    expect(s.abrs).toEqual([{ name: null, label: null, params: {}, link: null, networks: null }]);
    expect(s.competingFlows).toBeUndefined();
  });

  test('a playback scenario gets neither key (an earlier run directory still matches it on resume)', () => {
    const s = validateScenario({ content: 'sample', transports: ['http11'], abrs: ['bba2'], profiles: { lan: { rttMs: 20 } } }, ctx);
    expect(Object.keys(s)).not.toContain('throughput');
    expect(Object.keys(s)).not.toContain('competingFlows');
  });

  test('the keys of playing content are refused, each by name', () => {
    const text = problemsOf({ ...throughputBase(), content: 'sample', abrs: ['bba2'], durationSeconds: 30, seekSchedules: { s: '1:5' } });
    for (const k of ['content', 'abrs', 'durationSeconds', 'seekSchedules']) expect(text).toMatch(new RegExp(`${k}: a throughput run plays no content .* remove ${k}`));
  });

  test('bad values, with their paths', () => {
    const text = problemsOf({ ...throughputBase(), throughput: { seconds: -1, sampleSeconds: 0, requestMiB: 'big', size: 3 } });
    expect(text).toMatch(/throughput\.seconds must be a number of seconds > 0/);
    expect(text).toMatch(/throughput\.sampleSeconds must be a number of seconds >= 1/);
    expect(text).toMatch(/throughput\.requestMiB must be a number of MiB > 0 and <= 1024, got "big"/);
    expect(text).toMatch(/throughput: unknown key "size" \(seconds, sampleSeconds, requestMiB\)/);
    expect(problemsOf({ ...throughputBase(), throughput: 500 })).toMatch(/throughput must be \{seconds, sampleSeconds, requestMiB\}, got 500/);
    expect(problemsOf({ ...throughputBase(), throughput: { seconds: 20, sampleSeconds: 30 } })).toMatch(/sampleSeconds .* <= throughput\.seconds, got 30/);
  });

  test('the matrix: ids without an ABR, kind throughput, a timeout of its seconds + 120 s', () => {
    const s = validateScenario(throughputBase(), ctx);
    const m = expandMatrix(s);
    expect(m.map((p) => p.id)).toEqual(['http11.rtt100.r1', 'par-gap350.rtt100.r1']);
    expect(m[1]).toMatchObject({ kind: 'throughput', transportName: 'parallel', transportOptions: { gapMs: 350 }, timeoutSeconds: 180, durationSeconds: 60 });
    expect(m[1].expectedSeconds).toBeGreaterThan(60);
    expect(playerConfigFor(s, m[1])).toEqual({ transport: 'parallel', gapMs: 350, throughput: { seconds: 60, sampleSeconds: 10, requestMiB: 64 } });
    expect(m.filter(parseOnly('transport=par-gap350')).map((p) => p.id)).toEqual(['par-gap350.rtt100.r1']);
    // A playback scenario's cells have no kind.
    const play = expandMatrix(validateScenario({ content: 'sample', transports: ['http11'], abrs: ['bba2'], profiles: { lan: { rttMs: 20 } } }, ctx));
    expect(play[0].kind).toBeUndefined();
  });
});

describe('competingFlows', () => {
  test('defaults: start at 0, run to the end, labelled by congestion control and place', () => {
    const s = validateScenario({ ...throughputBase(), competingFlows: [{ cc: 'reno' }, { cc: 'bbr', startSeconds: 10, stopSeconds: 50, label: 'late-bbr' }] }, ctx);
    expect(s.competingFlows).toEqual([
      { label: 'reno1', cc: 'reno', startSeconds: 0, stopSeconds: null },
      { label: 'late-bbr', cc: 'bbr', startSeconds: 10, stopSeconds: 50 },
    ]);
  });

  test('beside playbacks too', () => {
    const s = validateScenario({ content: 'sample', transports: ['http11'], abrs: ['bba2'], profiles: { lan: { rttMs: 20 } }, competingFlows: [{ cc: 'cubic', startSeconds: 5 }] }, ctx);
    expect(s.competingFlows).toEqual([{ label: 'cubic1', cc: 'cubic', startSeconds: 5, stopSeconds: null }]);
  });

  test('every problem, with its path', () => {
    const text = problemsOf({
      ...throughputBase(),
      competingFlows: [
        { cc: 'compound' },
        { cc: 'reno', startSeconds: 70 },
        { cc: 'reno', startSeconds: 10, stopSeconds: 5, colour: 'red' },
        { cc: 'cubic', label: 'x y' },
        { cc: 'reno', label: 'dup' }, { cc: 'reno', label: 'dup' },
        'reno',
      ],
    });
    expect(text).toMatch(/competingFlows\[0\]\.cc must be one of reno, cubic, bbr, vegas, lia, got "compound"/);
    expect(text).toMatch(/competingFlows\[1\]\.startSeconds 70 is not before the run's end \(60 s\)/);
    expect(text).toMatch(/competingFlows\[2\]\.stopSeconds must be a number of seconds after startSeconds \(10\), got 5/);
    expect(text).toMatch(/competingFlows\[2\]: unknown key "colour"/);
    expect(text).toMatch(/competingFlows\[3\]\.label "x y" must be letters/);
    expect(text).toMatch(/competingFlows: label "dup" is used twice/);
    expect(text).toMatch(/competingFlows\[6\] must be \{cc, startSeconds, stopSeconds\}, got "reno"/);
    expect(problemsOf({ ...throughputBase(), competingFlows: [] })).toMatch(/competingFlows must be a non-empty list/);
    expect(problemsOf({ ...throughputBase(), competingFlows: Array.from({ length: 9 }, () => ({ cc: 'reno' })) })).toMatch(/at most 8 flows, got 9/);
  });

  test('not with switch schedules (a switch drops every connection of the client, the flows\' too)', () => {
    const text = problemsOf({
      content: 'sample', transports: ['http11'], abrs: ['bba2'], profiles: { a: { rttMs: 20 }, b: { rttMs: 80 } },
      switchSchedules: { ab: [{ atSeconds: 10, network: 'b' }] }, competingFlows: [{ cc: 'reno' }],
    });
    expect(text).toMatch(/competingFlows and switchSchedules cannot be combined/);
  });
});

describe('the shipped paper 001 scenarios', () => {
  test('paper001-robustness: HTTP/1.1 vs parallel (10, 20480, 350 ms) at 8192 kbit/s, loss 0-5 %, three RTTs, 500 s', () => {
    const { scenario } = loadScenario('scenarios/paper001-robustness');
    expect(scenario).toMatchObject({ congestionControl: 'reno', throughput: { seconds: 500, sampleSeconds: 10 } });
    expect(scenario.transports).toEqual(['http11', { name: 'parallel', label: 'par-gap350', streams: 10, chunkBytes: 20480, gapMs: 350 }]);
    const profiles = Object.values(scenario.profiles);
    expect(new Set(profiles.map((p) => p.lossPercent || 0))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(new Set(profiles.map((p) => p.rttMs))).toEqual(new Set([50, 100, 200]));
    for (const p of profiles) expect(p.rate).toEqual({ kind: 'constant', bitsPerSecond: 8192000 });
    expect(expandMatrix(scenario)).toHaveLength(36 * 3); // 3 repetitions of each cell
  });

  test('paper001-friendliness: one reno flow against t_gap 0-700 ms at 2048 kbit/s without loss', () => {
    const { scenario } = loadScenario('scenarios/paper001-friendliness');
    expect(scenario.competingFlows).toEqual([{ label: 'reno1', cc: 'reno', startSeconds: 0, stopSeconds: null }]);
    const gaps = scenario.transports.filter((t) => t.name === 'parallel').map((t) => t.gapMs);
    expect(Math.min(...gaps)).toBe(0);
    expect(Math.max(...gaps)).toBe(700);
    expect(gaps).toContain(350);
    for (const p of Object.values(scenario.profiles)) {
      expect(p.rate).toEqual({ kind: 'constant', bitsPerSecond: 2048000 });
      expect(p.lossPercent || 0).toBe(0);
    }
    expect(Object.keys(scenario.profiles).length).toBeGreaterThanOrEqual(3);
  });
});

describe('initialWindow (the origin\'s TCP initial window, paper 001\'s kernel: 3)', () => {
  const { initialWindowRouteArgs } = require('../../testbed/netem/initial-window');

  test('given: in the normal form; absent: no key, so earlier run directories still resume', () => {
    expect(validateScenario({ ...throughputBase(), initialWindow: 3 }, ctx).initialWindow).toBe(3);
    expect('initialWindow' in validateScenario(throughputBase(), ctx)).toBe(false);
  });

  test.each([0, 101, 2.5, '3', null])('%p is refused with the range and the kernel\'s own', (value) => {
    expect(problemsOf({ ...throughputBase(), initialWindow: value })).toMatch(/initialWindow must be a whole number of segments, 1-100 \(Linux's own is 10; paper 001's kernel 2\.6\.27 used 3\)/);
  });

  test('the route words: initcwnd N, or nothing for the kernel\'s own', () => {
    expect(initialWindowRouteArgs(3)).toEqual(['initcwnd', '3']);
    expect(initialWindowRouteArgs(undefined)).toEqual([]);
    expect(initialWindowRouteArgs(null)).toEqual([]);
  });
});
