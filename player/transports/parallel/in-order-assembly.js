'use strict';
// One response of the parallel transport put back together from its chunks, which arrive in
// any order over n_c streams. Progress is what has arrived in order: the bytes from the start
// up to the first chunk still missing (a chunk in hand behind a missing one does not count yet),
// so the throughput dash.js derives from progress events is the in-order throughput that
// playback can use, as paper 001 measures it. The response is complete when every chunk is in.
//
// Pure: byte arrays in, counts out.

class InOrderAssembly {
  /**
   * @param {{start: number, end: number}[]} chunks  the plan, in order, contiguous
   *   (chunk-plan.js); offsets are absolute (a range response's start is chunks[0].start)
   */
  constructor(chunks) {
    if (!Array.isArray(chunks) || !chunks.length) throw new RangeError('in-order assembly: a response needs at least one chunk');
    for (let i = 1; i < chunks.length; i += 1) {
      if (chunks[i].start !== chunks[i - 1].end + 1) throw new RangeError(`in-order assembly: chunk ${i} starts at ${chunks[i].start}, not right after ${chunks[i - 1].end}`);
    }
    this.chunks = chunks;
    this.start = chunks[0].start;
    this.total = chunks[chunks.length - 1].end + 1 - this.start;
    this.bytes = new Uint8Array(this.total);
    this.have = new Array(chunks.length).fill(false);
    this.count = 0;
    this.nextMissing = 0; // index of the first chunk not in
  }

  /** Bytes from the start that arrived in order. */
  get inOrderBytes() {
    return this.nextMissing === this.chunks.length ? this.total : this.chunks[this.nextMissing].start - this.start;
  }

  get complete() {
    return this.count === this.chunks.length;
  }

  /**
   * Places chunk i's bytes.
   * @returns {{placed: boolean, inOrderBytes: number, advanced: boolean}} placed: false for a
   *   chunk already in (a duplicate); advanced: the in-order bytes grew
   */
  place(i, bytes) {
    const c = this.chunks[i];
    if (!c) throw new RangeError(`in-order assembly: there is no chunk ${i} (of ${this.chunks.length})`);
    const size = c.end - c.start + 1;
    if (!bytes || bytes.length !== size) throw new RangeError(`in-order assembly: chunk ${i} (bytes ${c.start}-${c.end}) must be ${size} bytes, got ${bytes ? bytes.length : bytes}`);
    if (this.have[i]) return { placed: false, inOrderBytes: this.inOrderBytes, advanced: false };
    this.bytes.set(bytes, c.start - this.start);
    this.have[i] = true;
    this.count += 1;
    const was = this.nextMissing;
    while (this.nextMissing < this.chunks.length && this.have[this.nextMissing]) this.nextMissing += 1;
    return { placed: true, inOrderBytes: this.inOrderBytes, advanced: this.nextMissing !== was };
  }
}

module.exports = { InOrderAssembly };
