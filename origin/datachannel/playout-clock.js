'use strict';
// The client's playout time as the origin can know it: wall time less the time the client's
// player has stalled, from the STALL frames it sends (shared/fdsp/frames.js). Paper 000 moves
// every later deadline by a stall's length; an origin that expired unreliable chunks on the
// wall clock dropped chunks the player would still have taken in time: in one paper000-fdsp
// playback (BP 75, RTT 50 ms, 2026-11-26) a 4.6 s stall just after a segment's request lost
// 2,230 of its 4,844 chunks; with the stall reported (5.1 s), 742. Deadlines given in
// this clock's time move with the stalls the origin hears of (one one-way delay late, at each
// end of a stall: the two errors cancel over a whole stall).

class PlayoutClock {
  /** @param {() => number} [now]  wall time in ms */
  constructor(now = () => performance.now()) {
    this.wall = now;
    this.stalledMs = 0;
    this.since = null; // wall time the stall in progress began, or null
  }

  /** The client says it began (true) or stopped (false) stalling; a repeat changes nothing. */
  setStalled(stalled) {
    const t = this.wall();
    if (stalled && this.since === null) this.since = t;
    else if (!stalled && this.since !== null) {
      this.stalledMs += Math.max(0, t - this.since);
      this.since = null;
    }
  }

  /** Ms the client has stalled so far, the stall in progress included. */
  stalledMsAt() {
    return this.stalledMs + (this.since === null ? 0 : Math.max(0, this.wall() - this.since));
  }

  /** Playout time in ms: stands still while the client stalls. */
  now() {
    return this.wall() - this.stalledMsAt();
  }
}

module.exports = { PlayoutClock };
