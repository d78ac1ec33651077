'use strict';
// The parallel transport's one shared priority queue (paper 001 §IV-B, Fig. 4): every stream
// takes the next chunk from it, so chunks go out in playback order: the response dash.js asked
// for first (its sequence number), then by offset. A chunk queued again after a timeout goes
// before everything else ("at the front"): it is the one playback waits for.
//
// Items are whatever the caller keeps per chunk; the queue reads only item.seq (the response's
// order) and item.start (the chunk's first byte).

function before(a, b) {
  return a.seq !== b.seq ? a.seq < b.seq : a.start < b.start;
}

/** Inserts item into the sorted list, after equals (first in, first out among them). */
function insertSorted(list, item) {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(item, list[mid])) hi = mid;
    else lo = mid + 1;
  }
  list.splice(lo, 0, item);
}

class ChunkQueue {
  constructor() {
    this.front = []; // re-requests, in playback order among themselves
    this.rest = []; // everything else, in playback order
  }

  get size() {
    return this.front.length + this.rest.length;
  }

  /** A chunk in its playback place. */
  add(item) {
    insertSorted(this.rest, item);
  }

  /** A chunk ahead of every first request (a re-request after a timeout). */
  addFront(item) {
    insertSorted(this.front, item);
  }

  /** The next chunk to fetch, or null when there is none. */
  take() {
    if (this.front.length) return this.front.shift();
    if (this.rest.length) return this.rest.shift();
    return null;
  }

  /** Takes out every queued item for which drop(item) is true (a cancelled response's). */
  remove(drop) {
    const keep = (list) => list.filter((item) => !drop(item));
    const before = this.size;
    this.front = keep(this.front);
    this.rest = keep(this.rest);
    return before - this.size;
  }
}

module.exports = { ChunkQueue };
