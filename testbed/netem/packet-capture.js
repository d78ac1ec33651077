'use strict';
// The packets of one playback as the client's kernel saw them, for `npm run qoe -- --capture`:
// tcpdump inside the client namespace, on every interface there (each path's TUN, and the
// address a network switch moves to), the link's addresses only (10.0.0.0/8: not Chromium's
// loopback traffic with its launcher), the first snapBytes of each packet (IP, TCP or UDP
// headers and QUIC's long header fit in 128). The file is a pcap (Wireshark, `tcpdump -r`),
// time-stamped with the wall clock. Why a capture: the records' 200 ms wire samples cannot
// say which handshake packet was lost or resent around a switch.
// tcpdump writes the capture to its stdout, which is the file, opened here: run as root,
// tcpdump gives up root for its own user before it opens a -w file, and that user cannot write
// into a run directory root made. (Copied through a pipe instead, the file missed the last
// packet now and then.) tcpdump is ended by PID in stop(); should this process
// die first, the link's teardown ends every process left in the client namespace.
const fs = require('node:fs');
const { spawn, execFileSync } = require('node:child_process');

const DEFAULT_SNAP_BYTES = 128;
// 68, tcpdump's historic default, keeps an IPv4 and a TCP header; 262144 is tcpdump's maximum.
const MIN_SNAP_BYTES = 68;
const MAX_SNAP_BYTES = 262144;
const CAPTURE_FILTER = 'net 10.0.0.0/8';
const READY_TIMEOUT_MS = 10000;
// The runner's refusal of --capture on loopback (said by qoe.js and by runScenario).
const NEEDS_EMULATION = '--capture needs the link emulator (the capture runs in its client namespace): run without --no-emulation';
const STOP_TIMEOUT_MS = 5000;

/**
 * The command (run inside the namespace) that captures to stdout. --immediate-mode: without it
 * the kernel hands packets over in blocks, up to a second late, and those of the last second are
 * lost when tcpdump is stopped (seen: 0 packets of a 0.6 s transfer).
 */
function tcpdumpArgs(snapBytes) {
  return ['tcpdump', '-i', 'any', '-n', '--immediate-mode', '-U', '-s', String(snapBytes), '-w', '-', CAPTURE_FILTER];
}

/** Throws a clear error when tcpdump is not installed (`npm run setup` installs it). */
function requireTcpdump() {
  try {
    execFileSync('sh', ['-c', 'command -v tcpdump'], { stdio: 'ignore' });
  } catch {
    throw new Error('packet capture needs "tcpdump": run "npm run setup" (installs it)');
  }
}

/** Checks a --capture-bytes value; returns it as a number. */
function parseSnapBytes(value) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < MIN_SNAP_BYTES || n > MAX_SNAP_BYTES) {
    throw new Error(`give a whole number of bytes per packet from ${MIN_SNAP_BYTES} to ${MAX_SNAP_BYTES} (got "${value}")`);
  }
  return n;
}

/**
 * The counts tcpdump prints when it stops: "N packets captured", "N packets received by filter",
 * "N packets dropped by kernel" (packets the capture missed because it fell behind). null where
 * a line is missing (tcpdump killed before it could print them).
 */
function parseCaptureSummary(stderr) {
  const count = (what) => {
    const m = new RegExp(`^(\\d+) packets? ${what}$`, 'm').exec(stderr);
    return m ? Number(m[1]) : null;
  };
  return { packets: count('captured'), receivedByFilter: count('received by filter'), droppedByKernel: count('dropped by kernel') };
}

/**
 * Starts capturing; resolves once tcpdump listens.
 * @param {object} o
 * @param {string} o.netns      the namespace whose interfaces are captured (the client's)
 * @param {string} o.file       the pcap file to write (replaced)
 * @param {number} [o.snapBytes]
 * @returns {Promise<{pid: number, stop: () => Promise<object>}>} stop() ends tcpdump and
 *   resolves with what the record keeps: the file, snapBytes, the filter and the counts
 */
async function startPacketCapture({ netns, file, snapBytes = DEFAULT_SNAP_BYTES }) {
  const fd = fs.openSync(file, 'w');
  let child;
  try {
    // `ip netns exec` enters the namespace and execs tcpdump: the PID is tcpdump's.
    child = spawn('ip', ['netns', 'exec', netns, ...tcpdumpArgs(snapBytes)], { stdio: ['ignore', fd, 'pipe'] });
  } finally {
    fs.closeSync(fd); // tcpdump has its own copy
  }
  let stderr = '';
  const exited = new Promise((resolve) => {
    // 'close', not 'exit': after the last of stderr (the counts) has been read
    child.once('close', (code, signal) => resolve({ code, signal }));
    child.once('error', (err) => resolve({ error: err }));
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tcpdump did not start listening in ${netns} within ${READY_TIMEOUT_MS / 1000} s: ${stderr.trim()}`));
    }, READY_TIMEOUT_MS);
    child.stderr.on('data', (c) => {
      stderr = (stderr + c).slice(-4000);
      if (/listening on/.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
    exited.then((e) => {
      clearTimeout(timer);
      const why = e.error ? e.error.message : `exit ${e.signal || e.code}`;
      reject(new Error(`tcpdump could not capture in ${netns} (${why}): ${stderr.trim() || 'no message'}`));
    });
  });
  let stopped = null;
  return {
    pid: child.pid,
    /** Ends the capture (SIGINT, so tcpdump flushes and prints its counts), then the file. */
    stop() {
      if (stopped) return stopped;
      stopped = (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
        let timer;
        const late = new Promise((resolve) => { timer = setTimeout(() => resolve('late'), STOP_TIMEOUT_MS); });
        if ((await Promise.race([exited, late])) === 'late') {
          child.kill('SIGKILL');
          await exited;
        }
        clearTimeout(timer);
        return { file, snapBytes, filter: CAPTURE_FILTER, ...parseCaptureSummary(stderr) };
      })();
      return stopped;
    },
  };
}

module.exports = { NEEDS_EMULATION, startPacketCapture, requireTcpdump, parseCaptureSummary, parseSnapBytes, tcpdumpArgs, DEFAULT_SNAP_BYTES, CAPTURE_FILTER };
