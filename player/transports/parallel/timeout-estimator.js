'use strict';
// The parallel transport's transfer timeout (paper 001 §IV-A, "timeout management"): a chunk
// not in within the timeout counts as stalled and is fetched again on another stream.
//
// The timeout starts at 2000 ms; after that it is the mean of the last 20 transfer durations
// plus 30 %, kept within [1000, 3000] ms (the paper's figures, all options here). A transfer
// that expires enters the mean at once, with a penalty, so a run of stalls raises the timeout
// before any of them finishes. The paper does not give its penalty; the lab's: an expired
// transfer counts as 1.5 x the timeout it ran out of (it took at least that long, and a stall
// usually lasts much longer; at the 3000 ms bound the mean then climbs towards 4500 ms and
// the timeout stays at the bound until transfers are fast again). Its real duration, should
// it still arrive, is not counted again.
//
// Pure: durations are passed in, no clock.

const DEFAULTS = Object.freeze({
  initialMs: 2000,
  minMs: 1000,
  maxMs: 3000,
  window: 20,
  tolerance: 0.3,
  expiredPenalty: 1.5,
});

class TimeoutEstimator {
  /** @param {Partial<typeof DEFAULTS>} [options] */
  constructor(options = {}) {
    const o = { ...DEFAULTS, ...options };
    for (const key of ['initialMs', 'minMs', 'maxMs']) {
      if (!(Number.isFinite(o[key]) && o[key] > 0)) throw new RangeError(`timeout estimator: ${key} must be a number of ms > 0, got ${o[key]}`);
    }
    if (!(o.minMs <= o.maxMs)) throw new RangeError(`timeout estimator: minMs (${o.minMs}) must be <= maxMs (${o.maxMs})`);
    if (!(Number.isInteger(o.window) && o.window >= 1)) throw new RangeError(`timeout estimator: window must be a whole number >= 1, got ${o.window}`);
    if (!(o.tolerance >= 0)) throw new RangeError(`timeout estimator: tolerance must be >= 0, got ${o.tolerance}`);
    if (!(o.expiredPenalty >= 1)) throw new RangeError(`timeout estimator: expiredPenalty must be >= 1, got ${o.expiredPenalty}`);
    this.o = o;
    this.samples = [];
  }

  /** The timeout for a transfer starting now, in ms. */
  currentMs() {
    if (!this.samples.length) return Math.min(Math.max(this.o.initialMs, this.o.minMs), this.o.maxMs);
    const mean = this.samples.reduce((a, b) => a + b, 0) / this.samples.length;
    return Math.min(Math.max(mean * (1 + this.o.tolerance), this.o.minMs), this.o.maxMs);
  }

  /** A transfer finished in durationMs. */
  recordTransfer(durationMs) {
    if (!(durationMs >= 0)) throw new RangeError(`timeout estimator: a duration must be >= 0 ms, got ${durationMs}`);
    this.push(durationMs);
  }

  /** A transfer ran out of its timeout (timeoutMs: the one it had). */
  recordExpired(timeoutMs) {
    if (!(timeoutMs > 0)) throw new RangeError(`timeout estimator: an expired transfer's timeout must be > 0 ms, got ${timeoutMs}`);
    this.push(timeoutMs * this.o.expiredPenalty);
  }

  push(ms) {
    this.samples.push(ms);
    if (this.samples.length > this.o.window) this.samples.shift();
  }
}

module.exports = { TimeoutEstimator, TIMEOUT_DEFAULTS: DEFAULTS };
