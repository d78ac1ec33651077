'use strict';
// One direction of the emulated link, as a pure scheduler: packets go in at times, and come
// out at later times, duplicated, corrupted, or not at all, with the cause counted. The relay
// (which moves real packets) asks it what to do and only keeps the timers; this file decides,
// so every effect can be tested without a socket.
//
// The effects are stages, one file each, in the fixed order of ./effects/index.js (link down,
// random loss, the bottleneck's queue and rate, reorder, delay and jitter, corrupt,
// duplicate). This file only runs them: the stages before the bottleneck as a packet arrives,
// the ones after it as the packet leaves the queue.
//
// Most packets are decided the moment they arrive (send() returns the verdict). With a queue
// discipline that decides as the link takes each packet (CoDel), a packet that has to wait is
// decided later: send() returns null and the verdict goes to onQueuedVerdict when the link
// takes it. The caller then calls departUntil(t) at nextDecisionMs (send() does it for every
// arrival too).
const { listEffects } = require('./effects');
const { createRng } = require('./rng');

// Settings of the link itself, not of one effect.
const LINK_SETTINGS = Object.freeze({
  // Where the scenario's clock starts, on the caller's clock (ms): down intervals and rate
  // schedules (square wave phase, step and mahimahi traces) count from here, so a schedule
  // can start with a playback rather than with the relay.
  timeOriginMs: 0,
  seed: 1,
});

const NO_DELIVERIES = Object.freeze([]);

class LinkDirection {
  /** @param {object} settings  LINK_SETTINGS and the effects' settings (unknown keys refused) */
  constructor(settings = {}) {
    this.effects = listEffects();
    this.defaults = Object.assign({}, LINK_SETTINGS, ...this.effects.map((e) => e.settings));
    this.counters = { packetsIn: 0, bytesIn: 0, packetsOut: 0, bytesOut: 0, drops: {} };
    this.dropped = {}; // one frozen verdict per drop cause: a drop allocates nothing
    for (const e of this.effects) {
      for (const cause of e.drops) {
        this.counters.drops[cause] = 0;
        this.dropped[cause] = Object.freeze({ dropped: cause, deliveries: NO_DELIVERIES });
      }
      Object.assign(this.counters, e.counters);
    }
    // The one packet being decided; reused, so a packet costs no allocation for its state.
    this.pkt = { t: 0, size: 0, token: undefined, queued: false, start: 0, finish: 0, atMs: 0, skipDelay: false, corruptBit: null, copies: 1 };
    /** (token, verdict, atMs) for each packet decided after send() returned null */
    this.onQueuedVerdict = null;
    this.configure(settings);
  }

  /** Settings can change while running (a scenario's schedule); counters and queue stay. */
  configure(settings = {}) {
    const merged = { ...this.defaults, ...(this.settings || {}), ...settings };
    this.check(merged);
    const first = !this.settings;
    this.settings = merged;
    if (!this.rng || settings.seed !== undefined) this.rng = createRng(merged.seed);
    if (first) {
      const stages = this.effects.map((e) => e.create(this));
      const q = this.effects.findIndex((e) => e.queue);
      this.queue = stages[q];
      this.onArrival = stages.slice(0, q);
      this.onDeparture = stages.slice(q + 1);
      this.stages = stages;
    } else {
      for (const stage of this.stages) if (stage.configure) stage.configure(settings);
    }
  }

  check(s) {
    for (const k of Object.keys(s)) if (!(k in this.defaults)) throw new Error(`unknown link setting "${k}" (known: ${Object.keys(this.defaults).join(', ')})`);
    if (!Number.isFinite(s.timeOriginMs)) throw new RangeError(`timeOriginMs must be a number of ms, got ${s.timeOriginMs}`);
    for (const e of this.effects) e.check(s);
  }

  /**
   * A packet of `size` bytes arrives at time t (ms); `token` is what the caller gets back
   * with a later verdict (the packet's bytes, for the relay).
   * @returns {{dropped: null|string, deliveries: {atMs: number, duplicate: boolean, corruptBit: number|null}[]}|null}
   *   null: it waits in a queue that decides later (onQueuedVerdict gets its verdict)
   */
  send(t, size, token) {
    const c = this.counters;
    c.packetsIn += 1;
    c.bytesIn += size;
    const q = this.queue;
    if (q.waiting.length) this.departUntil(t); // what the link took before t comes first
    const pkt = this.pkt;
    pkt.t = t;
    pkt.size = size;
    pkt.token = token;
    for (let i = 0; i < this.onArrival.length; i += 1) {
      const cause = this.onArrival[i].step(pkt);
      if (cause) return this.drop(cause);
    }
    const full = q.arrive(pkt);
    if (full) return this.drop(full);
    if (!pkt.queued) return this.leave(pkt);
    this.departUntil(t); // an idle link takes it at once
    return null;
  }

  /** When a waiting packet is next decided (Infinity: none waits). */
  get nextDecisionMs() {
    return this.queue.nextDepartureMs;
  }

  /** Decides, in order, the waiting packets the link takes by time t. */
  departUntil(t) {
    const q = this.queue;
    const pkt = this.pkt;
    while (q.nextDepartureMs <= t) {
      const at = q.nextDepartureMs;
      if (q.depart(pkt)) this.report(pkt.token, this.leave(pkt), at);
    }
  }

  /** A waiting packet the queue discipline dropped at `at`. */
  dropQueued(pkt, cause, at) {
    this.report(pkt.token, this.drop(cause), at);
  }

  report(token, verdict, at) {
    if (!this.onQueuedVerdict) throw new Error(`queue discipline "${this.settings.queueDiscipline}" decides packets after they arrive: set onQueuedVerdict to receive them`);
    this.onQueuedVerdict(token, verdict, at);
  }

  drop(cause) {
    if (!(cause in this.counters.drops)) throw new Error(`a network effect dropped a packet for "${cause}", which no effect declares in its drops`);
    this.counters.drops[cause] += 1;
    return this.dropped[cause];
  }

  /** The packet left the queue (pkt.finish): the remaining stages, then its deliveries. */
  leave(pkt) {
    pkt.atMs = pkt.finish;
    pkt.skipDelay = false;
    pkt.corruptBit = null;
    pkt.copies = 1;
    for (let i = 0; i < this.onDeparture.length; i += 1) {
      const cause = this.onDeparture[i].step(pkt);
      if (cause) return this.drop(cause);
    }
    const deliveries = [{ atMs: pkt.atMs, duplicate: false, corruptBit: pkt.corruptBit }];
    for (let k = 1; k < pkt.copies; k += 1) deliveries.push({ atMs: pkt.atMs, duplicate: true, corruptBit: null });
    // Counted when scheduled: every scheduled delivery happens (only drops are decided here).
    const c = this.counters;
    c.packetsOut += deliveries.length;
    c.bytesOut += pkt.size * deliveries.length;
    return { dropped: null, deliveries };
  }
}

module.exports = { LinkDirection, LINK_SETTINGS };
