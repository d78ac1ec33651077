'use strict';
// The origin as a child process (origin/cli.js, exactly what `npm run origin` runs), for the
// programs that need it outside their own process: benchmarks and fuzzing read its descriptors,
// memory and CPU time from /proc and see a crash as the process exiting. It is ready when it
// prints its JSON ready line. The caller owns the process: close() ends it by PID (SIGINT, the
// origin's orderly stop, then SIGKILL), and killNow() is safe in a synchronous 'exit' handler.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { READY_EVENT } = require('../origin/cli');
const { dieWithParentArgv } = require('../shared/die-with-parent');

const CLI = path.resolve(__dirname, '..', 'origin', 'cli.js');
const STDERR_KEEP_CHARS = 8000;
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux, what /proc/PID/stat counts in

/**
 * @param {object} o
 * @param {string} o.contentDir, o.dataDir
 * @param {string} [o.logFile]        request log (NDJSON)
 * @param {string} [o.host]           default 127.0.0.1
 * @param {string[]} [o.args]         more origin/cli.js options (ports default to 0: any free port)
 * @param {string} [o.cli]            the origin's cli.js (default this repository's; the fuzzer can
 *                                    aim at another checkout's, which must print the ready line)
 * @param {string[]} [o.prefix]       command prefix, e.g. ['taskset', '-c', '1'] or `ip netns exec NS`
 * @param {number} [o.readyTimeoutMs] default 30 s
 * @returns {Promise<OriginProcess>} once it is serving
 */
async function startOriginProcess(o) {
  const args = [o.cli || CLI, '--preset', 'none', '--host', o.host || '127.0.0.1', '--content-dir', o.contentDir, '--data-dir', o.dataDir,
    '--http11-port', '0', '--http10-port', '0', '--h2-port', '0', ...(o.logFile ? ['--log', o.logFile] : []), ...(o.args || [])];
  // It dies with this process, however this one ends (setpriv execs: the PID is the prefix's, then the origin's).
  const argv = dieWithParentArgv([...(o.prefix || []), process.execPath, ...args]);
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = new OriginProcess(child, o.readyTimeoutMs || 30000);
  try {
    await proc.ready;
  } catch (err) {
    proc.killNow();
    throw err;
  }
  return proc;
}

class OriginProcess {
  constructor(child, readyTimeoutMs) {
    this.child = child;
    this.stdout = '';
    this.stderr = '';
    this.exit = null; // {code, signal}
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
    child.stderr.on('data', (c) => {
      this.stderr = (this.stderr + c).slice(-STDERR_KEEP_CHARS);
    });
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the origin was not serving within ${readyTimeoutMs / 1000} s: ${this.stderrTail()}`)), readyTimeoutMs);
      child.stdout.on('data', (c) => {
        this.stdout += c;
        if (this.info) return;
        for (const line of this.stdout.split('\n')) {
          if (!line.startsWith('{')) continue;
          let msg;
          try {
            msg = JSON.parse(line);
          } catch {
            continue; // not complete yet
          }
          if (msg.event !== READY_EVENT) continue;
          clearTimeout(timer);
          this.info = msg;
          resolve();
        }
      });
      this.exited.then((e) => {
        clearTimeout(timer);
        reject(new Error(`the origin exited (${e.signal || `code ${e.code}`}) before serving: ${this.stderrTail()}`));
      });
    });
    this.ready.catch(() => {});
  }

  /** The origin's own PID (under a prefix such as `ip netns exec`, the one the ready line names). */
  get pid() {
    return this.info ? this.info.pid : this.child.pid;
  }

  get urls() {
    return this.info.urls;
  }

  get alive() {
    return this.exit === null;
  }

  /** Open descriptors: {total, kinds: Map("socket" | "pipe" | a path ... -> count)}, or null once gone. */
  fds() {
    let names;
    try {
      names = fs.readdirSync(`/proc/${this.pid}/fd`);
    } catch {
      return null;
    }
    const kinds = new Map();
    let total = 0;
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

  /** Resident set size in bytes (VmRSS), or null once gone. */
  rssBytes() {
    try {
      const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : null;
    } catch {
      return null;
    }
  }

  /** CPU time used so far (user + system, seconds), or null once gone. */
  cpuSeconds() {
    try {
      const stat = fs.readFileSync(`/proc/${this.pid}/stat`, 'utf8');
      // Fields after the command name (which may contain spaces), from ")": state is field 3.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND; // utime, stime
    } catch {
      return null;
    }
  }

  stderrTail(lines = 12) {
    return this.stderr.trim().split('\n').slice(-lines).join('\n');
  }

  /** SIGKILL now, synchronously (for 'exit' handlers). */
  killNow() {
    if (!this.alive) return;
    try {
      process.kill(this.pid, 'SIGKILL');
    } catch { /* gone */ }
    try {
      this.child.kill('SIGKILL');
    } catch { /* gone */ }
  }

  /** The orderly stop (SIGINT: the request log is flushed), SIGKILL after graceMs. */
  async close(graceMs = 5000) {
    if (!this.alive) return this.exit;
    try {
      process.kill(this.pid, 'SIGINT');
    } catch { /* gone */ }
    const timer = setTimeout(() => this.killNow(), graceMs);
    await this.exited;
    clearTimeout(timer);
    return this.exit;
  }
}

module.exports = { startOriginProcess, OriginProcess, CLI };
