'use strict';
// GET /bytes/<n>: n deterministic bytes that exist nowhere on disk, with Range (206) as the
// content route serves segments. Paper 001 measured its transports' throughput from an
// "infinite data source"; a throughput run (testbed/throughput/) fetches consecutive ranges of
// one very large /bytes/<n> over the transport being measured, so no content has to be built
// and no file is long enough to run out. The byte at offset i is PATTERN[i mod 65536], a fixed
// pseudo-random block: any range can be checked without the rest (expectedBytes).
const { Readable } = require('node:stream');
const { parseByteRange } = require('./byte-range');
const { sendText } = require('./responses');
const { pipeBody } = require('./serve-file');

// 2^40 bytes (1 TiB): 500 s at 10 Gbit/s is 625 GB; more would only invite nonsense sizes.
const MAX_BYTES = 2 ** 40;
const PATTERN_BYTES = 65536;
// What one read hands to the response: the pattern block, so a write is a slice, not a copy.
const PATTERN = (() => {
  const out = Buffer.alloc(PATTERN_BYTES);
  let x = 0x2545f491; // xorshift32, fixed seed: the same bytes in every process, forever
  for (let i = 0; i < PATTERN_BYTES; i += 1) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
})();

/** The bytes [start, start + length) of any /bytes/<n> resource (for checks, not serving). */
function expectedBytes(start, length) {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) out[i] = PATTERN[(start + i) % PATTERN_BYTES];
  return out;
}

/** A stream of bytes [start, end] of the pattern, in pieces of at most one pattern block. */
function patternStream(start, end) {
  let at = start;
  return new Readable({
    read() {
      if (at > end) {
        this.push(null);
        return;
      }
      const offset = at % PATTERN_BYTES;
      const n = Math.min(PATTERN_BYTES - offset, end - at + 1);
      at += n;
      this.push(PATTERN.subarray(offset, offset + n));
    },
  });
}

/** The size a path below /bytes/ names, or null when it names none. */
function parseSize(rest) {
  if (!/^\d{1,13}$/.test(rest)) return null;
  const n = Number(rest);
  return n <= MAX_BYTES ? n : null;
}

/** @returns {(req, res, rest: string) => void}  rest: the path after "/bytes/" */
function createByteSource() {
  return function serveBytes(req, res, rest) {
    const size = parseSize(rest);
    if (size === null) return sendText(res, 404, `/bytes/<n> serves n deterministic bytes, n a whole number from 0 to ${MAX_BYTES}; got "${rest}"\n`);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Accept-Ranges', 'bytes');
    // Every request must cross the transport being measured.
    res.setHeader('Cache-Control', 'no-store');
    const range = parseByteRange(req.headers.range, size);
    if (range && range.unsatisfiable) {
      res.setHeader('Content-Range', `bytes */${size}`);
      return sendText(res, 416, 'range not satisfiable\n');
    }
    const start = range ? range.start : 0;
    const end = range ? range.end : size - 1;
    const length = size === 0 ? 0 : end - start + 1;
    res.statusCode = range ? 206 : 200;
    if (range) res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
    res.setHeader('Content-Length', String(length));
    if (req.method === 'HEAD' || length === 0) return res.end();
    // A client that hangs up ends the stream (and a run aborts its last range at its end).
    return pipeBody(req, res, patternStream(start, end));
  };
}

module.exports = { createByteSource, expectedBytes, parseSize, MAX_BYTES, PATTERN_BYTES };
