'use strict';
// `npm run qoe` as a user runs it, for the tests that drive the runner end to end.
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

module.exports = { runQoeCli };
