'use strict';
// Puts one response back together from DATA frames that may arrive out of order, twice, or
// (on the unreliable channel) not at all. Missing bytes stay zero in place, so the container
// keeps its layout and the decoder conceals the damage (paper 000 Fig. 8). Pure: no channel,
// no clock; the transport decides when to stop waiting.

// A HEAD may list the segment's movie fragments, [start, end, offsetSeconds] each (the origin's
// priority map; fragment-release.js says when each goes to the decoder). A peer's list is
// checked before anything relies on it: whole byte ranges that partition the response in
// order, media offsets from 0 that never go back.
const MAX_FRAGMENTS = 1000;
// A segment is seconds long; an offset past an hour is a broken or hostile peer.
const MAX_FRAGMENT_OFFSET_SECONDS = 3600;

function checkFragments(fragments, totalBytes) {
  const bad = (why) => new RangeError(`HEAD fragments: ${why}`);
  if (!Array.isArray(fragments) || !fragments.length) throw bad('must be a non-empty list');
  if (fragments.length > MAX_FRAGMENTS) throw bad(`at most ${MAX_FRAGMENTS}, got ${fragments.length}`);
  let expected = 0;
  let lastOffset = 0;
  for (const f of fragments) {
    if (!Array.isArray(f) || f.length !== 3) throw bad('each is [start, end, offsetSeconds]');
    const [start, end, offset] = f;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start !== expected || !(end > start)) throw bad(`[${start}, ${end}) does not follow byte ${expected}`);
    if (!(Number.isFinite(offset) && offset >= lastOffset && offset <= MAX_FRAGMENT_OFFSET_SECONDS)) throw bad(`offset ${offset} s must be a number from ${lastOffset} to ${MAX_FRAGMENT_OFFSET_SECONDS}`);
    expected = end;
    lastOffset = offset;
  }
  if (expected !== totalBytes) throw bad(`end at byte ${expected}, the response has ${totalBytes}`);
}

class SegmentAssembler {
  /** @param {{totalBytes: number, reliableBytes: number, unreliableBytes: number, unreliableChunks: number}} head */
  constructor(head) {
    for (const k of ['totalBytes', 'reliableBytes', 'unreliableBytes', 'unreliableChunks']) {
      if (!(Number.isInteger(head[k]) && head[k] >= 0)) throw new RangeError(`HEAD ${k} must be a whole number >= 0, got ${head[k]}`);
    }
    if (head.reliableBytes + head.unreliableBytes !== head.totalBytes) throw new RangeError(`HEAD reliable + unreliable bytes (${head.reliableBytes} + ${head.unreliableBytes}) must equal totalBytes ${head.totalBytes}`);
    if (head.fragments !== undefined) checkFragments(head.fragments, head.totalBytes);
    this.head = head;
    this.bytes = new Uint8Array(head.totalBytes);
    this.seen = new Set();
    this.received = { reliable: 0, unreliable: 0 };
    this.chunks = { reliable: 0, unreliable: 0 };
    this.duplicates = 0;
    this.ended = null;
  }

  /**
   * @param {number} offset
   * @param {Uint8Array} data
   * @param {'reliable'|'unreliable'} channel
   * @returns {boolean} false for a duplicate (already placed)
   */
  add(offset, data, channel) {
    if (channel !== 'reliable' && channel !== 'unreliable') throw new TypeError(`channel must be reliable or unreliable, got ${channel}`);
    if (!(data.length > 0 && offset + data.length <= this.head.totalBytes)) {
      throw new RangeError(`a ${data.length}-byte chunk at ${offset} does not fit a ${this.head.totalBytes}-byte response`);
    }
    const key = `${channel}:${offset}`;
    if (this.seen.has(key)) {
      this.duplicates += 1;
      return false;
    }
    this.seen.add(key);
    this.bytes.set(data, offset);
    this.received[channel] += data.length;
    this.chunks[channel] += 1;
    if (this.received[channel] > this.head[`${channel}Bytes`]) throw new RangeError(`more ${channel} bytes than HEAD announced (${this.received[channel]} > ${this.head[`${channel}Bytes`]})`);
    return true;
  }

  end(payload) {
    this.ended = payload;
  }

  /** Every reliable byte is in (they always arrive; until then the response cannot finish). */
  get reliableComplete() {
    return this.received.reliable === this.head.reliableBytes;
  }

  /** Every unreliable chunk the server sent is in: nothing more can come. */
  get unreliableComplete() {
    return this.received.unreliable === this.head.unreliableBytes;
  }

  get complete() {
    return this.reliableComplete && this.unreliableComplete;
  }

  /**
   * The response as it stands: zero-filled where chunks are missing, with the loss counted.
   *   plr                  lost packets / all packets of the response, both channels, the
   *                        reliable part counted in packets of the unreliable chunk size
   *                        (paper 000's PLR: more data sent reliably, fewer packets lost)
   *   unreliableLossRatio  lost / sent unreliable chunks (the channel's own loss)
   */
  finish() {
    const lostBytes = this.head.unreliableBytes - this.received.unreliable;
    const lostChunks = Math.max(0, this.head.unreliableChunks - this.chunks.unreliable);
    const chunkBytes = this.head.chunkBytes || 1100;
    const packets = this.head.unreliableChunks + Math.ceil(this.head.reliableBytes / chunkBytes);
    return {
      bytes: this.bytes,
      lostBytes,
      lostChunks,
      unreliableChunks: this.head.unreliableChunks,
      receivedChunks: { ...this.chunks },
      bytesPerChannel: { ...this.received },
      duplicates: this.duplicates,
      plr: packets ? lostChunks / packets : 0,
      packets,
      unreliableLossRatio: this.head.unreliableChunks ? lostChunks / this.head.unreliableChunks : 0,
    };
  }
}

module.exports = { SegmentAssembler, checkFragments, MAX_FRAGMENTS };
