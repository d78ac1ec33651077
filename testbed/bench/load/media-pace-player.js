'use strict';
// One simulated player on any connection (HTTP/1.1, h2, DataChannel): the MPD, the init
// segment, a startup burst of segments back to back to fill its buffer, then one segment per
// segment duration (media pace), as a player at a steady buffer level fetches. At the end of
// the content it starts over (MPD, init, burst), until its time is up. Every request's TTFB
// and total time go to `record`; a segment that arrives after the moment it would have been
// played counts as late (a stall a viewer would see), and playback waits for it.
const { setTimeout: sleep } = require('node:timers/promises');

const STARTUP_SEGMENTS = 3;
const REQUEST_TIMEOUT_MS = 30000;
// After a failed request: not a tight retry loop against a failing origin.
const ERROR_BACKOFF_MS = 1000;

/**
 * @param {object} o
 * @param {string} o.protocol
 * @param {{fetch: Function, close: Function}} o.connection
 * @param {string} o.mpdPath
 * @param {{initPath: string, segments: {path: string, seconds: number}[]}} o.rung
 * @param {number} o.startAt     performance.now() time of the first request
 * @param {number} o.until       performance.now() time after which no request starts
 * @param {AbortSignal} o.signal ends the waits at once (Ctrl-C)
 * @param {(r: object) => void} o.record  a request: {protocol, kind, startedAt, status?, bytes?, ttfbMs?, totalMs?, error?, lostChunks?}
 * @param {(s: object) => void} o.stall   a segment late for its playout: {protocol, at, ms}
 */
async function runMediaPacePlayer(o) {
  const waitUntil = async (t) => {
    const ms = Math.min(t, o.until) - performance.now();
    if (ms > 0) await sleep(ms, undefined, { signal: o.signal }).catch(() => {});
  };
  const running = () => performance.now() < o.until && !o.signal.aborted;

  /** One request; resolves to true when it succeeded. */
  const request = async (kind, path) => {
    const startedAt = performance.now();
    try {
      const r = await o.connection.fetch(path, { timeoutMs: REQUEST_TIMEOUT_MS });
      const ok = r.status === 200;
      o.record({ protocol: o.protocol, kind, startedAt, status: r.status, bytes: r.bytes, ttfbMs: r.ttfbMs, totalMs: r.totalMs, lostChunks: r.lostChunks, error: ok ? undefined : `HTTP status ${r.status}` });
      if (ok) return true;
    } catch (err) {
      o.record({ protocol: o.protocol, kind, startedAt, error: err.message });
    }
    await waitUntil(performance.now() + ERROR_BACKOFF_MS);
    return false;
  };

  await waitUntil(o.startAt);
  const segments = o.rung.segments;
  while (running()) {
    await request('mpd', o.mpdPath);
    if (!running()) break;
    await request('init', o.rung.initPath);
    let playStart = null; // when playback began: after the startup burst
    let stallMs = 0;
    let mediaMs = 0; // media time before segment k
    for (let k = 0; k < segments.length && running(); k += 1) {
      if (playStart !== null) {
        // Request segment k while (STARTUP_SEGMENTS - 1) segments are still buffered ahead of it.
        const aheadMs = segments.slice(Math.max(0, k - STARTUP_SEGMENTS + 1), k).reduce((a, s) => a + s.seconds * 1000, 0);
        await waitUntil(playStart + stallMs + mediaMs - aheadMs);
        if (!running()) break;
      }
      const ok = await request('segment', segments[k].path);
      const arrived = performance.now();
      if (playStart === null) {
        // Playback of media time 0 starts once the startup burst is in.
        if (k === Math.min(STARTUP_SEGMENTS, segments.length) - 1) playStart = arrived;
      } else {
        const due = playStart + stallMs + mediaMs;
        if (!ok || arrived > due) {
          // Playback waited for it (for a failed segment, at least until the failure).
          const waitedMs = Math.max(0, arrived - due);
          stallMs += waitedMs;
          o.stall({ protocol: o.protocol, at: due, ms: waitedMs });
        }
      }
      mediaMs += segments[k].seconds * 1000;
    }
    // The next round starts when the next segment would have been requested: a steady pace.
    if (playStart !== null) {
      const aheadMs = segments.slice(Math.max(0, segments.length - STARTUP_SEGMENTS + 1)).reduce((a, s) => a + s.seconds * 1000, 0);
      await waitUntil(playStart + stallMs + mediaMs - aheadMs);
    }
  }
}

module.exports = { runMediaPacePlayer, STARTUP_SEGMENTS, REQUEST_TIMEOUT_MS };
