'use strict';
// How long the player has stalled so far, as one running total: paper 000 moves every later
// playout deadline by a stall's length, and an FDSP response measures the stalls since its
// request as the difference of two readings. A stall runs from the media element's 'waiting'
// to its next 'playing'. Startup and seeks are not stalls here: until the first 'playing', and
// after a seek, the segments have no deadline (fdsp response-assembly.js), so nothing to move.

class StallClock {
  constructor() {
    this.totalMs = 0;
    this.since = null; // when the stall in progress began, or null
    this.started = false;
  }

  waiting(t) {
    if (this.started && this.since === null) this.since = t;
  }

  playing(t) {
    this.started = true;
    if (this.since !== null) this.totalMs += Math.max(0, t - this.since);
    this.since = null;
  }

  /** Stalled ms up to `t`, the stall in progress included. */
  valueAt(t) {
    return this.totalMs + (this.since === null ? 0 : Math.max(0, t - this.since));
  }

  /** What the FDSP core takes: {totalMs, since} (since: the stall in progress began, or null). */
  stateAt(t) {
    return { totalMs: this.valueAt(t), since: this.since };
  }
}

/**
 * A StallClock fed by a media element's events.
 * @returns {{state: () => {totalMs: number, since: number|null}, dispose: () => void}}
 */
function watchStalls(video, now = () => performance.now()) {
  const clock = new StallClock();
  const on = { waiting: () => clock.waiting(now()), playing: () => clock.playing(now()) };
  for (const [name, fn] of Object.entries(on)) video.addEventListener(name, fn);
  return {
    state: () => clock.stateAt(now()),
    dispose: () => { for (const [name, fn] of Object.entries(on)) video.removeEventListener(name, fn); },
  };
}

module.exports = { StallClock, watchStalls };
