'use strict';
// CoDel, "Controlled Delay" (RFC 8289; mahimahi ships it as --downlink-queue=codel): the queue
// watches how long each packet waited (its sojourn time) as the link takes it. Once every
// packet has waited at least `target` for a whole `interval`, it drops the packet at the head,
// then the next ones at interval / sqrt(count) apart, until a packet waits less than `target`
// again. A loss-based TCP halves its window at each drop, so the queue, and the delay a video
// flow sees behind a bottleneck, stays near `target` instead of filling the buffer (drop-tail).
//
// dequeue() below is RFC 8289 section 5's pseudocode, line for line, with Linux's choice where
// the RFC notes one (the drop count resumes if the queue was under control only briefly).
// MAXPACKET is the link's MTU: a queue holding one packet or less is never "above target".
const { MTU } = require('../../rate-schedule');

const DEFAULTS = { codelTargetMs: 5, codelIntervalMs: 100 };

/** RFC 8289: the time of the next drop, count drops into a dropping state. */
function controlLaw(t, count, intervalMs) {
  return t + intervalMs / Math.sqrt(count);
}

class Codel {
  constructor(link) {
    this.link = link;
    this.firstAboveTime = 0; // 0: sojourn below target (or too few bytes) at the last dequeue
    this.dropNext = 0;
    this.count = 0;
    this.lastCount = 0;
    this.dropping = false;
    this.okToDrop = false; // dodequeue()'s second result
  }

  /** RFC 8289 dodequeue(): takes the head packet into pkt; false when the queue is empty. */
  doDequeue(now, queue, pkt) {
    this.okToDrop = false;
    if (!queue.shift(pkt)) {
      this.firstAboveTime = 0; // an empty queue cannot be above target
      return false;
    }
    const { codelTargetMs, codelIntervalMs } = this.link.settings;
    const sojourn = now - pkt.t;
    if (sojourn < codelTargetMs || queue.bytes <= MTU) {
      this.firstAboveTime = 0;
    } else if (this.firstAboveTime === 0) {
      this.firstAboveTime = now + codelIntervalMs;
    } else if (now >= this.firstAboveTime) {
      this.okToDrop = true;
    }
    return true;
  }

  /**
   * RFC 8289 dequeue(), at the moment the link takes its next packet: drops what the control
   * law says (queue.drop) and returns true with the packet to send in pkt, or false when the
   * queue ran empty.
   */
  dequeue(now, queue, pkt) {
    const interval = this.link.settings.codelIntervalMs;
    let got = this.doDequeue(now, queue, pkt);
    if (!got) {
      this.dropping = false; // an empty queue ends a dropping state
      return false;
    }
    if (this.dropping) {
      if (!this.okToDrop) this.dropping = false; // sojourn below target: leave dropping state
      // A large backlog can make the next drop due already, hence the loop.
      while (now >= this.dropNext && this.dropping) {
        queue.drop(pkt, 'codel', now);
        this.count += 1;
        got = this.doDequeue(now, queue, pkt);
        if (!this.okToDrop) this.dropping = false;
        else this.dropNext = controlLaw(this.dropNext, this.count, interval);
      }
    } else if (this.okToDrop) {
      // Above target for a whole interval: drop, and enter dropping state.
      queue.drop(pkt, 'codel', now);
      got = this.doDequeue(now, queue, pkt);
      this.dropping = true;
      // Dropping resumed soon after it stopped: start from the drop rate that controlled the
      // queue last time (Linux's version, which the RFC follows).
      const delta = this.count - this.lastCount;
      this.count = 1;
      if (delta > 1 && now - this.dropNext < 16 * interval) this.count = delta;
      this.dropNext = controlLaw(now, this.count, interval);
      this.lastCount = this.count;
    }
    return got;
  }

  /** The link asked for a packet and found the queue empty (RFC 8289 dequeue() on NULL). */
  idle() {
    this.firstAboveTime = 0;
    this.dropping = false;
  }
}

module.exports = {
  name: 'codel',
  settings: DEFAULTS,
  check(s) {
    for (const k of Object.keys(DEFAULTS)) if (!(s[k] > 0)) throw new RangeError(`${k} must be > 0 ms, got ${s[k]}`);
  },
  drops: ['codel'],
  create: (link) => new Codel(link),
  profile: {
    keys: Object.keys(DEFAULTS),
    validate(v) {
      for (const k of Object.keys(DEFAULTS)) v.number(k, { exclusiveMin: true });
    },
    describe: (p) => [`target ${p.codelTargetMs ?? DEFAULTS.codelTargetMs} ms`, `interval ${p.codelIntervalMs ?? DEFAULTS.codelIntervalMs} ms`],
  },
};
