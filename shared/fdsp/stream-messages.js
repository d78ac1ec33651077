'use strict';
// FDSP frames over a byte stream (a WebTransport bidirectional stream, the QUIC carrier's
// bridge sockets): each message is its length as u32 big-endian, then that many bytes,
// `[u32 len][frame]`, len at most frames.MAX_FRAME_BYTES. A DataChannel keeps message
// boundaries by itself; a stream does not: one read may end inside a length or a frame, or
// hold several messages, so the reader puts messages back together across reads.
// Plain Uint8Array and DataView: the same code runs in the browser and in Node.
const { MAX_FRAME_BYTES } = require('./frames');

const LENGTH_BYTES = 4;

class StreamMessageError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** One message as it goes on the stream: [u32 BE length][bytes], in one buffer (one write). */
function encodeStreamMessage(bytes, maxBytes = MAX_FRAME_BYTES) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('a stream message is a Uint8Array');
  if (bytes.length > maxBytes) throw new StreamMessageError('too-large', `a message of ${bytes.length} bytes is over the ${maxBytes}-byte limit`);
  const out = new Uint8Array(LENGTH_BYTES + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length);
  out.set(bytes, LENGTH_BYTES);
  return out;
}

/**
 * Reads messages out of a stream's chunks, whatever their boundaries. A length over the limit
 * is a broken or hostile peer: push() throws StreamMessageError and the reader refuses
 * everything after (the stream can no longer be read in step).
 */
class StreamMessageReader {
  /** @param {{maxBytes?: number}} [o]  the largest message accepted (default frames.MAX_FRAME_BYTES) */
  constructor({ maxBytes = MAX_FRAME_BYTES } = {}) {
    this.maxBytes = maxBytes;
    this.lengthBytes = new Uint8Array(LENGTH_BYTES);
    this.lengthFill = 0;
    this.body = null; // the message being filled across chunks
    this.bodyFill = 0;
    this.broken = null;
  }

  /** Bytes read but not yet part of a whole message. */
  get pendingBytes() {
    return this.body === null ? this.lengthFill : LENGTH_BYTES + this.bodyFill;
  }

  /**
   * @param {Uint8Array} chunk  what one read of the stream gave
   * @returns {Uint8Array[]} the messages it completed, in order (a message within one chunk is
   *   a view into it, not a copy: the caller must not reuse the chunk's buffer)
   */
  push(chunk) {
    if (this.broken) throw this.broken;
    const out = [];
    let at = 0;
    while (at < chunk.length) {
      if (this.body === null) {
        const take = Math.min(LENGTH_BYTES - this.lengthFill, chunk.length - at);
        this.lengthBytes.set(chunk.subarray(at, at + take), this.lengthFill);
        this.lengthFill += take;
        at += take;
        if (this.lengthFill < LENGTH_BYTES) break;
        const length = new DataView(this.lengthBytes.buffer).getUint32(0);
        this.lengthFill = 0;
        if (length > this.maxBytes) {
          this.broken = new StreamMessageError('too-large', `a message length of ${length} bytes is over the ${this.maxBytes}-byte limit: the stream is out of step or the peer is broken`);
          throw this.broken;
        }
        if (chunk.length - at >= length) {
          // The whole message is in this chunk (the usual case): no copy.
          out.push(chunk.subarray(at, at + length));
          at += length;
          continue;
        }
        this.body = new Uint8Array(length);
        this.bodyFill = 0;
      }
      const take = Math.min(this.body.length - this.bodyFill, chunk.length - at);
      this.body.set(chunk.subarray(at, at + take), this.bodyFill);
      this.bodyFill += take;
      at += take;
      if (this.bodyFill === this.body.length) {
        out.push(this.body);
        this.body = null;
        this.bodyFill = 0;
      }
    }
    return out;
  }
}

module.exports = { encodeStreamMessage, StreamMessageReader, StreamMessageError, LENGTH_BYTES };
