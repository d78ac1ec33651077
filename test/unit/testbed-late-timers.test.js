'use strict';
// A playback during which the emulator's timers ran late was not played on the configured link:
// the runner sets it aside and plays it again (testbed/runner/late-timers.js), and the run
// directory keeps the set-aside records apart from the results (run-directory.js).
const fs = require('node:fs');
const path = require('node:path');
const { lateBeyondLimit, keptPastLimit, playUntilOnTime, DEFAULT_LATE_LIMIT_MS } = require('../../testbed/runner/late-timers');
const { openRunDirectory } = require('../../testbed/runner/run-directory');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const rec = (maxMs, status = 'ok') => ({ id: 'h2.b.lan.r1', status, counters: { lateTimers: { count: maxMs ? 3 : 0, maxMs } } });

test('a record is set aside only when it ran ok and a timer was later than the limit', () => {
  expect(lateBeyondLimit(rec(50.2), 50)).toEqual({ maxMs: 50.2, count: 3 });
  expect(lateBeyondLimit(rec(50), 50)).toBeNull();
  expect(lateBeyondLimit(rec(400), null)).toBeNull(); // --late-limit off
  expect(lateBeyondLimit(rec(400, 'failed'), 50)).toBeNull(); // a failure is recorded as such, and run again on resume
  expect(lateBeyondLimit({ id: 'x', status: 'ok', counters: null }, 50)).toBeNull(); // loopback: no emulator
  expect(lateBeyondLimit(null, 50)).toBeNull(); // interrupted
});

test('played again until a try keeps time; each late one set aside', async () => {
  const tries = [rec(86), rec(58), rec(12)];
  const asides = [];
  const asideTries = [];
  const lines = [];
  const out = await playUntilOnTime(async () => tries.shift(), {
    limitMs: 50, retries: 2, label: '[1/1] x', print: (l) => lines.push(l), setAside: (r, why) => { asides.push(why); asideTries.push(r.lateCheck.try); return `set-aside/x.${asides.length}.json`; },
  });
  expect(out.record.counters.lateTimers.maxMs).toBe(12);
  expect(out.record.lateCheck).toEqual({ limitMs: 50, try: 3, tries: 3 }); // the report judges it by these
  expect(out.setAside).toBe(2);
  expect(asides).toEqual(['emulator timers late up to 86.0 ms (3x), limit 50 ms', 'emulator timers late up to 58.0 ms (3x), limit 50 ms']);
  expect(lines[0]).toMatch(/\[1\/1\] x set aside: an emulator timer ran 86\.0 ms late \(limit 50 ms\).*playing it again \(1 of 2\).*set-aside\/x\.1\.json/);
  expect(lines).toHaveLength(2);
  expect(asideTries).toEqual([1, 2]);
  // A set-aside record (set-aside/*.json) read back says it was played again, not that it was kept.
  const firstTry = { ...rec(86), lateCheck: { limitMs: 50, try: 1, tries: 3 } };
  expect(keptPastLimit(firstTry).why).toBe("past the run's 50 ms limit on try 1 of 3, set aside and played again");
});

test('when every try runs late the last is kept and said so; an interruption ends the tries', async () => {
  const tries = [rec(90), rec(70)];
  const lines = [];
  const asides = [];
  const out = await playUntilOnTime(async () => tries.shift(), { limitMs: 50, retries: 1, label: 'x', print: (l) => lines.push(l), setAside: (r) => { asides.push(r); return 'a'; } });
  expect(out.record.counters.lateTimers.maxMs).toBe(70);
  expect(asides).toHaveLength(1);
  expect(lines[1]).toMatch(/up to 70\.0 ms, limit 50 ms\) on all 2 tries: the last is kept/);
  expect(out.record.lateCheck).toEqual({ limitMs: 50, try: 2, tries: 2 });
  expect(keptPastLimit(out.record)).toMatchObject({ maxMs: 70, limitMs: 50, why: "past the run's 50 ms limit on all 2 tries" });
  let calls = 0;
  const stopped = await playUntilOnTime(async () => { calls += 1; return null; }, { limitMs: 50, retries: 2, label: 'x', print: () => {}, setAside: () => 'a' });
  expect(stopped.record).toBeNull();
  expect(calls).toBe(1);
});

test('--late-limit off: one try, kept, and its record says no limit was applied', async () => {
  let calls = 0;
  const out = await playUntilOnTime(async () => { calls += 1; return rec(400); }, { limitMs: null, retries: 2, label: 'x', print: () => {}, setAside: () => 'a' });
  expect(calls).toBe(1);
  expect(out.record.lateCheck).toEqual({ limitMs: null, try: 1, tries: 1 });
  expect(keptPastLimit(out.record)).toMatchObject({ maxMs: 400, limitMs: DEFAULT_LATE_LIMIT_MS, why: "past the lab's 50 ms limit; the run set none (--late-limit off)" });
});

test("kept past the limit: by the lab's 50 ms or the run's stricter limit, never a looser one", () => {
  const withCheck = (maxMs, limitMs) => ({ ...rec(maxMs), lateCheck: { limitMs, try: 1, tries: 1 } });
  expect(keptPastLimit(rec(49))).toBeNull();
  expect(keptPastLimit(rec(51))).toMatchObject({ limitMs: 50, why: "past the lab's 50 ms limit" }); // an older record
  expect(keptPastLimit(withCheck(30, 20))).toMatchObject({ limitMs: 20, why: "past the run's 20 ms limit on its only try" });
  expect(keptPastLimit({ ...rec(30), lateCheck: { limitMs: 20, try: 3, tries: 3 } })).toMatchObject({ limitMs: 20, why: "past the run's 20 ms limit on all 3 tries" });
  expect(keptPastLimit(withCheck(80, 100))).toMatchObject({ limitMs: 50, why: "past the lab's 50 ms limit, within the run's own 100 ms" });
  expect(keptPastLimit(withCheck(45, 100))).toBeNull();
  expect(keptPastLimit({ ...withCheck(80, 50), status: 'failed' })).toBeNull();
});

test('the run directory keeps set-aside records and their request logs and captures apart from the results', () => {
  const dir = makeLabTempDir('setaside');
  try {
    const rd = openRunDirectory(dir, { name: 's', transports: ['h2'] });
    const r = { ...rec(86), summary: {} };
    fs.writeFileSync(rd.logFile(r.id), '{"n":1}\n');
    const capture = rd.captureFile(r.id);
    expect(capture).toBe(path.join(dir, 'captures', 'h2.b.lan.r1.pcap'));
    fs.writeFileSync(capture, 'pcap bytes');
    const first = rd.setAside(r, 'late 86 ms');
    expect(first).toBe(path.join(dir, 'set-aside', 'h2.b.lan.r1.1.json'));
    expect(JSON.parse(fs.readFileSync(first, 'utf8'))).toMatchObject({ id: r.id, setAside: 'late 86 ms' });
    expect(fs.readFileSync(path.join(dir, 'set-aside', 'h2.b.lan.r1.1.requests.ndjson'), 'utf8')).toBe('{"n":1}\n');
    expect(fs.existsSync(rd.logFile(r.id))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'set-aside', 'h2.b.lan.r1.1.pcap'), 'utf8')).toBe('pcap bytes');
    expect(fs.existsSync(capture)).toBe(false);
    expect(rd.setAside(r, 'late 58 ms')).toBe(path.join(dir, 'set-aside', 'h2.b.lan.r1.2.json'));
    expect(rd.read()).toEqual([]); // not results
    rd.write(rec(12));
    expect(rd.read().map((x) => x.counters.lateTimers.maxMs)).toEqual([12]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
