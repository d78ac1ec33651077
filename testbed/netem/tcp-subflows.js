'use strict';
// What the kernel says about a namespace's TCP sockets (`ss -tin`): per connection (for
// Multipath TCP, per subflow: each is a TCP socket of its own) its addresses, congestion
// control, bytes sent and retransmitted, retransmitted segments, cwnd and RTT. The runner
// takes it at the end of a playback to give retransmissions per connection and per path
// (paper 004 counts retransmissions per variant). parseSsTcpInfo is pure.
const { execFileSync } = require('node:child_process');

const STATES = /^(ESTAB|SYN-SENT|SYN-RECV|FIN-WAIT-1|FIN-WAIT-2|TIME-WAIT|CLOSE-WAIT|LAST-ACK|CLOSING|CLOSED|LISTEN|UNCONN)\s/;
const num = (v) => (v === undefined ? null : Number(v));

// ss -ti's option flags, printed before the congestion control when negotiated.
const SS_FLAGS = new Set(['ts', 'sack', 'ecn', 'ecnseen', 'fastopen']);

/**
 * @param {string} text  `ss -tin` output (a header line, then per socket one line of state
 *   and addresses and one indented line of details)
 * @returns {{state, local, peer, cc, bytesSent, bytesRetrans, bytesAcked, retransSegs, cwnd, rttMs}[]}
 */
function parseSsTcpInfo(text) {
  const out = [];
  let current = null;
  for (const line of String(text).split('\n')) {
    if (STATES.test(line)) {
      const f = line.trim().split(/\s+/);
      current = { state: f[0], local: f[3], peer: f[4], cc: null, bytesSent: null, bytesRetrans: 0, bytesAcked: null, retransSegs: 0, cwnd: null, rttMs: null };
      out.push(current);
    } else if (current && /^\s/.test(line) && line.trim()) {
      const tokens = line.trim().split(/\s+/);
      const kv = {};
      for (const t of tokens) {
        const i = t.indexOf(':');
        if (i > 0) kv[t.slice(0, i)] = t.slice(i + 1);
      }
      // The congestion control is the first bare word that is not one of ss's option flags (ss
      // prints "ts sack ecn ecnseen fastopen" as negotiated, then the algorithm).
      current.cc = tokens.find((t) => /^[a-z_0-9]+$/.test(t) && !SS_FLAGS.has(t)) || null;
      current.bytesSent = num(kv.bytes_sent);
      current.bytesRetrans = num(kv.bytes_retrans) ?? 0;
      current.bytesAcked = num(kv.bytes_acked);
      // "retrans:0/12": in flight now / all retransmitted segments.
      current.retransSegs = kv.retrans ? Number(kv.retrans.split('/')[1]) : 0;
      current.cwnd = num(kv.cwnd);
      current.rttMs = kv.rtt ? Number(kv.rtt.split('/')[0]) : null;
      current = null;
    }
  }
  return out;
}

/** The TCP sockets of a namespace now (connections and MPTCP subflows alike). */
function tcpSockets(ns) {
  return parseSsTcpInfo(execFileSync('ip', ['netns', 'exec', ns, 'ss', '-tin'], { encoding: 'utf8' }));
}

const addressOf = (endpoint) => (endpoint ? endpoint.replace(/:\d+$/, '') : null);

/**
 * The path (index into paths) a server-side socket runs on: the one whose client address is
 * its peer. (Every MPTCP subflow goes to the server's path-0 address; the client's address
 * tells the paths apart: testbed/netem/mptcp.js.) -1 when none.
 */
function pathIndexOf(socket, paths) {
  return paths.findIndex((p) => addressOf(socket.peer) === p.clientIp);
}

/** Server-side sockets grouped by path (pathIndexOf). */
function byPath(sockets, paths) {
  return paths.map((p, k) => {
    const mine = sockets.filter((s) => pathIndexOf(s, paths) === k);
    return {
      path: k,
      sockets: mine.length,
      bytesSent: mine.reduce((a, s) => a + (s.bytesSent || 0), 0),
      bytesRetrans: mine.reduce((a, s) => a + (s.bytesRetrans || 0), 0),
      retransSegs: mine.reduce((a, s) => a + (s.retransSegs || 0), 0),
      // What the kernel ran on this path (a path's own congestion control is a route's congctl).
      congestionControls: [...new Set(mine.map((s) => s.cc).filter(Boolean))],
    };
  });
}

module.exports = { parseSsTcpInfo, tcpSockets, byPath, pathIndexOf };
