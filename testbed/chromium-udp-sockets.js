'use strict';
// The UDP sockets a Chromium process tree holds, with each one's receive buffer and drops as
// the kernel reports them (`ss -uamp`): how the lab shows what size Chromium gave the socket a
// DataChannel or WebTransport session reads from (the transport option receiveBuffer, issue 16).
// rb is the kernel's limit in bytes of truesize, twice what the program asked with SO_RCVBUF;
// d counts datagrams dropped because the buffer was full.
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');

/**
 * The sockets in `ss -uampH` output (two lines per socket: the address line naming its
 * processes, then its skmem line), for processes whose PID is in pids.
 * @param {string} text
 * @param {Set<number>} pids
 * @returns {Array<{pid: number, local: string, receiveBufferBytes: number, drops: number}>}
 */
function parseUdpSockets(text, pids) {
  const out = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const owner = /users:\(\(.*?pid=(\d+)/.exec(lines[i]);
    if (!owner || !pids.has(Number(owner[1]))) continue;
    // The skmem part is on the same line or the next, as ss wraps.
    const mem = /skmem:\(([^)]*)\)/.exec(lines[i]) || /skmem:\(([^)]*)\)/.exec(lines[i + 1] || '');
    if (!mem) continue;
    const field = (name) => {
      const m = new RegExp(`(?:^|,)${name}(\\d+)`).exec(mem[1]);
      return m ? Number(m[1]) : null;
    };
    const cols = lines[i].trim().split(/\s+/);
    out.push({ pid: Number(owner[1]), local: cols[3] || '', receiveBufferBytes: field('rb'), drops: field('d') ?? 0 });
  }
  return out;
}

/** rootPid and every process below it (Chromium's network service is a child of the browser). */
function processTree(rootPid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // Fields after the command name (which may hold spaces and parentheses): state, ppid, ...
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(entry));
  }
  const tree = new Set([rootPid]);
  const queue = [rootPid];
  while (queue.length) for (const c of children.get(queue.shift()) || []) if (!tree.has(c)) { tree.add(c); queue.push(c); }
  return tree;
}

/**
 * The UDP sockets of Chromium's process tree now.
 * @param {number} chromiumPid  the browser's main process (runPlayback's onPlaying gives it)
 * @param {string|null} [netns]  the namespace Chromium runs in (null: the host's)
 */
function chromiumUdpSockets(chromiumPid, netns = null) {
  const cmd = netns ? ['ip', ['netns', 'exec', netns, 'ss', '-uampH']] : ['ss', ['-uampH']];
  return parseUdpSockets(execFileSync(cmd[0], cmd[1], { encoding: 'utf8', timeout: 5000 }), processTree(chromiumPid));
}

module.exports = { chromiumUdpSockets, parseUdpSockets, processTree };
