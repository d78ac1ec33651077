'use strict';
// The fuzzed origin: testbed/origin-process.js's child process (origin/cli.js, so a crash shows
// as the process exiting and its descriptors and memory can be read from /proc), seen the way
// the batches use it: the listeners' ports beside their URLs, memory in KiB, and the error that
// ended it when it crashed.
const { startOriginProcess: startChild, CLI } = require('../origin-process');

const DEFAULT_CLI = CLI;

/**
 * @param {object} o
 * @param {{root: string, dataDir: string, logFile: string}} o.tree  content-tree.js
 * @param {string} [o.cli]  the origin's cli.js (default this repository's)
 * @returns {Promise<FuzzedOrigin>} once it is serving
 */
async function startOriginProcess({ tree, cli = DEFAULT_CLI }) {
  return new FuzzedOrigin(await startChild({ contentDir: tree.root, dataDir: tree.dataDir, logFile: tree.logFile, cli }));
}

class FuzzedOrigin {
  constructor(proc) {
    this.proc = proc;
    this.pid = proc.pid;
    this.exited = proc.exited;
    const urls = { ...proc.urls };
    for (const k of ['http11', 'http10', 'h2']) urls[`${k}Port`] = Number(new URL(urls[k]).port);
    this.urls = urls;
  }

  get alive() {
    return this.proc.alive;
  }

  /** {code, signal} once it exited, else null. */
  get exit() {
    return this.proc.exit;
  }

  fds() {
    return this.proc.fds();
  }

  /** Resident set size in KiB, or null once the process is gone. */
  rssKb() {
    const bytes = this.proc.rssBytes();
    return bytes === null ? null : bytes / 1024;
  }

  stderrTail(lines = 12) {
    return this.proc.stderrTail(lines);
  }

  /** The uncaught error that ended it (its message and the top of its stack), else the tail. */
  crashReport(lines = 6) {
    const all = this.proc.stderr.trim().split('\n');
    let at = -1;
    all.forEach((l, i) => { if (/^(\w*Error|Uncaught|\s*throw )/.test(l) || /Error(\s\[\w+\])?:/.test(l)) at = at < 0 || i > at + lines ? i : at; });
    return at < 0 ? this.stderrTail(lines * 2) : all.slice(at, at + lines + 1).join('\n');
  }

  /** The orderly stop, SIGKILL after graceMs. */
  stop(graceMs = 3000) {
    return this.proc.close(graceMs);
  }

  /** Synchronous SIGKILL by PID, for exit handlers. */
  killNow() {
    this.proc.killNow();
  }
}

module.exports = { startOriginProcess, DEFAULT_CLI };
