'use strict';
// How long the player has stalled so far, as one running total: paper 000 moves every later
// playout deadline by a stall's length, and an FDSP response measures the stalls since its
// request as the difference of two readings. A stall runs from the media element's 'waiting'
// to its next 'playing' (a seek's wait included). Startup is not: until the first 'playing' there
// is nothing to move. A segment requested while stalled or seeking has no deadline and counts
// its fragments from its reliable part's arrival (fdsp response-assembly.js), so only stalls after
// that move them.

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
 * @param {HTMLMediaElement} video
 * @param {{onChange?: () => void, now?: () => number}} [o]  onChange: a stall began or ended (the
 *   FDSP transport looks at its fragments at once: the one the player waits for goes now)
 * @returns {{state: () => {totalMs: number, since: number|null}, dispose: () => void}}
 */
function watchStalls(video, { onChange = () => {}, now = () => performance.now() } = {}) {
  const clock = new StallClock();
  const on = {
    waiting: () => { clock.waiting(now()); onChange(); },
    playing: () => { clock.playing(now()); onChange(); },
  };
  for (const [name, fn] of Object.entries(on)) video.addEventListener(name, fn);
  return {
    state: () => clock.stateAt(now()),
    dispose: () => { for (const [name, fn] of Object.entries(on)) video.removeEventListener(name, fn); },
  };
}

module.exports = { StallClock, watchStalls };
