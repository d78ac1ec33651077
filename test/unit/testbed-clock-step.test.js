'use strict';
// A live playback's latency is read against the wall clock: one during which the clock was set
// holds the step as latency growth with no stall behind it (paper002, 2026-12-06: a 6.4 s step,
// 6.7 s of growth, no rebuffering); any playback's ABR times its downloads' abandonment by it. The
// runner reads both clocks around each playback and plays such a playback again
// (testbed/runner/clock-step.js, late-timers.js).
const { readClocks, clockStep, clockSteppedBeyondLimit, CLOCK_STEP_LIMIT_MS } = require('../../testbed/runner/clock-step');
const { playUntilOnTime } = require('../../testbed/runner/late-timers');
const { describeOutcome } = require('../../testbed/runner/outcome-line');

const live = { startupDelaySeconds: 0.5, rebufferRate: 0, rebufferInstances: 0, averagePlaybackBitrate: 2.67e6, meanSeekWaitSeconds: null, liveLatencyMeanSeconds: 10.8, liveLatencyGrowthSeconds: 6.7 };
const rec = (stepMs, summary = live, status = 'ok') => ({ id: 'h2.bba2.wifi.wifi-lte.r7', status, summary, counters: { lateTimers: { count: 0, maxMs: 0 } }, clock: { wallSeconds: 610 + stepMs / 1000, monoSeconds: 610, stepMs } });

test('the step is the wall clock\'s move beyond the time that passed', () => {
  expect(clockStep({ wallMs: 1000, monoMs: 50 }, { wallMs: 618391, monoMs: 611050 })).toEqual({ wallSeconds: 617.391, monoSeconds: 611, stepMs: 6391 });
  expect(clockStep({ wallMs: 1000, monoMs: 50 }, { wallMs: 1500, monoMs: 2550 }).stepMs).toBe(-2000); // set back
  // This machine's two clocks, read twice: time passed on the monotonic one, and the two agree.
  const a = readClocks();
  const b = readClocks();
  expect(clockStep(a, b).monoSeconds).toBeGreaterThanOrEqual(0);
  expect(Math.abs(clockStep(a, b).stepMs)).toBeLessThan(CLOCK_STEP_LIMIT_MS);
});

test('only an ok playback whose clock stepped past the limit counts', () => {
  expect(clockSteppedBeyondLimit(rec(6391))).toEqual({ stepMs: 6391 });
  expect(clockSteppedBeyondLimit(rec(-250))).toEqual({ stepMs: -250 });
  expect(clockSteppedBeyondLimit(rec(1.1))).toBeNull(); // the clocks' usual agreement
  expect(clockSteppedBeyondLimit(rec(CLOCK_STEP_LIMIT_MS))).toBeNull();
  const onDemand = { ...live, liveLatencyMeanSeconds: undefined, liveLatencyGrowthSeconds: undefined };
  expect(clockSteppedBeyondLimit(rec(6391, onDemand))).toEqual({ stepMs: 6391 }); // its ABR's download timing reads it
  expect(clockSteppedBeyondLimit(rec(6391, live, 'failed'))).toBeNull();
  expect(clockSteppedBeyondLimit({ ...rec(0), clock: undefined })).toBeNull(); // a record from before the check
  expect(clockSteppedBeyondLimit(null)).toBeNull();
});

test('a playback whose clock stepped is set aside and played again, like a late one', async () => {
  const tries = [rec(6391), rec(0.4)];
  const asides = [];
  const lines = [];
  const out = await playUntilOnTime(async () => tries.shift(), {
    limitMs: 50, retries: 2, label: '[1/1] x', print: (l) => lines.push(l), setAside: (r, why) => { asides.push([r.clock.stepMs, why]); return 'set-aside/x.1.json'; },
  });
  expect(out.record.clock.stepMs).toBe(0.4);
  expect(out.setAside).toBe(1);
  expect(asides).toEqual([[6391, 'the wall clock stepped 6391 ms (live latency and the ABR\'s download timing read it), limit 100 ms']]);
  expect(lines).toEqual(['[1/1] x set aside: the wall clock stepped 6391 ms during it, so its live latency and the ABR\'s download timing are not the network\'s; playing it again (1 of 2); the record is in set-aside/x.1.json']);
  // Late and stepped at once: both reasons are kept.
  const both = { ...rec(-300), counters: { lateTimers: { count: 2, maxMs: 61 } } };
  const reasons = [];
  await playUntilOnTime(async () => (reasons.length ? rec(0) : both), { limitMs: 50, retries: 1, label: 'x', print: () => {}, setAside: (r, why) => { reasons.push(why); return 'a'; } });
  expect(reasons).toEqual(['emulator timers late up to 61.0 ms (2x), limit 50 ms; the wall clock stepped -300 ms (live latency and the ABR\'s download timing read it), limit 100 ms']);
});

test('when every try stepped, or with --late-limit off, the playback is kept with a WARNING', async () => {
  const lines = [];
  const out = await playUntilOnTime(async () => rec(5000), { limitMs: 50, retries: 1, label: 'x', print: (l) => lines.push(l), setAside: () => 'a' });
  expect(out.record.clock.stepMs).toBe(5000);
  expect(lines[1]).toBe('x: the wall clock stepped 5000 ms on the last try the run allows (2 of 2): it is kept; its live latency and the ABR\'s download timing hold the step');
  let calls = 0;
  const off = await playUntilOnTime(async () => { calls += 1; return rec(5000); }, { limitMs: null, retries: 2, label: 'x', print: () => {}, setAside: () => 'a' });
  expect(calls).toBe(1);
  expect(describeOutcome(off.record)).toBe('startup 0.50 s, rebuffer 0.0 % (0x), 2.67 Mbit/s, live latency 10.8 s (+6.7), WARNING: the wall clock stepped 5000 ms during the playback; its live latency and the ABR\'s download timing hold the step');
  expect(describeOutcome(rec(0.4))).not.toMatch(/WARNING/);
});

test('the report names a kept playback whose clock stepped, and its cell', () => {
  const { clockStepNotes } = require('../../testbed/report/clock-step-notes');
  const groups = [{ label: 'h2 / bba2', ids: ['h2.bba2.wifi.wifi-lte.r7', 'h2.bba2.wifi.wifi-lte.r6'] }, { label: 'h3 / bba2', ids: ['h3.bba2.wifi.wifi-lte.r7'] }];
  expect(clockStepNotes([rec(0.4), { ...rec(0), id: 'h3.bba2.wifi.wifi-lte.r7', clock: undefined }], groups)).toEqual([]);
  expect(clockStepNotes([rec(6391), { ...rec(2), id: 'h3.bba2.wifi.wifi-lte.r7' }], groups)).toEqual([
    '1 playback was kept although the wall clock was set during it, so its live latency and the ABR\'s download timing hold the step: h2.bba2.wifi.wifi-lte.r7 (6391 ms). In cell h2 / bba2; play it again to be sure.',
  ]);
});
