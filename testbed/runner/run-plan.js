'use strict';
// Which playbacks of a scenario a session of the runner plays: the scenario's matrix, narrowed
// by --only, minus what the run directory already holds as "ok" (resume). A failed record is
// played again; records outside --only are left as they are and still count in results.csv.
const { expandMatrix } = require('../scenario/expand-matrix');

const ONLY_KEYS = ['transport', 'abr', 'network', 'seek', 'switch', 'repetition', 'id'];

/** A playback's value for an --only key (the names the scenario file and the ids use). */
function onlyValue(p, key) {
  return ({ transport: p.transport, abr: p.abr.label, network: p.network, seek: p.seekSchedule, switch: p.switchSchedule, repetition: String(p.repetition), id: p.id })[key];
}

/** "transport=h2,abr=bba2" -> predicate over playbacks (keys: transport, abr, network, seek, switch, repetition, id) */
function parseOnly(text) {
  if (!text) return () => true;
  const conds = text.split(',').map((part) => {
    const m = new RegExp(`^\\s*(${ONLY_KEYS.join('|')})\\s*=\\s*(.+?)\\s*$`).exec(part);
    if (!m) throw new Error(`--only "${part}" is not KEY=VALUE with KEY one of ${ONLY_KEYS.join(', ')}`);
    return [m[1], m[2]];
  });
  // Same key twice = either value; different keys = all must hold.
  const wanted = conds.reduce((acc, [k, v]) => ({ ...acc, [k]: [...(acc[k] || []), v] }), {});
  return (p) => Object.entries(wanted).every(([k, values]) => values.includes(onlyValue(p, k)));
}

/**
 * "I/N" (Playwright's --shard convention: the I-th of N slices, 1-based) -> {index, count}, or
 * null when not given.
 */
function parseShard(text) {
  if (text === undefined || text === null) return null;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(String(text));
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(count >= 1 && index >= 1 && index <= count)) throw new Error(`--shard "${text}" is not I/N with 1 <= I <= N (the I-th of N slices, e.g. 1/2)`);
  return { index, count };
}

/**
 * The I-th of N contiguous slices of the playbacks, in run order, sizes differing by at most
 * one. Contiguous because the matrix runs repetition-outermost: with 10 repetitions on two
 * machines each machine plays 5 repetitions of every cell, so a machine's quirks spread over
 * all cells instead of owning some of them.
 */
function shardOf(playbacks, shard) {
  if (!shard) return playbacks;
  const n = playbacks.length;
  return playbacks.slice(Math.floor(((shard.index - 1) * n) / shard.count), Math.floor((shard.index * n) / shard.count));
}

/**
 * The scenario's playbacks and the ones --only and --shard keep.
 * @param {object} scenario
 * @param {string} [only]
 * @param {{index: number, count: number}|null} [shard]  parseShard()
 * @returns {{all: object[], playbacks: object[]}}  all: the whole matrix in run order (the
 *   order of results.csv); playbacks: those this session is about
 */
function selectPlaybacks(scenario, only, shard = null) {
  const all = expandMatrix(scenario);
  const filtered = all.filter(parseOnly(only));
  if (!filtered.length) throw new Error(`--only "${only}" matches none of the scenario's ${all.length} playbacks`);
  const playbacks = shardOf(filtered, shard);
  if (!playbacks.length) throw new Error(`--shard ${shard.index}/${shard.count} is empty: only ${filtered.length} playback(s) to share among ${shard.count} shards`);
  return { all, playbacks };
}

/**
 * What is left to play of `playbacks` given the records a run directory already holds.
 * @param {object[]} playbacks
 * @param {object[]} previous  records read from the run directory (any status, any playback)
 * @returns {{todo: object[], skipped: number, expectedSeconds: number}}
 */
function remainingPlaybacks(playbacks, previous) {
  const done = new Set(previous.filter((r) => r.status === 'ok').map((r) => r.id));
  const todo = playbacks.filter((p) => !done.has(p.id));
  return { todo, skipped: playbacks.length - todo.length, expectedSeconds: todo.reduce((a, p) => a + p.expectedSeconds, 0) };
}

/** How the session's playbacks stand, from every record now in the run directory. */
function tallyPlaybacks(playbacks, records) {
  const mine = new Set(playbacks.map((p) => p.id));
  const theirs = records.filter((r) => mine.has(r.id));
  return { ok: theirs.filter((r) => r.status === 'ok').length, failed: theirs.filter((r) => r.status !== 'ok').length };
}

module.exports = { parseOnly, parseShard, shardOf, selectPlaybacks, remainingPlaybacks, tallyPlaybacks, ONLY_KEYS };
