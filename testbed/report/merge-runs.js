'use strict';
// The run directories of one scenario's shards (npm run qoe -- S --shard I/N on several
// machines) joined into one run directory, which the report then reads like any other. The
// shards must have run the same experiment (scenario.json equal but for what may change on
// resume), or one scenario grown by new matrix entries (a transport, a profile, a repetition
// added after a first run): then every playback both matrices list must be the same playback,
// and the merged directory keeps the scenario whose matrix lists them all. A playback may be in
// one shard only, except that an ok record wins over a failed one of the same playback (a shard
// that failed it and another that ran it again).
const fs = require('node:fs');
const path = require('node:path');
const { experimentOf, changedKeys, writeAtomic, RESUMABLE_CHANGES } = require('../runner/run-directory');
const { resultColumns, csvCell, toCsv } = require('../runner/results-table');
const { expandMatrix } = require('../scenario/expand-matrix');
const { readRun } = require('./read-run');

/** Rows -> results.csv text, in results-table.js's column order (for runs kept as results.csv only). */
function rowsToCsv(rows) {
  const names = resultColumns().map((c) => c.name);
  for (const r of rows) for (const k of Object.keys(r)) if (k !== 'emulated' && !names.includes(k)) names.push(k);
  return `${[names.join(','), ...rows.map((r) => names.map((n) => csvCell(r[n])).join(','))].join('\n')}\n`;
}

// A scenario's matrix: what may grow between a first run and a later one of new cells.
const MATRIX_AXES = ['transports', 'abrs', 'networks', 'profiles', 'seekSchedules', 'switchSchedules', 'repetitions'];

const without = (s, keys) => JSON.stringify(Object.fromEntries(Object.entries(s).filter(([k]) => !keys.includes(k))));

/**
 * Refuses a scenario that is not scenarios[0]'s experiment, or that experiment grown by new
 * matrix entries whose common playbacks are the same.
 */
function checkSameExperiment(s, first, dir, firstDir) {
  if (experimentOf(s) === experimentOf(first)) return;
  const changed = changedKeys(first, s);
  const refuse = (why) => new Error(`${dir} ran another experiment than ${firstDir} (${changed.join(', ')} differ${why}): only shards of one scenario, or of one scenario grown by new matrix entries, merge`);
  if (without(s, [...RESUMABLE_CHANGES, ...MATRIX_AXES]) !== without(first, [...RESUMABLE_CHANGES, ...MATRIX_AXES])) throw refuse('');
  // Expanded under the same resumable settings, so only what is measured is compared.
  const same = Object.fromEntries(RESUMABLE_CHANGES.map((k) => [k, first[k]]));
  const before = new Map(expandMatrix(first).map((p) => [p.id, JSON.stringify(p)]));
  for (const p of expandMatrix({ ...s, ...same })) {
    if (before.has(p.id) && before.get(p.id) !== JSON.stringify(p)) throw refuse(`, and playback ${p.id} is not the same in both`);
  }
}

/**
 * @param {string[]} dirs    the shards' run directories (two or more)
 * @param {string} outDir    a new or empty directory
 * @returns {{outDir: string, playbacks: number, fromEach: Object<string, number>, replacedFailed: string[]}}
 */
function mergeRuns(dirs, outDir) {
  if (dirs.length < 2) throw new Error(`--merge needs two or more run directories, got ${dirs.length}`);
  const scenarios = dirs.map((d) => {
    const f = path.join(d, 'scenario.json');
    if (!fs.existsSync(f)) throw new Error(`${d} is not a run directory (no scenario.json)`);
    return JSON.parse(fs.readFileSync(f, 'utf8'));
  });
  scenarios.forEach((s, i) => checkSameExperiment(s, scenarios[0], dirs[i], dirs[0]));
  if (fs.existsSync(outDir) && fs.readdirSync(outDir).length) throw new Error(`${outDir} exists and is not empty: give a new --out directory for the merged run`);

  const runs = dirs.map((d) => ({ dir: d, ...readRun(d) }));
  const chosen = new Map(); // id -> {dir, row, record}
  const replacedFailed = [];
  for (const run of runs) {
    run.rows.forEach((row, i) => {
      const entry = { dir: run.dir, row, record: run.records ? run.records[i] : null };
      const before = chosen.get(row.id);
      if (!before) return chosen.set(row.id, entry);
      if (before.row.status === 'ok' && row.status === 'ok') throw new Error(`playback ${row.id} ran ok in both ${before.dir} and ${run.dir}: the shards overlap (give each machine its own --shard I/N of the same N)`);
      if (row.status === 'ok') {
        replacedFailed.push(`${row.id} (failed in ${before.dir})`);
        chosen.set(row.id, entry);
      }
      return undefined;
    });
  }
  // The scenario the merged directory keeps: the last whose matrix lists every merged playback.
  const ids = [...chosen.keys()];
  const matrices = scenarios.map((s) => expandMatrix(s).map((p) => p.id));
  const keep = matrices.map((m, i) => (ids.every((id) => m.includes(id)) ? i : -1)).filter((i) => i >= 0).pop();
  if (keep === undefined) throw new Error(`no one of ${dirs.join(', ')} ran a scenario that lists every playback they hold: run the grown scenario's new cells into a directory of their own and merge with it`);
  const rank = new Map(matrices[keep].map((id, i) => [id, i]));
  const merged = [...chosen.values()].sort((a, b) => rank.get(a.row.id) - rank.get(b.row.id));

  fs.mkdirSync(outDir, { recursive: true });
  writeAtomic(path.join(outDir, 'scenario.json'), `${JSON.stringify(scenarios[keep], null, 2)}\n`);
  if (runs.every((r) => r.records)) {
    // Full records: the merged directory is an ordinary run directory (plots over time too).
    fs.mkdirSync(path.join(outDir, 'playbacks'));
    for (const m of merged) writeAtomic(path.join(outDir, 'playbacks', `${m.row.id}.json`), `${JSON.stringify(m.record)}\n`);
    writeAtomic(path.join(outDir, 'results.csv'), toCsv(merged.map((m) => m.record)));
  } else {
    writeAtomic(path.join(outDir, 'results.csv'), rowsToCsv(merged.map((m) => m.row)));
  }
  const fromEach = Object.fromEntries(dirs.map((d) => [d, merged.filter((m) => m.dir === d).length]));
  return { outDir, playbacks: merged.length, fromEach, replacedFailed };
}

module.exports = { mergeRuns, rowsToCsv };
