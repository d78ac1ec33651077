'use strict';
// A run directory holds everything a run produced, so it can be resumed, reported on and
// archived as one folder:
//   scenario.json            the normalized scenario (a resume must match it)
//   playbacks/<id>.json      one record per playback: config, status, error, the player's QoE
//                            JSON, derived metrics, emulator counters, origin log summary
//   logs/<id>.requests.ndjson  the origin's request log for that playback
//   results.csv              one row per playback (rewritten after every playback)
//   captures/<id>.pcap       with --capture: the client's packet headers (packet-capture.js)
//   content-shares.json      FDSP runs: what BP sends reliably in the content (run-scenario.js)
//   set-aside/<id>.<n>.json  playbacks played again because the emulator's timers ran late
//                            (late-timers.js), with their request logs and captures; not results
// Records are written to a temporary name and renamed, so an interrupted run never leaves a
// half-written record that a resume would trust.
const fs = require('node:fs');
const path = require('node:path');
const { toCsv } = require('./results-table');

function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

// What may change between the sessions of one run: they do not change what is measured
// (reference: the paper's figures the report shows beside ours).
const RESUMABLE_CHANGES = ['timeoutSeconds', 'description', 'reference'];

/** The keys whose values differ between two scenarios, beside those that may change on resume. */
function changedKeys(before, after) {
  return Object.keys({ ...before, ...after }).filter((k) => !RESUMABLE_CHANGES.includes(k) && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

function experimentOf(scenario) {
  const copy = { ...scenario };
  for (const k of RESUMABLE_CHANGES) delete copy[k];
  return JSON.stringify(copy);
}

/** Creates a run directory or reopens one made from the same scenario. */
function openRunDirectory(dir, scenario) {
  const scenarioFile = path.join(dir, 'scenario.json');
  const text = `${JSON.stringify(scenario, null, 2)}\n`;
  if (fs.existsSync(scenarioFile)) {
    const before = JSON.parse(fs.readFileSync(scenarioFile, 'utf8'));
    if (experimentOf(before) !== experimentOf(scenario)) {
      const changed = changedKeys(before, scenario);
      throw new Error(`${dir} holds a run of a different scenario (or of an edited version of this one: ${changed.join(', ')} changed); give a new --out directory, or delete ${dir} to start over (only ${RESUMABLE_CHANGES.join(', ')} may change on resume)`);
    }
    if (JSON.stringify(before) !== JSON.stringify(scenario)) writeAtomic(scenarioFile, text);
  } else if (fs.existsSync(dir) && fs.readdirSync(dir).length) {
    throw new Error(`${dir} exists and is not a run directory (no scenario.json); give an empty or new --out directory`);
  }
  fs.mkdirSync(path.join(dir, 'playbacks'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  if (!fs.existsSync(scenarioFile)) writeAtomic(scenarioFile, text);
  return {
    dir,
    logFile: (id) => path.join(dir, 'logs', `${id}.requests.ndjson`),
    recordFile: (id) => path.join(dir, 'playbacks', `${id}.json`),
    /** Where a playback's capture goes (the folder is made on first use). */
    captureFile(id) {
      fs.mkdirSync(path.join(dir, 'captures'), { recursive: true });
      return path.join(dir, 'captures', `${id}.pcap`);
    },
    write(record) {
      writeAtomic(path.join(dir, 'playbacks', `${record.id}.json`), `${JSON.stringify(record)}\n`);
    },
    read: () => readRecords(dir),
    /** Moves a record (and its request log and capture) out of the results; returns where it went. */
    setAside(record, why) {
      const aside = path.join(dir, 'set-aside');
      fs.mkdirSync(aside, { recursive: true });
      let n = 1;
      while (fs.existsSync(path.join(aside, `${record.id}.${n}.json`))) n += 1;
      const file = path.join(aside, `${record.id}.${n}.json`);
      writeAtomic(file, `${JSON.stringify({ ...record, setAside: why })}\n`);
      const log = path.join(dir, 'logs', `${record.id}.requests.ndjson`);
      if (fs.existsSync(log)) fs.renameSync(log, path.join(aside, `${record.id}.${n}.requests.ndjson`));
      const capture = path.join(dir, 'captures', `${record.id}.pcap`);
      if (fs.existsSync(capture)) fs.renameSync(capture, path.join(aside, `${record.id}.${n}.pcap`));
      return file;
    },
    writeCsv(order) {
      const records = readRecords(dir);
      const rank = new Map(order.map((id, i) => [id, i]));
      records.sort((a, b) => (rank.get(a.id) ?? 1e9) - (rank.get(b.id) ?? 1e9));
      writeAtomic(path.join(dir, 'results.csv'), toCsv(records));
      return records;
    },
  };
}

/** Local date and time as a run directory's suffix: runs/<scenario>-20261125-143000. */
function runTimestamp(d = new Date()) {
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

/** Every readable record in a run directory; unreadable ones are set aside, not trusted. */
function readRecords(dir) {
  const pdir = path.join(dir, 'playbacks');
  if (!fs.existsSync(pdir)) throw new Error(`${dir} is not a run directory (no playbacks/ in it)`);
  const records = [];
  for (const f of fs.readdirSync(pdir).filter((n) => n.endsWith('.json')).sort()) {
    try {
      records.push(JSON.parse(fs.readFileSync(path.join(pdir, f), 'utf8')));
    } catch (err) {
      process.stderr.write(`warning: ${path.join(pdir, f)} is not readable JSON (${err.message}); renamed to .corrupt and run again on resume\n`);
      fs.renameSync(path.join(pdir, f), path.join(pdir, `${f}.corrupt`));
    }
  }
  return records;
}

module.exports = { openRunDirectory, readRecords, writeAtomic, experimentOf, changedKeys, runTimestamp, RESUMABLE_CHANGES };
