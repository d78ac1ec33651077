'use strict';
// The origin as its own process inside the emulated link's server namespace (a process
// cannot open sockets in another namespace; `ip netns exec` starts it there). It serves the
// already-built content only: building belongs before the run, not inside a playback.
const path = require('node:path');
const { spawn } = require('node:child_process');
const { inNamespace } = require('../netem/namespace-link');

const REPO = path.resolve(__dirname, '..', '..');

/**
 * @param {object} o
 * @param {string} o.netns, o.host, o.contentDir, o.dataDir, o.logFile
 * @param {number} [o.readyTimeoutMs]
 * @returns {Promise<{pid: number, pageBase: string, exited: Promise<{code: number|null, signal: string|null}>,
 *   stderrTail: () => string, close: () => Promise<void>}>}
 *   pid: the origin's own process (`ip netns exec` execs it); exited: resolves when it has
 *   ended, whoever ended it (a playback uses it to fail at once when its origin dies);
 *   stderrTail: the last of what it wrote to stderr (why it died, if it said)
 */
async function startOriginInNamespace(o) {
  const argv = inNamespace(o.netns, [process.execPath, path.join(REPO, 'origin', 'cli.js'),
    '--host', o.host, '--preset', 'none', '--content-dir', o.contentDir, '--data-dir', o.dataDir, '--log', o.logFile]);
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => { err = (err + c).slice(-4000); });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the origin did not start within ${o.readyTimeoutMs || 30000} ms: ${err.trim()}`)), o.readyTimeoutMs || 30000);
      child.stdout.on('data', (c) => {
        out += c;
        if (out.includes('Ctrl-C stops it.')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the origin exited (${signal || code}) before serving: ${err.trim()}`));
      });
    });
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return {
    pid: child.pid,
    pageBase: `http://${o.host}:8080`,
    exited,
    stderrTail: () => err.trim().slice(-1000),
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGINT: the origin flushes its request log and closes its listeners.
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

module.exports = { startOriginInNamespace };
