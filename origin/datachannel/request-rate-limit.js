'use strict';
// How many REQUEST frames one DataChannel session may send: a token bucket. A player asks for
// an MPD, an init segment and one media segment every few seconds, a few more around a seek
// or a quality switch; 5,000 requests in 5 s from one session (a probe did that) slowed every
// listener of the origin, because each was answered. Past the bucket, requests are refused and
// count as misbehaviour, so a flood ends the session instead of being served.

class RequestRateLimit {
  /**
   * @param {object} [o]
   * @param {number} [o.burst]      requests allowed at once (bucket size), default 64
   * @param {number} [o.perSecond]  sustained requests per second (refill rate), default 32
   * @param {() => number} [o.now]  clock in ms (tests pass their own)
   */
  constructor({ burst = 64, perSecond = 32, now = () => performance.now() } = {}) {
    this.burst = burst;
    this.perSecond = perSecond;
    this.now = now;
    this.tokens = burst;
    this.last = now();
  }

  /** True when one more request may go ahead now (and counts it). */
  take() {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

module.exports = { RequestRateLimit };
