'use strict';
// Reads the RBSP of one H.264 NAL unit (ITU-T H.264 7.3.1/7.4.1): the escaped bytes with every
// emulation_prevention_three_byte (0x03 after 0x00 0x00) skipped. It keeps the positions of
// the skipped bytes so a position in RBSP bits maps back to a byte in the file, which is what
// the priority map needs: where a slice header really ends in the segment.

class BitstreamError extends Error {
  constructor(message) {
    super(message);
    this.name = 'BitstreamError';
  }
}

/** Unescapes a NAL unit. @returns {{rbsp: Uint8Array, removed: number[]}} removed: escaped offsets of dropped 0x03 bytes */
function unescapeRbsp(nal) {
  const rbsp = new Uint8Array(nal.length);
  const removed = [];
  let zeros = 0;
  let n = 0;
  for (let i = 0; i < nal.length; i++) {
    const b = nal[i];
    if (zeros >= 2 && b === 0x03) {
      removed.push(i);
      zeros = 0;
      continue;
    }
    rbsp[n++] = b;
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return { rbsp: rbsp.subarray(0, n), removed };
}

class BitReader {
  /** @param {Uint8Array} nal  the escaped NAL unit, header byte included */
  constructor(nal) {
    const { rbsp, removed } = unescapeRbsp(nal);
    this.bytes = rbsp;
    this.removed = removed;
    this.pos = 0; // in RBSP bits
  }

  get bitsLeft() {
    return this.bytes.length * 8 - this.pos;
  }

  u(n) {
    if (n === 0) return 0;
    if (n > 32) throw new BitstreamError(`cannot read ${n} bits at once`);
    if (n > this.bitsLeft) throw new BitstreamError(`read past the end of the NAL unit (bit ${this.pos}, wanted ${n})`);
    let value = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.bytes[this.pos >> 3];
      value = value * 2 + ((byte >> (7 - (this.pos & 7))) & 1);
      this.pos += 1;
    }
    return value;
  }

  flag() {
    return this.u(1) === 1;
  }

  skip(n) {
    if (n > this.bitsLeft) throw new BitstreamError(`skip past the end of the NAL unit (bit ${this.pos}, wanted ${n})`);
    this.pos += n;
  }

  /** ue(v), Exp-Golomb (9.1) */
  ue() {
    let zeros = 0;
    while (this.u(1) === 0) {
      zeros += 1;
      if (zeros > 31) throw new BitstreamError(`Exp-Golomb code longer than 32 bits at bit ${this.pos}`);
    }
    return zeros === 0 ? 0 : 2 ** zeros - 1 + this.u(zeros);
  }

  /** se(v) (9.1.1) */
  se() {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : k === 0 ? 0 : -(k / 2);
  }

  /** te(v) with range > 1 is ue(v); range 1 is an inverted bit (9.1). */
  te(range) {
    return range > 1 ? this.ue() : 1 - this.u(1);
  }

  /**
   * Byte offset in the escaped NAL of the RBSP byte holding bit `rbspBit`, after which the
   * escaped data has consumed `rbspBit` bits: used to round a header end up to a whole byte.
   */
  escapedByteEnd(rbspBit) {
    const rbspBytes = Math.ceil(rbspBit / 8);
    let escaped = rbspBytes;
    for (const r of this.removed) {
      if (r < escaped) escaped += 1;
      else break;
    }
    return escaped;
  }
}

module.exports = { BitReader, BitstreamError, unescapeRbsp };
