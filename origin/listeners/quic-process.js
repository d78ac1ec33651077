'use strict';
// The quic-origin child process (origin/quic/, Rust): started with its arguments, ready when it
// prints its JSON ready line, ended by PID. Its stdin is a pipe we never write: if this process
// dies without closing it (SIGKILL), the pipe's EOF ends the child too, so no QUIC server
// outlives its origin.
const path = require('node:path');
const { spawn } = require('node:child_process');

const QUIC_ORIGIN_BINARY = process.env.LAB_QUIC_ORIGIN || path.resolve(__dirname, '..', 'quic', 'target', 'release', 'quic-origin');
const READY_TIMEOUT_MS = 10000;
const EXIT_GRACE_MS = 2000;

/**
 * @param {object} o
 * @param {string} o.listen  ADDR:PORT (UDP)
 * @param {string} o.certFile, o.keyFile, o.backendPath, o.bridgePath
 * @param {string} o.congestionControl
 * @param {number} o.fixedRateKbps
 * @param {(why: string) => void} [o.onExit]  the child ended while we had not asked it to
 * @returns {Promise<{pid: number, port: number, exited: () => string|null, close: () => Promise<void>}>}
 */
function spawnQuicOrigin(o) {
  const args = ['--listen', o.listen, '--cert', o.certFile, '--key', o.keyFile, '--h3-backend', o.backendPath,
    '--fdsp-bridge', o.bridgePath, '--h3-cc', o.congestionControl, '--fixed-rate-kbps', String(o.fixedRateKbps)];
  const child = spawn(QUIC_ORIGIN_BINARY, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let exitReason = null;
  let closing = false;
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => {
    exitReason = signal ? `killed by ${signal}` : `exited with code ${code}`;
    resolve();
    if (!closing && o.onExit) o.onExit(exitReason);
  }));
  child.stdin.on('error', () => {}); // the child gone: nothing to write anyway
  const stderrTail = [];
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => {
    process.stderr.write(text);
    stderrTail.push(text);
    if (stderrTail.length > 20) stderrTail.shift();
  });
  // A last resort for an exit that skips close(): nothing async runs in an 'exit' handler.
  const killOnExit = () => {
    try { child.kill('SIGKILL'); } catch { /* already gone */ }
  };
  process.once('exit', killOnExit);

  const close = async () => {
    closing = true;
    process.off('exit', killOnExit);
    if (exitReason) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    let stdout = '';
    const fail = async (why) => {
      clearTimeout(timer);
      await close();
      reject(new Error(`${QUIC_ORIGIN_BINARY} ${why}${stderrTail.length ? `; it said: ${stderrTail.join('').trim().slice(-800)}` : ''}`));
    };
    const timer = setTimeout(() => fail(`printed no ready line within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    child.once('error', (err) => fail(`could not be started: ${err.message}`));
    child.once('exit', () => {
      if (!stdout.includes('\n')) fail(`ended before it was ready (${exitReason})`);
    });
    child.stdout.setEncoding('utf8');
    const onData = (text) => {
      stdout += text;
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      child.stdout.off('data', onData);
      child.stdout.resume(); // nothing more is expected; never let the pipe fill
      clearTimeout(timer);
      let ready;
      try {
        ready = JSON.parse(line);
      } catch {
        fail(`printed an unreadable ready line: ${line.slice(0, 200)}`);
        return;
      }
      if (ready.event !== 'quic-ready' || !Number.isInteger(ready.port)) {
        fail(`printed an unexpected ready line: ${line.slice(0, 200)}`);
        return;
      }
      resolve({ pid: child.pid, port: ready.port, exited: () => exitReason, close });
    };
    child.stdout.on('data', onData);
  });
}

module.exports = { spawnQuicOrigin, QUIC_ORIGIN_BINARY };
