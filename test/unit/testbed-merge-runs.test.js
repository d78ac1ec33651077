'use strict';
// Shards of one scenario joined into one run directory (npm run report -- --merge): the rows
// of every shard once, in the matrix's order; a scenario grown by new matrix entries joins its
// first run; overlapping shards and other experiments refused.
// Here on stored-style directories (scenario.json + results.csv); test/e2e/qoe-runner-loopback
// merges two real shard runs with their records.
const fs = require('node:fs');
const path = require('node:path');
const { mergeRuns } = require('../../testbed/report/merge-runs');
const { parseResultsCsv } = require('../../testbed/report/results-csv');
const { toCsv } = require('../../testbed/runner/results-table');
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { getPreset } = require('../../origin/content/presets');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const scenario = (extra = {}) => validateScenario({
  content: 'sample', durationSeconds: 20, repetitions: 2, transports: ['http11', 'h2'], abrs: ['basic'], profiles: { lan: { rttMs: 20 } }, ...extra,
}, { source: 'm.yaml', defaultName: 'm', getPreset });
const record = (transport, repetition, status = 'ok', startup = 1) => ({
  id: `${transport}.basic.lan.r${repetition}`, transport, abr: 'basic', network: 'lan', seekSchedule: 'none', switchSchedule: 'none', repetition, status, error: status === 'ok' ? null : 'boom',
  summary: status === 'ok' ? { startupDelaySeconds: startup } : null, metrics: { wireBytesDown: 1 },
});

let tmp;
beforeEach(() => { tmp = makeLabTempDir('merge'); });
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function shard(name, records, s = scenario()) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify(s));
  fs.writeFileSync(path.join(dir, 'results.csv'), toCsv(records));
  return dir;
}

test('two shards join in the matrix order; an ok record replaces a failed one', () => {
  const a = shard('a', [record('http11', 1), record('h2', 1), record('h2', 2, 'failed')]);
  const b = shard('b', [record('h2', 2, 'ok', 3), record('http11', 2)]);
  const m = mergeRuns([a, b], path.join(tmp, 'merged'));
  expect(m.playbacks).toBe(4);
  expect(m.fromEach).toEqual({ [a]: 2, [b]: 2 });
  expect(m.replacedFailed).toEqual([`h2.basic.lan.r2 (failed in ${a})`]);
  const rows = parseResultsCsv(fs.readFileSync(path.join(tmp, 'merged', 'results.csv'), 'utf8'));
  expect(rows.map((r) => [r.id, r.status, r.startupDelaySeconds])).toEqual([
    ['http11.basic.lan.r1', 'ok', 1], ['h2.basic.lan.r1', 'ok', 1], ['http11.basic.lan.r2', 'ok', 1], ['h2.basic.lan.r2', 'ok', 3]]);
  expect(JSON.parse(fs.readFileSync(path.join(tmp, 'merged', 'scenario.json'), 'utf8')).name).toBe('m');
});

test('refused: overlapping shards, another experiment, one directory, a non-empty output', () => {
  const a = shard('a', [record('http11', 1)]);
  const b = shard('b', [record('http11', 1)]);
  expect(() => mergeRuns([a, b], path.join(tmp, 'out1'))).toThrow(`playback http11.basic.lan.r1 ran ok in both ${a} and ${b}: the shards overlap`);
  const c = shard('c', [record('h2', 1)], scenario({ durationSeconds: 30 }));
  expect(() => mergeRuns([a, c], path.join(tmp, 'out2'))).toThrow(/ran another experiment than .* \(durationSeconds differ\)/);
  expect(() => mergeRuns([a], path.join(tmp, 'out3'))).toThrow('--merge needs two or more run directories, got 1');
  const d = shard('d', [record('h2', 2)]);
  expect(() => mergeRuns([a, d], b)).toThrow(`${b} exists and is not empty`);
  expect(() => mergeRuns([a, path.join(tmp, 'nothing')], path.join(tmp, 'out4'))).toThrow(/nothing is not a run directory \(no scenario.json\)/);
});

test('a scenario grown by a transport: its new cells join the first run, the grown scenario is kept', () => {
  const first = shard('first', [record('http11', 1), record('h2', 1), record('http11', 2), record('h2', 2)]);
  const grown = scenario({ transports: ['http11', 'h2', 'http10'] });
  const added = shard('added', [record('http10', 1), record('http10', 2)], grown);
  const m = mergeRuns([first, added], path.join(tmp, 'merged'));
  expect(m.fromEach).toEqual({ [first]: 4, [added]: 2 });
  const rows = parseResultsCsv(fs.readFileSync(path.join(tmp, 'merged', 'results.csv'), 'utf8'));
  expect(rows.map((r) => r.id)).toEqual(['http11.basic.lan.r1', 'h2.basic.lan.r1', 'http10.basic.lan.r1', 'http11.basic.lan.r2', 'h2.basic.lan.r2', 'http10.basic.lan.r2']);
  expect(JSON.parse(fs.readFileSync(path.join(tmp, 'merged', 'scenario.json'), 'utf8')).transports.map((t) => t.name || t)).toEqual(['http11', 'h2', 'http10']);
  // In either order.
  expect(mergeRuns([added, first], path.join(tmp, 'merged2')).playbacks).toBe(6);
});

test('refused: a grown scenario whose common playbacks changed, or no scenario listing every playback', () => {
  const first = shard('first', [record('http11', 1), record('h2', 1)]);
  // The lan profile changed: http11.basic.lan.r1 is not the same playback any more.
  const changed = shard('changed', [record('http10', 1)], scenario({ transports: ['http11', 'h2', 'http10'], profiles: { lan: { rttMs: 40 } } }));
  expect(() => mergeRuns([first, changed], path.join(tmp, 'out1'))).toThrow(/ran another experiment than .* \(transports, profiles differ, and playback http11\.basic\.lan\.r1 is not the same in both\)/);
  // Two scenarios each grown a different way: neither lists the other's new playbacks.
  const a = shard('a', [record('http10', 1)], scenario({ transports: ['http11', 'h2', 'http10'] }));
  const b = shard('b', [record('h3', 1)], scenario({ transports: ['http11', 'h2', 'h3'] }));
  expect(() => mergeRuns([a, b], path.join(tmp, 'out2'))).toThrow(/no one of .* ran a scenario that lists every playback they hold/);
});
