'use strict';
// The one timer an FDSP client adapter keeps for its core (client-core.js is pure and only
// says when it next wants to be looked at: nextWakeAt()). Works in the browser and in Node.
//
// A timer armed for an earlier time than needed is kept: it fires, the core finds nothing
// due yet, and the adapter arms again. So the hundreds of chunks a second that each push
// END's grace a little further cost no clearTimeout/setTimeout pair apiece. Node's timers
// can fire up to a millisecond before performance.now() reaches their time; the same
// re-arming covers that.

// setTimeout's limit (a longer delay fires at once); a later wake re-arms when this one fires.
const MAX_DELAY_MS = 2 ** 31 - 1;

class WakeTimer {
  /**
   * @param {() => void} onWake        called when the armed time has come
   * @param {() => number} [clock]     the clock the armed times are on
   */
  constructor(onWake, clock = () => performance.now()) {
    this.onWake = onWake;
    this.clock = clock;
    this.timer = null;
    this.armedAt = null;
  }

  /** @param {number|null} at  when to wake (on the clock), or null: nothing to wait for */
  arm(at) {
    if (at === null) return this.stop();
    if (this.timer !== null && this.armedAt <= at) return undefined;
    this.stop();
    this.armedAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.armedAt = null;
      this.onWake();
    }, Math.min(MAX_DELAY_MS, Math.max(0, Math.ceil(at - this.clock()))));
    return undefined;
  }

  stop() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.armedAt = null;
  }
}

module.exports = { WakeTimer };
