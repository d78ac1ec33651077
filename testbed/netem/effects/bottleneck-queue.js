'use strict';
// One direction's bottleneck: a queue in front of a link that sends at the rate schedule, one
// packet after another (tbf-like). A packet that finds the queue full is dropped (cause
// 'queue'); the queue discipline may drop more as packets reach the head (CoDel).
//
// The queue holds a packet from its arrival until its last bit has left, so its limit counts
// the packet on the wire too (as before disciplines were pluggable). Two rings:
//   sending  packets the link has taken whose last bit is still to leave (finish time, size)
//   waiting  packets the link has not taken yet, only with a discipline that decides at the
//            head: their fate is decided when the link takes them, not when they arrive
// With drop-tail nothing is decided at the head, so a packet's start and finish are known the
// moment it arrives and `waiting` stays empty: no timer, no work per packet beyond arithmetic.
const { PacketRing } = require('../packet-ring');
const { createRateSchedule } = require('../rate-schedule');
const { getDiscipline } = require('./queue-disciplines');

class BottleneckQueue {
  /** @param {object} link  the LinkDirection: settings, counters, dropQueued() */
  constructor(link) {
    this.link = link;
    this.sending = new PacketRing();
    this.waiting = new PacketRing();
    this.linkFreeAt = -Infinity;
    this.disciplineName = null;
    this.configure(null);
  }

  /** After the link's settings changed (null: at creation); `changed` as given to configure. */
  configure(changed) {
    const s = this.link.settings;
    // A stateful schedule (mahimahi's cursor) restarts with its clock.
    if (!changed || changed.rate !== undefined || changed.timeOriginMs !== undefined) this.schedule = createRateSchedule(s.rate);
    if (s.queueDiscipline !== this.disciplineName) {
      this.discipline = getDiscipline(s.queueDiscipline).create(this.link);
      this.disciplineName = s.queueDiscipline;
    }
  }

  /**
   * A packet (pkt.t, pkt.size, pkt.token) reaches the queue. Returns 'queue' when the queue is
   * full, else null with pkt.queued false (pkt.start and pkt.finish are set: it left already,
   * in the model) or true (it waits; depart() decides it).
   */
  arrive(pkt) {
    const s = this.link.settings;
    this.sending.dropWhileTimeAtMost(pkt.t);
    if (s.queueLimitPackets !== null && this.sending.length + this.waiting.length >= s.queueLimitPackets) return 'queue';
    if (s.queueLimitBytes !== null && this.sending.bytes + this.waiting.bytes + pkt.size > s.queueLimitBytes) return 'queue';
    if (!this.discipline.dequeue && !this.waiting.length) {
      this.take(pkt, Math.max(pkt.t, this.linkFreeAt));
      pkt.queued = false;
    } else {
      this.waiting.push(pkt.t, pkt.size, pkt.token);
      pkt.queued = true;
    }
    return null;
  }

  /** When the link takes the next waiting packet (Infinity when none waits). */
  get nextDepartureMs() {
    return this.waiting.length ? Math.max(this.linkFreeAt, this.waiting.firstTime()) : Infinity;
  }

  /**
   * The link takes its next packet, at nextDepartureMs: the discipline may drop some first.
   * Returns true with the packet it sends in pkt (start, finish set), false if none was left.
   */
  depart(pkt) {
    const now = this.nextDepartureMs;
    const d = this.discipline;
    // The head arrived after the link fell free: the link found the queue empty meanwhile.
    if (d.idle && this.waiting.firstTime() > this.linkFreeAt) d.idle();
    const before = this.waiting.length;
    const got = d.dequeue ? d.dequeue(now, this, pkt) : this.shift(pkt);
    if (this.waiting.length === before) throw new Error(`queue discipline "${this.disciplineName}" took no packet from its queue`);
    if (got) this.take(pkt, now);
    return got;
  }

  // The queue as a discipline's dequeue() sees it (RFC 8289's queue_t): shift, bytes, drop.
  shift(pkt) {
    return this.waiting.shift(pkt);
  }

  get bytes() {
    return this.waiting.bytes;
  }

  drop(pkt, cause, now) {
    this.link.dropQueued(pkt, cause, now);
  }

  /** The link starts sending pkt at `start`. */
  take(pkt, start) {
    const s = this.link.settings;
    const c = this.link.counters;
    const origin = s.timeOriginMs;
    const finish = this.schedule.finish(start - origin, pkt.size) + origin;
    this.linkFreeAt = finish;
    this.sending.push(finish, pkt.size, undefined);
    const queueDelay = start - pkt.t;
    c.queueDelayMsTotal += queueDelay;
    if (queueDelay > c.queueDelayMsMax) c.queueDelayMsMax = queueDelay;
    pkt.start = start;
    pkt.finish = finish;
  }
}

module.exports = { BottleneckQueue };
