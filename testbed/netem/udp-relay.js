'use strict';
// Moves real packets between the two TUN ends of the emulated link. Each TUN is opened by a
// socat that relays every IP packet as one UDP datagram on loopback (docs/platform-notes.md,
// "Network emulation"); this relay receives them, asks the direction's LinkDirection what
// happens to each (drop, delay, duplicate, corrupt), and sends the survivors on at their time.
// It only keeps the timers: the delivery timers, and with a queue discipline that decides as
// the link takes each packet (CoDel) one more timer per direction for the next such decision.
const dgram = require('node:dgram');
const { LinkDirection } = require('./link-direction');

// How late a delivery may fire before it counts as the emulator falling behind.
const LATE_WARNING_MS = 5;
// Node's timers fire on a whole-millisecond loop clock, 0-1 ms after they are due, and a 0 ms
// timeout waits 1 ms: each relay pass would add ~1 ms, ~4 ms to a handshake's RTT. So a
// delivery may go up to this much early, which centres the error on zero, and a delivery
// already due goes out at once instead of through a timer.
const EARLY_MS = 1;

/** The shortest a round trip through the relay can measure: two deliveries, each up to EARLY_MS early. */
function earliestRoundTripMs(rttMs) {
  return rttMs - 2 * EARLY_MS;
}

/**
 * A copy of an IP packet with one bit flipped, as netem's corrupt does, except in the IP
 * version nibble: a TUN device refuses a packet whose version is not 4 or 6 (EINVAL), socat
 * takes that for a fatal error and exits, and the link is gone. A flip there moves to the
 * header-length nibble next to it, which breaks the header just as surely (the receiving
 * kernel drops the packet, as it would have dropped the bad version).
 */
function corruptPacket(packet, bit) {
  const bytes = Buffer.from(packet);
  const b = bit >> 3 === 0 && (bit & 7) >= 4 ? bit - 4 : bit;
  bytes[b >> 3] ^= 1 << (b & 7);
  return bytes;
}

class TimerQueue {
  constructor(onLate, now = () => performance.now()) {
    this.items = []; // sorted by at
    this.timer = null;
    this.immediate = null;
    this.onLate = onLate;
    this.now = now;
  }

  push(at, fn) {
    // Deliveries mostly arrive in time order: search from the end.
    let i = this.items.length;
    while (i > 0 && this.items[i - 1].at > at) i -= 1;
    if (i === 0 && at <= this.now() + EARLY_MS) {
      fn(); // due now and nothing before it: no timer, no added millisecond
      return;
    }
    this.items.splice(i, 0, { at, fn });
    if (i === 0) this.arm();
  }

  arm() {
    clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    if (!this.items.length) return;
    const wait = this.items[0].at - EARLY_MS - this.now();
    if (wait <= 0) this.immediate = setImmediate(() => this.fire());
    else this.timer = setTimeout(() => this.fire(), wait);
  }

  fire() {
    const now = this.now();
    while (this.items.length && this.items[0].at <= now + EARLY_MS) {
      const item = this.items.shift();
      const late = now - item.at;
      if (late > LATE_WARNING_MS) this.onLate(late);
      item.fn();
    }
    this.arm();
  }

  clear() {
    clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.items = [];
  }
}

class UdpRelay {
  /**
   * @param {object} o
   * @param {number} o.serverSidePort  where the server-side socat sends (relay listens)
   * @param {number} o.serverSocatPort where the server-side socat listens
   * @param {number} o.clientSidePort, o.clientSocatPort  the same for the client side
   * @param {object} o.toClient, o.toServer  LinkDirection settings per direction
   */
  constructor(o) {
    this.o = o;
    this.t0 = performance.now();
    this.directions = { toClient: new LinkDirection(o.toClient || {}), toServer: new LinkDirection(o.toServer || {}) };
    this.late = { count: 0, maxMs: 0 };
    this.queue = new TimerQueue((ms) => {
      this.late.count += 1;
      this.late.maxMs = Math.max(this.late.maxMs, ms);
    });
    this.decisionTimers = { toClient: null, toServer: null };
    // Per client-side IPv4 address, the packets of one traffic source (a competing bulk flow to
    // an address of its own): counted only for the addresses watch() names.
    this.watched = new Map();
  }

  /**
   * Counts, from now on, the packets to (downlink) and from (uplink) these client-side IPv4
   * addresses apart, in counters().byAddress: what a competing flow sent, as the emulator saw it.
   */
  watch(addresses) {
    for (const a of addresses) {
      if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(a)) throw new Error(`watch: "${a}" is not an IPv4 address`);
      if (!this.watched.has(a)) {
        const zero = () => ({ packetsIn: 0, bytesIn: 0, packetsOut: 0, bytesOut: 0 });
        this.watched.set(a, { toClient: zero(), toServer: zero() });
      }
    }
  }

  /** The watched counters of this packet's client-side address, or null. */
  watchedCounters(direction, msg) {
    if (!this.watched.size || msg.length < 20 || msg[0] >> 4 !== 4) return null;
    // The client's address: the destination downlink (bytes 16-19), the source uplink (12-15).
    const at = direction === 'toClient' ? 16 : 12;
    const c = this.watched.get(`${msg[at]}.${msg[at + 1]}.${msg[at + 2]}.${msg[at + 3]}`);
    return c ? c[direction] : null;
  }

  async start() {
    const bind = (port) => new Promise((resolve, reject) => {
      const s = dgram.createSocket({ type: 'udp4', recvBufferSize: 4 << 20, sendBufferSize: 4 << 20 });
      s.once('error', reject);
      s.bind(port, '127.0.0.1', () => {
        s.off('error', reject);
        s.on('error', () => {}); // ICMP unreachable while a socat restarts: not fatal
        resolve(s);
      });
    });
    this.serverSide = await bind(this.o.serverSidePort);
    this.clientSide = await bind(this.o.clientSidePort);
    this.outputs = {
      toClient: { socket: this.clientSide, port: this.o.clientSocatPort },
      toServer: { socket: this.serverSide, port: this.o.serverSocatPort },
    };
    for (const direction of ['toClient', 'toServer']) {
      this.directions[direction].onQueuedVerdict = (msg, verdict) => this.deliver(direction, msg, verdict);
    }
    this.serverSide.on('message', (msg) => this.forward('toClient', msg));
    this.clientSide.on('message', (msg) => this.forward('toServer', msg));
    return this;
  }

  forward(direction, msg) {
    const watched = this.watchedCounters(direction, msg);
    if (watched) {
      watched.packetsIn += 1;
      watched.bytesIn += msg.length;
    }
    const link = this.directions[direction];
    const verdict = link.send(this.now(), msg.length, msg);
    if (verdict) this.deliver(direction, msg, verdict);
    else this.armDecision(direction); // it waits in a queue that decides when the link takes it
  }

  deliver(direction, msg, verdict) {
    const { socket, port } = this.outputs[direction];
    const watched = this.watchedCounters(direction, msg);
    if (watched) {
      watched.packetsOut += verdict.deliveries.length;
      watched.bytesOut += msg.length * verdict.deliveries.length;
    }
    for (const d of verdict.deliveries) {
      let bytes = msg;
      if (d.corruptBit !== null) bytes = corruptPacket(msg, d.corruptBit);
      this.queue.push(d.atMs + this.t0, () => socket.send(bytes, port, '127.0.0.1'));
    }
  }

  /**
   * One timer per direction for the next packet its queue decides as the link takes it. Not
   * early, unlike deliveries: a decision at time T must see every packet that arrived by T.
   * The decision itself is made on the model's clock (at T), so a late timer moves nothing
   * but the real moment the verdict is acted on.
   */
  armDecision(direction) {
    const link = this.directions[direction];
    const at = link.nextDecisionMs;
    if (this.decisionTimers[direction] || at === Infinity) return;
    const decide = () => {
      this.decisionTimers[direction] = null;
      link.departUntil(this.now());
      this.armDecision(direction);
    };
    // A timeout under 1 ms waits 1 ms: a decision already due runs on the next turn instead.
    const wait = at - this.now();
    this.decisionTimers[direction] = wait <= 0 ? { immediate: setImmediate(decide) } : { timeout: setTimeout(decide, wait) };
  }

  /** Milliseconds on the relay's clock (what LinkDirection sees as t). */
  now() {
    return performance.now() - this.t0;
  }

  /**
   * settings.timeOriginMs === 'now' starts the schedules' clock at this moment: the caller
   * cannot know the relay's clock, only when it wants a schedule to begin.
   */
  configure(direction, settings) {
    if (settings && settings.timeOriginMs === 'now') settings = { ...settings, timeOriginMs: this.now() };
    if (direction === 'both' || direction === 'toClient') this.directions.toClient.configure(settings);
    if (direction === 'both' || direction === 'toServer') this.directions.toServer.configure(settings);
  }

  counters() {
    const out = { toClient: this.directions.toClient.counters, toServer: this.directions.toServer.counters, lateTimers: { ...this.late } };
    if (this.watched.size) out.byAddress = Object.fromEntries(this.watched);
    return out;
  }

  close() {
    this.queue.clear();
    for (const t of Object.values(this.decisionTimers)) {
      if (t && t.timeout) clearTimeout(t.timeout);
      if (t && t.immediate) clearImmediate(t.immediate);
    }
    for (const s of [this.serverSide, this.clientSide]) if (s) s.close();
  }
}

module.exports = { UdpRelay, TimerQueue, EARLY_MS, earliestRoundTripMs, corruptPacket };
