'use strict';
// The fuzzed origin as its own child process (origin/cli.js, exactly what `npm run origin`
// runs), so that a crash shows as the process exiting instead of taking the fuzzer with it,
// and its file descriptors (/proc/PID/fd) and resident memory (/proc/PID/status) can be read
// from outside. The caller owns the process: stop() ends it by PID, and killNow() is safe to
// call from a synchronous 'exit' handler.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const DEFAULT_CLI = path.resolve(__dirname, '..', '..', 'origin', 'cli.js');
const READY_TIMEOUT_MS = 30000;
const STDERR_KEEP_CHARS = 8000;

/**
 * @param {object} o
 * @param {{root: string, dataDir: string, logFile: string}} o.tree  content-tree.js
 * @param {string} [o.cli]  the origin's cli.js (default this repository's)
 * @returns {Promise<OriginProcess>} once it printed its URLs
 */
async function startOriginProcess({ tree, cli = DEFAULT_CLI }) {
  const args = [cli, '--preset', 'none', '--host', '127.0.0.1', '--content-dir', tree.root, '--data-dir', tree.dataDir, '--http11-port', '0', '--http10-port', '0', '--h2-port', '0', '--log', tree.logFile];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = new OriginProcess(child);
  try {
    await proc.ready;
  } catch (err) {
    proc.killNow();
    throw err;
  }
  return proc;
}

class OriginProcess {
  constructor(child) {
    this.child = child;
    this.pid = child.pid;
    this.stdout = '';
    this.stderr = '';
    this.exit = null; // {code, signal, at}
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        this.exit = { code, signal, at: Date.now() };
        resolve(this.exit);
      });
    });
    child.stdout.on('data', (c) => { this.stdout += c; });
    child.stderr.on('data', (c) => {
      this.stderr = (this.stderr + c).slice(-STDERR_KEEP_CHARS);
    });
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the origin printed no URLs within ${READY_TIMEOUT_MS / 1000} s: ${this.stderr.trim()}`)), READY_TIMEOUT_MS);
      const onData = () => {
        if (!this.stdout.includes('Ctrl-C stops it.')) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        try {
          this.urls = parseUrls(this.stdout);
          resolve();
        } catch (err) {
          reject(err);
        }
      };
      child.stdout.on('data', onData);
      this.exited.then((e) => {
        clearTimeout(timer);
        reject(new Error(`the origin exited before serving (code ${e.code}, signal ${e.signal}): ${this.stderr.trim()}`));
      });
    });
    this.ready.catch(() => {});
  }

  get alive() {
    return this.exit === null;
  }

  /** Open file descriptors, by what they are ("socket", "pipe", "anon_inode:[eventfd]", a path). */
  fds() {
    const kinds = new Map();
    let total = 0;
    let names;
    try {
      names = fs.readdirSync(`/proc/${this.pid}/fd`);
    } catch {
      return null; // gone
    }
    for (const fd of names) {
      let target;
      try {
        target = fs.readlinkSync(`/proc/${this.pid}/fd/${fd}`);
      } catch {
        continue; // closed between readdir and readlink
      }
      total += 1;
      const kind = target.replace(/:\[\d+\]$/, '');
      kinds.set(kind, (kinds.get(kind) || 0) + 1);
    }
    return { total, kinds };
  }

  /** Resident set size in KiB (VmRSS), or null once the process is gone. */
  rssKb() {
    try {
      const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return m ? Number(m[1]) : null;
    } catch {
      return null;
    }
  }

  /** The last lines the origin wrote to stderr. */
  stderrTail(lines = 12) {
    return this.stderr.trim().split('\n').slice(-lines).join('\n');
  }

  /** The uncaught error that ended it (its message and the top of its stack), else the tail. */
  crashReport(lines = 6) {
    const all = this.stderr.trim().split('\n');
    let at = -1;
    all.forEach((l, i) => { if (/^(\w*Error|Uncaught|\s*throw )/.test(l) || /Error(\s\[\w+\])?:/.test(l)) at = at < 0 || i > at + lines ? i : at; });
    return at < 0 ? this.stderrTail(lines * 2) : all.slice(at, at + lines + 1).join('\n');
  }

  /** SIGTERM (the origin's orderly stop), SIGKILL after graceMs. */
  async stop(graceMs = 3000) {
    if (!this.alive) return this.exit;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.killNow(), graceMs);
    const e = await this.exited;
    clearTimeout(timer);
    return e;
  }

  /** Synchronous SIGKILL by PID, for exit handlers. */
  killNow() {
    if (this.alive) {
      try {
        process.kill(this.pid, 'SIGKILL');
      } catch { /* already gone */ }
    }
  }
}

function parseUrls(stdout) {
  const grab = (label) => {
    const m = new RegExp(`${label}\\s+(\\S+?)/(\\?\\S*)?$`, 'm').exec(stdout);
    if (!m) throw new Error(`the origin's output has no ${label} URL:\n${stdout}`);
    return m[1];
  };
  const urls = { http11: grab('HTTP/1\\.1'), http10: grab('HTTP/1\\.0-style'), h2: grab('HTTP/2 \\(TLS\\)') };
  urls.fdsp = `${urls.http11.replace(/^http/, 'ws')}/fdsp`;
  for (const k of ['http11', 'http10', 'h2']) urls[`${k}Port`] = Number(new URL(urls[k]).port);
  return urls;
}

module.exports = { startOriginProcess, parseUrls, DEFAULT_CLI };
