'use strict';
// A first-in first-out list of packets in a growable ring of typed arrays: two numbers per
// packet (a time and a size), an optional token (what the caller moves, e.g. the packet's
// bytes), and the running byte total. The emulator keeps one per queue and touches it for every
// packet, up to ~25,000 a second, so pushing and shifting allocate nothing and the byte total
// is kept as packets come and go rather than summed on demand.

class PacketRing {
  constructor(capacity = 64) {
    this.times = new Float64Array(capacity);
    this.sizes = new Float64Array(capacity);
    this.tokens = new Array(capacity).fill(undefined);
    this.head = 0;
    this.length = 0;
    this.bytes = 0;
  }

  push(time, size, token) {
    if (this.length === this.times.length) this.grow();
    const i = (this.head + this.length) % this.times.length;
    this.times[i] = time;
    this.sizes[i] = size;
    this.tokens[i] = token;
    this.length += 1;
    this.bytes += size;
  }

  /** The oldest packet's time (undefined when empty). */
  firstTime() {
    return this.length ? this.times[this.head] : undefined;
  }

  /**
   * Removes the oldest packet; copies its time, size and token into `into` (as t, size and
   * token) and returns true, or returns false when empty.
   */
  shift(into) {
    if (!this.length) return false;
    const i = this.head;
    into.t = this.times[i];
    into.size = this.sizes[i];
    into.token = this.tokens[i];
    this.tokens[i] = undefined; // let the caller's bytes go
    this.removeFirst();
    return true;
  }

  /** Removes packets from the front while their time is <= t (times must not decrease). */
  dropWhileTimeAtMost(t) {
    while (this.length && this.times[this.head] <= t) {
      this.tokens[this.head] = undefined;
      this.removeFirst();
    }
  }

  removeFirst() {
    this.bytes -= this.sizes[this.head];
    this.head = (this.head + 1) % this.times.length;
    this.length -= 1;
    if (!this.length) this.bytes = 0;
  }

  grow() {
    const n = this.times.length;
    const times = new Float64Array(n * 2);
    const sizes = new Float64Array(n * 2);
    const tokens = new Array(n * 2).fill(undefined);
    for (let k = 0; k < this.length; k += 1) {
      const i = (this.head + k) % n;
      times[k] = this.times[i];
      sizes[k] = this.sizes[i];
      tokens[k] = this.tokens[i];
    }
    this.times = times;
    this.sizes = sizes;
    this.tokens = tokens;
    this.head = 0;
  }
}

module.exports = { PacketRing };
