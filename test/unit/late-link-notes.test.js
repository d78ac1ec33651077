'use strict';
// Playbacks the runner kept with a link that ran late are named in the report, by the runner's
// own limit, never by hand.
const fs = require('node:fs');
const path = require('node:path');
const { lateLinkNotes } = require('../../testbed/report/late-link-notes');
const { DEFAULT_LATE_LIMIT_MS } = require('../../testbed/runner/late-timers');
const { writeReport } = require('../../testbed/report/write-report');
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { getPreset } = require('../../origin/content/presets');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const rec = (id, lateTimers, status = 'ok') => ({ id, status, counters: lateTimers ? { lateTimers } : undefined });
const groups = [{ label: 'http11 / sara', ids: ['a1', 'a2'] }, { label: 'h3 / sara', ids: ['b1', 'b2'] }];

test('within the limit, at it, or no counters: nothing to say', () => {
  expect(DEFAULT_LATE_LIMIT_MS).toBe(50);
  expect(lateLinkNotes([rec('a1', { count: 12, maxMs: 44.6 }), rec('a2', { count: 1, maxMs: 50 }), rec('b1'), rec('b2', { count: 0, maxMs: 0 })], groups)).toEqual([]);
  // A failed playback is not averaged, so its timers do not matter here.
  expect(lateLinkNotes([rec('a1', { count: 3, maxMs: 90 }, 'failed')], groups)).toEqual([]);
});

test('one playback past the limit: named with its lateness, the reason its run kept it, and its cell', () => {
  const lateCheck = { limitMs: 50, try: 3, tries: 3 };
  expect(lateLinkNotes([rec('a1', { count: 14, maxMs: 9 }), { ...rec('a2', { count: 161, maxMs: 64.14 }), lateCheck }, rec('b1', { count: 3, maxMs: 20 })], groups)).toEqual([
    "1 playback was kept although emulator timers fired later than the limit (the machine was too busy), so its link was not exactly the configured one: a2 (up to 64.1 ms, 161x, past the run's 50 ms limit on all 3 tries). In cell http11 / sara; play it again on a quieter machine to be sure.",
  ]);
});

test('the reason is what the run did: its limit, none, a higher one, one try, or not recorded', () => {
  const late = (id, maxMs, lateCheck) => ({ ...rec(id, { count: 4, maxMs }), ...(lateCheck ? { lateCheck } : {}) });
  const notes = lateLinkNotes([
    late('a1', 70, { limitMs: null, try: 1, tries: 1 }), // --late-limit off: never played again
    late('a2', 80, { limitMs: 100, try: 1, tries: 3 }), // within the run's own, higher limit
    late('b1', 31, { limitMs: 20, try: 1, tries: 1 }), // a stricter run limit, --late-retries 0
    late('b2', 58, undefined), // a record from before the runner noted its limit
  ], groups);
  expect(notes).toHaveLength(1);
  expect(notes[0]).toContain("a1 (up to 70.0 ms, 4x, past the lab's 50 ms limit; the run set none (--late-limit off))");
  expect(notes[0]).toContain("a2 (up to 80.0 ms, 4x, past the lab's 50 ms limit, within the run's own 100 ms)");
  expect(notes[0]).toContain("b1 (up to 31.0 ms, 4x, past the run's 20 ms limit on its only try)");
  expect(notes[0]).toContain("b2 (up to 58.0 ms, 4x, past the lab's 50 ms limit)");
  expect(notes[0]).not.toMatch(/every try|all \d tries/);
  expect(notes[0]).toMatch(/^4 playbacks were kept .* their link .* In cells http11 \/ sara, h3 \/ sara; play them again/);
  // Under a stricter run limit, under the lab's too: nothing to say.
  expect(lateLinkNotes([late('a1', 15, { limitMs: 20, try: 1, tries: 3 }), late('a2', 45, { limitMs: 100, try: 1, tries: 3 })], groups)).toEqual([]);
});

test('report.md and report.html carry the note above the tables', () => {
  const scenario = validateScenario({
    name: 'late', content: 'sample', transports: ['http11'], abrs: ['fixed'], profiles: { rtt50: { rttMs: 50 } }, repetitions: 2,
  }, { source: 'late.yaml', defaultName: 'late', getPreset });
  const record = (repetition, maxMs) => ({
    id: `http11.fixed.rtt50.r${repetition}`, transport: 'http11', abr: 'fixed', network: 'rtt50', repetition, seekSchedule: 'none', switchSchedule: 'none', status: 'ok', emulated: true,
    summary: { startupDelaySeconds: 1, meanSeekWaitSeconds: null, rebufferRate: 0, rebufferInstances: 0, averagePlaybackBitrate: 1e6 },
    metrics: { packetLossRatio: 0, linkUtilization: null, overhead: 0.05, lateTimers: 7 },
    counters: { lateTimers: { count: 7, maxMs } },
    lateCheck: { limitMs: 50, try: 3, tries: 3 },
  });
  const dir = makeLabTempDir('late-report');
  try {
    fs.writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify(scenario));
    fs.mkdirSync(path.join(dir, 'playbacks'));
    for (const r of [record(1, 12), record(2, 58.5)]) fs.writeFileSync(path.join(dir, 'playbacks', `${r.id}.json`), JSON.stringify(r));
    const files = writeReport(dir);
    const md = fs.readFileSync(files.md, 'utf8');
    const note = "1 playback was kept although emulator timers fired later than the limit (the machine was too busy), so its link was not exactly the configured one: http11.fixed.rtt50.r2 (up to 58.5 ms, 7x, past the run's 50 ms limit on all 3 tries).";
    expect(md).toContain(note);
    expect(md.indexOf(note)).toBeLessThan(md.indexOf('## Startup delay'));
    expect(md).not.toContain('http11.fixed.rtt50.r1 (up to');
    expect(fs.readFileSync(files.html, 'utf8')).toContain('http11.fixed.rtt50.r2 (up to 58.5 ms, 7x, past the run&#39;s 50 ms limit');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
