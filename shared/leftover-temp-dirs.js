'use strict';
// Temporary directories (shared/lab-temp-dir.js: lab-<kind>-<pid>-XXXXXX) left by a process
// that was killed hard: Chromium profiles, socket directories, test data. Only those whose
// maker has ended go; a live maker's are kept, however old (a scenario runs for hours).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseLabTempDirName } = require('./lab-temp-dir');
const { clockTicksPerSecond } = require('./clock-ticks');

/** When the process started (ms since the epoch), or null if it does not run (or /proc cannot say). */
function processStartMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22, counted after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const bootS = Number(/^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'))[1]);
    return bootS * 1000 + (Number(fields[19]) / clockTicksPerSecond()) * 1000;
  } catch {
    return null;
  }
}

/**
 * Why the directory must stay, or null if its maker is gone. A PID taken again by a process
 * that started after the directory was made is not its maker (1 s of slack for the clock ticks).
 */
function keepReason({ pid, madeMs }, startOf = processStartMs) {
  const started = startOf(pid);
  if (started === null) return null;
  if (madeMs !== null && started > madeMs + 1000) return null;
  return `its maker, PID ${pid}, still runs`;
}

/**
 * The lab's temporary directories under `dir` (only those of `kind` if given), each with its
 * maker's PID and when it was made.
 */
function listLabTempDirs(dir = os.tmpdir(), kind = null) {
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out = [];
  for (const name of names) {
    const parsed = parseLabTempDirName(name);
    if (!parsed || (kind !== null && parsed.kind !== kind)) continue;
    let st;
    try {
      st = fs.lstatSync(path.join(dir, name));
    } catch {
      continue; // removed meanwhile
    }
    if (!st.isDirectory()) continue;
    out.push({ name, path: path.join(dir, name), pid: parsed.pid, madeMs: st.birthtimeMs || null });
  }
  return out;
}

/**
 * Removes the leftovers; reports what it removed, kept (and why) and could not remove.
 * @param {object} [o]
 * @param {string} [o.dir]       where to look (default: the system's temporary directory)
 * @param {string} [o.kind]      only directories of this kind (makeLabTempDir's first argument)
 * @param {boolean} [o.dryRun]   decide, delete nothing
 * @param {(pid: number) => number|null} [o.startOf]  a process's start time (tests)
 */
function removeLeftoverTempDirs({ dir = os.tmpdir(), kind = null, dryRun = false, startOf = processStartMs } = {}) {
  const removed = [];
  const kept = [];
  const errors = [];
  for (const d of listLabTempDirs(dir, kind)) {
    const why = keepReason(d, startOf);
    if (why) {
      kept.push({ name: d.name, why });
      continue;
    }
    try {
      if (!dryRun) fs.rmSync(d.path, { recursive: true, force: true });
      removed.push(d.name);
    } catch (err) {
      errors.push({ name: d.name, message: err.message });
    }
  }
  return { removed, kept, errors };
}

module.exports = { listLabTempDirs, removeLeftoverTempDirs, processStartMs, keepReason };
