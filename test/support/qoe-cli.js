'use strict';
// `npm run qoe` as a user runs it, for the tests that drive the runner end to end.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const REPO = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO, 'testbed', 'cli', 'qoe.js');

/**
 * Runs testbed/cli/qoe.js with args from the repository root. Both pipes are read to the end
 * (an unread one fills up and stalls the runner).
 * @param {string[]} args
 * @param {object} [o]
 * @param {(err: string, child: import('node:child_process').ChildProcess) => void} [o.onStderr]
 *   called with all stderr so far after each chunk (e.g. to interrupt at a progress line)
 * @param {number} [o.uid]  run as this user (and group)
 * @returns {Promise<{code: number|null, out: string, err: string, pid: number}>}
 */
function runQoeCli(args, { onStderr, uid } = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], ...(uid ? { uid, gid: uid } : {}) });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => { out += c; });
  child.stderr.on('data', (c) => {
    err += c;
    if (onStderr) onStderr(err, child);
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err, pid: child.pid })));
}

/**
 * Runs a scenario into run directory `run` and reads what it left, keyed by transport (or by
 * `keyOf(record)`): each playback's record and its origin request log (NDJSON lines). Throws
 * with the runner's stderr when it did not exit 0.
 * @returns {Promise<{records: object, logs: object}>}
 */
async function runScenarioByTransport(scenario, run, extraArgs = [], keyOf = (x) => x.transport) {
  const r = await runQoeCli([scenario, '--out', run, ...extraArgs]);
  if (r.code !== 0) throw new Error(`qoe exited ${r.code}:\n${r.err.slice(-3000)}`);
  const records = {};
  const logs = {};
  for (const f of fs.readdirSync(path.join(run, 'playbacks'))) {
    const x = JSON.parse(fs.readFileSync(path.join(run, 'playbacks', f), 'utf8'));
    records[keyOf(x)] = x;
    logs[keyOf(x)] = fs.readFileSync(path.join(run, 'logs', `${x.id}.requests.ndjson`), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  }
  return { records, logs };
}

module.exports = { runQoeCli, runScenarioByTransport };
