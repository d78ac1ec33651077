'use strict';
// How the parallel transport (paper 001) cuts a response into chunks: byte ranges of l_d bytes
// (the last one shorter), each fetched with its own HTTP Range request. dash.js asks for whole
// segments without a range (SegmentTemplate), so the size is often unknown: then only the first
// chunk is planned, as a Range request whose Content-Range ("bytes 0-20479/174321") gives the
// total, and the rest is planned once it has arrived.

/**
 * The chunks of the bytes [start, end] (both inclusive), in order.
 * @param {number} start       first byte
 * @param {number} end         last byte (inclusive), >= start - 1 (start - 1: nothing to fetch)
 * @param {number} chunkBytes  l_d
 * @returns {{start: number, end: number}[]}
 */
function planChunks(start, end, chunkBytes) {
  if (!Number.isInteger(start) || start < 0) throw new RangeError(`chunk plan: start must be a whole number >= 0, got ${start}`);
  if (!Number.isInteger(end) || end < start - 1) throw new RangeError(`chunk plan: end must be a whole number >= start - 1, got ${end}`);
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1) throw new RangeError(`chunk plan: chunkBytes must be a whole number >= 1, got ${chunkBytes}`);
  const out = [];
  for (let s = start; s <= end; s += chunkBytes) out.push({ start: s, end: Math.min(s + chunkBytes - 1, end) });
  return out;
}

/**
 * The first chunk of a response whose end is unknown (a whole resource, or "bytes=N-"): its
 * Content-Range tells the total, and with it the rest of the plan.
 */
function probeChunk(start, chunkBytes) {
  return planChunks(start, start + chunkBytes - 1, chunkBytes)[0];
}

/**
 * A Content-Range header value (RFC 9110 §14.4): "bytes 0-20479/174321" or, with a 416,
 * "bytes *\/174321". Returns null for anything else (an unknown total "/*" included: the plan
 * needs it).
 * @returns {{start: number|null, end: number|null, total: number}|null}
 */
function parseContentRange(value) {
  if (typeof value !== 'string') return null;
  const m = /^\s*bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+)\s*$/i.exec(value);
  if (!m) return null;
  const total = Number(m[3]);
  if (m[1] === undefined) return { start: null, end: null, total };
  const start = Number(m[1]);
  const end = Number(m[2]);
  if (!(end >= start && end < total)) return null;
  return { start, end, total };
}

module.exports = { planChunks, probeChunk, parseContentRange };
