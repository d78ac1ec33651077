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

test('one playback past the limit: named with its lateness and its cell', () => {
  expect(lateLinkNotes([rec('a1', { count: 14, maxMs: 9 }), rec('a2', { count: 161, maxMs: 64.14 }), rec('b1', { count: 3, maxMs: 20 })], groups)).toEqual([
    "1 playback was kept although emulator timers fired later than the lab's 50 ms limit on every try (the machine was too busy), so its link was not exactly the configured one: a2 (up to 64.1 ms, 161x). In cell http11 / sara; play it again on a quieter machine to be sure.",
  ]);
});

test('several, and another limit', () => {
  const notes = lateLinkNotes([rec('a1', { count: 2, maxMs: 31 }), rec('b2', { count: 5, maxMs: 25.5 })], groups, 20);
  expect(notes).toHaveLength(1);
  expect(notes[0]).toMatch(/^2 playbacks were kept .* the lab's 20 ms limit .* their link .*: a1 \(up to 31\.0 ms, 2x\), b2 \(up to 25\.5 ms, 5x\)\. In cells http11 \/ sara, h3 \/ sara; play them again/);
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
  });
  const dir = makeLabTempDir('late-report');
  try {
    fs.writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify(scenario));
    fs.mkdirSync(path.join(dir, 'playbacks'));
    for (const r of [record(1, 12), record(2, 58.5)]) fs.writeFileSync(path.join(dir, 'playbacks', `${r.id}.json`), JSON.stringify(r));
    const files = writeReport(dir);
    const md = fs.readFileSync(files.md, 'utf8');
    const note = "1 playback was kept although emulator timers fired later than the lab's 50 ms limit on every try (the machine was too busy), so its link was not exactly the configured one: http11.fixed.rtt50.r2 (up to 58.5 ms, 7x).";
    expect(md).toContain(note);
    expect(md.indexOf(note)).toBeLessThan(md.indexOf('## Startup delay'));
    expect(md).not.toContain('http11.fixed.rtt50.r1 (up to');
    expect(fs.readFileSync(files.html, 'utf8')).toContain('http11.fixed.rtt50.r2 (up to 58.5 ms, 7x)');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
