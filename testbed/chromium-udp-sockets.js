'use strict';
// The UDP sockets a Chromium process tree holds, with each one's receive buffer and drops as
// the kernel reports them (`ss -uampn`): how the lab shows the size Chromium gave the socket a
// DataChannel session reads from (the DataChannel transport option receiveBuffer, issue 16).
// rb is the kernel's limit in bytes of truesize, twice what the program asked with SO_RCVBUF
// (which the kernel caps at net.core.rmem_max); d counts datagrams dropped for a full buffer.
const { execFile } = require('node:child_process');
const { processTree } = require('./process-tree');

/**
 * The sockets in `ss -uampnH` output, for processes whose PID is in pids. A socket is its
 * address line, naming its processes (one socket may list several), and its skmem part, on
 * the same line or, as ss wraps it, on the indented line after.
 * @param {string} text
 * @param {Set<number>} pids
 * @returns {Array<{pids: number[], local: string, receiveBufferBytes: number|null, drops: number}>}
 */
function parseUdpSockets(text, pids) {
  const out = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const users = /users:\(\((.*)\)\)/.exec(lines[i]);
    if (!users) continue;
    const owners = [...users[1].matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
    if (!owners.some((p) => pids.has(p))) continue;
    const next = lines[i + 1] || '';
    const continuation = /^\s/.test(next) && !next.includes('users:(') ? next : '';
    const mem = /skmem:\(([^)]*)\)/.exec(lines[i]) || /skmem:\(([^)]*)\)/.exec(continuation);
    if (!mem) continue;
    const field = (name) => {
      const m = new RegExp(`(?:^|,)${name}(\\d+)`).exec(mem[1]);
      return m ? Number(m[1]) : null;
    };
    out.push({ pids: owners, local: lines[i].trim().split(/\s+/)[3] || '', receiveBufferBytes: field('rb'), drops: field('d') ?? 0 });
  }
  return out;
}

/**
 * The UDP sockets of Chromium's process tree now.
 * @param {number} chromiumPid  the browser's main process (runPlayback's onPlaying gives it)
 * @param {string|null} [netns]  the namespace Chromium runs in (null: the host's)
 * @returns {Promise<Array<object>>}  parseUdpSockets's records
 */
function chromiumUdpSockets(chromiumPid, netns = null) {
  const [cmd, args] = netns ? ['ip', ['netns', 'exec', netns, 'ss', '-uampnH']] : ['ss', ['-uampnH']];
  return new Promise((resolve, reject) => {
    // Asynchronous: the loopback bench's origin runs in the same process and must keep pacing.
    execFile(cmd, args, { encoding: 'utf8', timeout: 5000 }, (err, stdout) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}`));
      else resolve(parseUdpSockets(stdout, processTree(chromiumPid)));
    });
  });
}

/**
 * Watches the largest receive buffer among Chromium's UDP sockets during one playback: pass
 * onPlaying to runPlayback, call stop() after it. A few samples (the first once the session
 * had time to open) keep the watching from disturbing what is measured.
 * @param {object} [o]
 * @param {string|null} [o.netns]
 * @param {number} [o.everyMs]  default 4000
 * @returns {{onPlaying: (p: {chromiumPid: number|null}) => void, stop: () => Promise<{largest: number|null, error: string|null}>}}
 *   largest: bytes of truesize, null if no sample saw a socket; error: why sampling failed, if it did
 */
function watchLargestReceiveBuffer({ netns = null, everyMs = 4000 } = {}) {
  let timer = null;
  let largest = null;
  let error = null;
  let pending = Promise.resolve();
  const sample = (pid) => {
    pending = chromiumUdpSockets(pid, netns).then((sockets) => {
      for (const s of sockets) largest = Math.max(largest ?? 0, s.receiveBufferBytes ?? 0);
    }, (err) => {
      error = error || err.message;
    });
  };
  return {
    onPlaying: ({ chromiumPid }) => {
      if (chromiumPid) timer = setInterval(() => sample(chromiumPid), everyMs);
      else error = 'no Chromium PID to watch';
    },
    stop: async () => {
      clearInterval(timer);
      await pending;
      return { largest, error: largest === null ? error || 'no sample saw a Chromium UDP socket' : null };
    },
  };
}

module.exports = { chromiumUdpSockets, parseUdpSockets, watchLargestReceiveBuffer };
