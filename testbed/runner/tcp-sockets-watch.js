'use strict';
// The origin's TCP connections during a playback, as the kernel counts them (`ss -tin` in the
// server namespace, every 2 s, every 0.5 s on several paths): per connection, and for Multipath
// TCP per subflow, the last figures seen before it closed. A playback's record then says how
// many connections carried it, how many segments they retransmitted (paper 004 compares TCP
// variants by retransmissions) and which path each subflow took; on several paths also each
// subflow's bytes sent over time, the progress of its sequence numbers (paper 004 Figs. 9-10).
// A connection that opened and closed between two samples is not seen; the record counts what
// was.
const { execFile } = require('node:child_process');
const { parseSsTcpInfo, byPath, pathIndexOf } = require('../netem/tcp-subflows');
const { labNowMs } = require('./lab-clock');

const EVERY_MS = 2000;
const MULTIPATH_EVERY_MS = 500;

/** Which path a socket is on (1-based), or null. */
function pathOf(socket, paths) {
  const k = pathIndexOf(socket, paths);
  return k < 0 ? null : k + 1;
}

/**
 * @param {string} ns  the server namespace
 * @param {object} [o]
 * @param {boolean} [o.multipath]  sample more often and keep each socket's bytes over time
 * @param {() => number} [o.now]   a clock in ms (default lab-clock.js's: the wall clock can step)
 * @returns {{stop: (paths?: object[]) => object|null}}  stop(paths): the summary (paths: the
 *   link's, to split by path); null when stopped before any sample
 */
function watchTcpSockets(ns, { multipath = false, now = labNowMs } = {}) {
  const seen = new Map(); // "local peer" -> last figures
  const series = new Map(); // "local peer" -> [[ms since the start, bytes sent], ...] (multipath)
  const startMs = now();
  let stopped = false;
  let samples = 0;
  const sample = () => {
    execFile('ip', ['netns', 'exec', ns, 'ss', '-tin'], { encoding: 'utf8' }, (err, out) => {
      if (err || stopped) return;
      samples += 1;
      const t = now() - startMs;
      for (const s of parseSsTcpInfo(out)) {
        if (s.bytesSent === null) continue;
        const key = `${s.local} ${s.peer}`;
        seen.set(key, s);
        if (multipath) {
          if (!series.has(key)) series.set(key, []);
          series.get(key).push([t, s.bytesSent]);
        }
      }
    });
  };
  sample();
  const timer = setInterval(sample, multipath ? MULTIPATH_EVERY_MS : EVERY_MS);
  let summary = null;
  return {
    stop(paths = null) {
      if (stopped) return summary;
      stopped = true;
      clearInterval(timer);
      const sockets = [...seen.values()];
      summary = {
        samples,
        connections: sockets.length,
        bytesSent: sockets.reduce((a, s) => a + s.bytesSent, 0),
        bytesRetrans: sockets.reduce((a, s) => a + s.bytesRetrans, 0),
        retransSegs: sockets.reduce((a, s) => a + s.retransSegs, 0),
        congestionControls: [...new Set(sockets.map((s) => s.cc).filter(Boolean))],
        ...(paths && paths.length > 1 ? { byPath: byPath(sockets, paths).map((p) => ({ ...p, path: p.path + 1 })) } : {}),
        ...(multipath ? {
          subflowSeries: [...series.entries()].map(([key, points]) => ({ local: seen.get(key).local, peer: seen.get(key).peer, path: paths ? pathOf(seen.get(key), paths) : null, points })),
        } : {}),
      };
      return summary;
    },
  };
}

module.exports = { watchTcpSockets };
