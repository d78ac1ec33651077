'use strict';
// One direction of the emulated link, as a pure scheduler: packets go in at times, and come
// out at later times, duplicated, corrupted, or not at all, with the cause counted. The relay
// (which moves real packets) asks it what to do and only keeps the timers; this file decides,
// so every effect can be tested without a socket.
//
// Per packet, in netem's order:
//   1. link down (a down interval)          -> dropped, cause 'down'
//   2. random loss                         -> dropped, cause 'loss'
//   3. drop-tail queue full (bytes/packets) -> dropped, cause 'queue'
//   4. serialisation at the rate schedule, behind the packets already queued (tbf-like)
//   5. propagation delay + jitter (uniform in +-jitter); without `jitterReorders` a packet
//      never overtakes the one before it (netem's default since 2015 with rate/jitter)
//   6. reorder: with probability `reorderRate` a packet skips the delay and so overtakes
//      the ones in flight (netem's "reorder" semantics)
//   7. duplicate: a second copy delivered with it; corrupt: one random bit flipped
const { createRateSchedule } = require('./rate-schedule');
const { createRng } = require('./rng');

const DEFAULTS = Object.freeze({
  delayMs: 0,
  jitterMs: 0,
  jitterReorders: false,
  lossRate: 0,
  duplicateRate: 0,
  corruptRate: 0,
  reorderRate: 0,
  rate: null,
  queueLimitBytes: null,
  queueLimitPackets: null,
  downIntervals: [],
  // Where the scenario's clock starts, on the caller's clock (ms): down intervals and rate
  // schedules (square wave phase, step and mahimahi traces) count from here, so a schedule
  // can start with a playback rather than with the relay.
  timeOriginMs: 0,
  seed: 1,
});

function checkProbability(name, p) {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`${name} must be a probability in [0, 1], got ${p}`);
}

function validate(c) {
  for (const k of Object.keys(c)) if (!(k in DEFAULTS)) throw new Error(`unknown link setting "${k}" (known: ${Object.keys(DEFAULTS).join(', ')})`);
  for (const k of ['lossRate', 'duplicateRate', 'corruptRate', 'reorderRate']) checkProbability(k, c[k]);
  if (!Number.isFinite(c.timeOriginMs)) throw new RangeError(`timeOriginMs must be a number of ms, got ${c.timeOriginMs}`);
  for (const k of ['delayMs', 'jitterMs']) if (!(c[k] >= 0)) throw new RangeError(`${k} must be >= 0 ms, got ${c[k]}`);
  for (const k of ['queueLimitBytes', 'queueLimitPackets']) {
    if (c[k] !== null && !(Number.isInteger(c[k]) && c[k] > 0)) throw new RangeError(`${k} must be a positive whole number or null, got ${c[k]}`);
  }
  for (const iv of c.downIntervals) {
    if (!(iv.fromMs >= 0 && iv.toMs > iv.fromMs)) throw new RangeError(`down interval ${JSON.stringify(iv)} must have 0 <= fromMs < toMs`);
  }
}

class LinkDirection {
  /** @param {object} settings  see DEFAULTS; `rate` is a rate-schedule spec (bits/s or {kind, ...}) */
  constructor(settings = {}) {
    this.counters = {
      packetsIn: 0, bytesIn: 0, packetsOut: 0, bytesOut: 0,
      drops: { down: 0, loss: 0, queue: 0 }, duplicated: 0, corrupted: 0, reordered: 0,
      queueDelayMsTotal: 0, queueDelayMsMax: 0,
    };
    this.inQueue = []; // {finish, size} admitted and not yet fully transmitted
    this.linkFreeAt = -Infinity;
    this.lastDelivery = -Infinity;
    this.configure(settings);
  }

  /** Settings can change while running (a scenario's schedule); counters and queue stay. */
  configure(settings) {
    const merged = { ...DEFAULTS, ...(this.settings || {}), ...settings };
    validate(merged);
    // A stateful schedule (mahimahi's cursor) restarts with its clock.
    const rateChanged = !this.settings || settings.rate !== undefined || settings.timeOriginMs !== undefined;
    this.settings = merged;
    if (rateChanged) this.schedule = createRateSchedule(merged.rate);
    if (!this.rng || settings.seed !== undefined) this.rng = createRng(merged.seed);
  }

  /** t on the caller's clock; intervals count from timeOriginMs. */
  isDown(t) {
    const local = t - this.settings.timeOriginMs;
    return this.settings.downIntervals.some((iv) => local >= iv.fromMs && local < iv.toMs);
  }

  /**
   * A packet of `size` bytes arrives at time t (ms).
   * @returns {{dropped: null|'down'|'loss'|'queue', deliveries: {atMs: number, duplicate: boolean, corruptBit: number|null}[]}}
   */
  send(t, size) {
    const s = this.settings;
    const c = this.counters;
    c.packetsIn += 1;
    c.bytesIn += size;
    const drop = (cause) => {
      c.drops[cause] += 1;
      return { dropped: cause, deliveries: [] };
    };
    if (this.isDown(t)) return drop('down');
    if (s.lossRate > 0 && this.rng() < s.lossRate) return drop('loss');

    this.inQueue = this.inQueue.filter((p) => p.finish > t);
    if (s.queueLimitPackets !== null && this.inQueue.length >= s.queueLimitPackets) return drop('queue');
    if (s.queueLimitBytes !== null && this.inQueue.reduce((a, p) => a + p.size, 0) + size > s.queueLimitBytes) return drop('queue');

    const start = Math.max(t, this.linkFreeAt);
    const origin = s.timeOriginMs;
    const finish = this.schedule.finish(start - origin, size) + origin;
    this.linkFreeAt = finish;
    this.inQueue.push({ finish, size });
    const queueDelay = start - t;
    c.queueDelayMsTotal += queueDelay;
    c.queueDelayMsMax = Math.max(c.queueDelayMsMax, queueDelay);

    let at;
    if (s.reorderRate > 0 && this.rng() < s.reorderRate) {
      at = finish; // skips the delay: overtakes what is in flight
      c.reordered += 1;
    } else {
      const jitter = s.jitterMs > 0 ? (this.rng() * 2 - 1) * s.jitterMs : 0;
      at = finish + Math.max(0, s.delayMs + jitter);
      if (!s.jitterReorders) at = Math.max(at, this.lastDelivery);
      this.lastDelivery = Math.max(this.lastDelivery, at);
    }
    const corruptBit = s.corruptRate > 0 && this.rng() < s.corruptRate ? Math.floor(this.rng() * size * 8) : null;
    if (corruptBit !== null) c.corrupted += 1;
    const deliveries = [{ atMs: at, duplicate: false, corruptBit }];
    if (s.duplicateRate > 0 && this.rng() < s.duplicateRate) {
      deliveries.push({ atMs: at, duplicate: true, corruptBit: null });
      c.duplicated += 1;
    }
    // Counted when scheduled: every scheduled delivery happens (only drops are decided here).
    c.packetsOut += deliveries.length;
    c.bytesOut += size * deliveries.length;
    return { dropped: null, deliveries };
  }
}

module.exports = { LinkDirection, DEFAULTS };
