'use strict';
// Figures measured before a fix that changes them are marked where they are printed. The list
// of such fixes is results/known-fixes.json: per fix its commit, what it changed, the metrics it
// moves and which playbacks it touches (scope: transports, ABRs, scenarios by registry or
// scenario name; or the very playbacks, by id, when the stored rows show which ones it changed). Each playback records the commit that measured it (runner/code-version.js;
// results.csv's `commit`); a cell of the report gets "†N" when one of its playbacks ran on code
// that does not contain fix N and fix N applies to that metric and playback.
// The rules are pure (markCells); gitAncestry() answers "does this code contain that fix?".
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const DEFAULT_FILE = path.join(__dirname, '..', '..', 'results', 'known-fixes.json');
const SCOPE_KEYS = ['transport', 'abr', 'scenario', 'playback'];
const HEX = /^[0-9a-f]{7,40}$/;

/**
 * Reads and checks a known-fixes file; every problem is reported at once.
 * @param {string} [file]
 * @param {string[]} metricKeys  the report's metrics (a fix names some of them, or "*")
 * @returns {{commit: string, date: string, what: string, metrics: string[]|'*', scope: object}[]}
 */
function loadKnownFixes(file = DEFAULT_FILE, metricKeys = []) {
  if (!fs.existsSync(file)) return [];
  let raw;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: not JSON (${err.message})`);
  }
  const problems = [];
  const list = raw && Array.isArray(raw.fixes) ? raw.fixes : null;
  if (!list) throw new Error(`${file}: needs {"fixes": [{commit, date, what, metrics, scope}, ...]}`);
  const fixes = list.map((f, i) => {
    const at = `fixes[${i}]`;
    if (!f || typeof f !== 'object') return problems.push(`${at} must be an object`) && null;
    for (const k of Object.keys(f)) if (!['commit', 'date', 'what', 'metrics', 'scope'].includes(k)) problems.push(`${at}: unknown key "${k}"`);
    if (!HEX.test(String(f.commit))) problems.push(`${at}.commit must be a commit hash (7-40 hex digits), got ${JSON.stringify(f.commit)}`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(f.date))) problems.push(`${at}.date must be YYYY-MM-DD`);
    if (typeof f.what !== 'string' || !f.what.trim()) problems.push(`${at}.what must say what the fix changed`);
    if (f.metrics !== '*' && !(Array.isArray(f.metrics) && f.metrics.length)) problems.push(`${at}.metrics must be "*" or a list of metric keys`);
    else if (f.metrics !== '*') for (const m of f.metrics) if (metricKeys.length && !metricKeys.includes(m)) problems.push(`${at}.metrics: "${m}" is not a report metric`);
    const scope = f.scope || {};
    for (const [k, v] of Object.entries(scope)) {
      if (!SCOPE_KEYS.includes(k)) problems.push(`${at}.scope: unknown key "${k}" (${SCOPE_KEYS.join(', ')})`);
      else if (!(Array.isArray(v) && v.length && v.every((x) => typeof x === 'string'))) problems.push(`${at}.scope.${k} must be a list of names`);
    }
    return { commit: String(f.commit), date: f.date, what: f.what, metrics: f.metrics, scope };
  });
  if (problems.length) throw new Error(`${file}:\n  ${problems.join('\n  ')}`);
  return fixes;
}

/**
 * Whether fix f concerns this playback (names: its transport, ABR and scenario names, its id). A
 * transport in a scope is a registry name (every variant of it) or a scenario's label for one
 * variant (names.transportLabel): a fix to one variant of a transport, e.g. WebTransport's
 * single carrier, marks that variant's cells alone.
 */
function inScope(fix, names) {
  return SCOPE_KEYS.every((k) => !fix.scope[k] || fix.scope[k].includes(names[k]) || (k === 'transport' && names.transportLabel !== undefined && fix.scope[k].includes(names.transportLabel)));
}

/**
 * Marks each cell of the report's groups that holds playbacks measured before a fix that
 * applies to it: group.metrics[key].predates = [fix numbers, 1-based in the file's order].
 * @param {object[]} groups    aggregateRows() output (changed in place)
 * @param {Map<string, object>} rowsById  results rows by playback id (with `commit`, `startedAt`)
 * @param {object[]} fixes     loadKnownFixes()
 * @param {object} o
 * @param {(fixCommit: string, row: object) => boolean|null} o.contains  does the row's code contain the fix? null: cannot tell
 * @param {(row: object) => {transport: string, abr: string|null, scenario: string}} o.namesOf
 * @param {(row: object, key: string) => *} [o.metricValue]  a metric's value in a row (derived metrics); default row[key]
 * @returns {{used: number[], unknown: string[]}} the fixes some cell predates; playbacks whose code could not be told
 */
function markCells(groups, rowsById, fixes, { contains, namesOf, metricValue = (r, key) => r[key] }) {
  const used = new Set();
  const unknown = new Set();
  for (const g of groups) {
    const rows = g.ids.map((id) => rowsById.get(id)).filter((r) => r && r.status === 'ok');
    for (const [key, cell] of Object.entries(g.metrics)) {
      if (!cell || cell.n === 0) continue;
      const predates = [];
      fixes.forEach((fix, i) => {
        if (fix.metrics !== '*' && !fix.metrics.includes(key)) return;
        const before = rows.filter((r) => metricValue(r, key) !== null && metricValue(r, key) !== undefined && inScope(fix, namesOf(r))).map((r) => {
          const has = contains(fix.commit, r);
          if (has === null) unknown.add(r.id);
          return has === false;
        });
        if (before.some(Boolean)) predates.push(i + 1);
      });
      if (predates.length) {
        cell.predates = predates;
        predates.forEach((n) => used.add(n));
      }
    }
  }
  return { used: [...used].sort((a, b) => a - b), unknown: [...unknown] };
}

/**
 * "Does the code that measured this row contain the fix?" from git history. A row's commit
 * (with "+" when its work tree had changes on top) is checked with merge-base --is-ancestor; a
 * row with no commit (runs from before commits were recorded) is judged by date: started
 * before the fix was committed means without it; after, it cannot be told (an older checkout
 * may have run later). null whenever git cannot answer (a commit this clone does not have).
 */
function gitAncestry(repoDir = path.join(__dirname, '..', '..')) {
  const cache = new Map();
  const git = (args) => execFileSync('git', ['-C', repoDir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  const fixTime = (commit) => {
    const k = `time ${commit}`;
    if (!cache.has(k)) {
      try {
        cache.set(k, Date.parse(git(['show', '-s', '--format=%cI', commit])));
      } catch {
        cache.set(k, null);
      }
    }
    return cache.get(k);
  };
  return (fixCommit, row) => {
    const commit = row.commit ? String(row.commit).replace(/\+$/, '') : null;
    if (!commit) {
      const t = fixTime(fixCommit);
      const started = row.startedAt ? Date.parse(row.startedAt) : NaN;
      if (t === null || Number.isNaN(started)) return null;
      return started < t ? false : null;
    }
    const k = `${fixCommit} ${commit}`;
    if (!cache.has(k)) {
      let answer = null;
      try {
        execFileSync('git', ['-C', repoDir, 'merge-base', '--is-ancestor', fixCommit, commit], { stdio: 'ignore' });
        answer = true;
      } catch (err) {
        answer = err.status === 1 ? false : null;
      }
      cache.set(k, answer);
    }
    return cache.get(k);
  };
}

/** Registry names of a row's transport and ABR, from the scenario that labelled them. */
function namesFromScenario(scenario) {
  const transportName = new Map((scenario.transports || []).map((t) => (typeof t === 'string' ? [t, t] : [t.label || t.name, t.name])));
  const abrName = new Map((scenario.abrs || []).map((a) => [a.label || a.name, a.name]));
  return (row) => ({ transport: transportName.get(row.transport) ?? row.transport, transportLabel: row.transport, abr: row.abr === null ? null : abrName.get(row.abr) ?? row.abr, scenario: scenario.name, playback: row.id });
}

module.exports = { loadKnownFixes, markCells, inScope, gitAncestry, namesFromScenario, DEFAULT_FILE };
