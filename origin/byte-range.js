'use strict';
// Range header parsing for one resource of known size (RFC 9110 §14). The origin serves one
// range per request: multi-range requests would need multipart/byteranges, which no DASH
// player sends, so they are answered with the whole resource (200), as the RFC allows a
// server to ignore Range (§14.2). Anything that is not a valid single byte range is ignored
// the same way: a server that guesses at a malformed range can only serve wrong bytes.

// Decimal strings longer than this (after leading zeros) do not fit a double exactly; they are
// far larger than any file here, so they are compared as "infinitely large" instead.
const MAX_EXACT_DIGITS = 15;
const DIGITS = /^\d*$/;

/** A byte position from its digits, or Infinity when it is too long to be a real position. */
function position(digits) {
  const significant = digits.replace(/^0+(?=\d)/, '');
  return significant.length > MAX_EXACT_DIGITS ? Infinity : Number(significant);
}

/**
 * @param {string|undefined} header  the Range header value
 * @param {number} size              resource size in bytes
 * @returns {null | {start: number, end: number} | {unsatisfiable: true}}
 *   null: serve the whole resource (no header, or one the RFC lets us ignore);
 *   {start, end}: inclusive byte positions to serve with 206;
 *   {unsatisfiable: true}: answer 416 with Content-Range: bytes *\/size
 */
function parseByteRange(header, size) {
  if (typeof header !== 'string') return null;
  // Split by hand, not by one regular expression: the unit is case-insensitive (§14.1) and
  // whitespace around the parts is tolerated (being strict would only turn a harmless request
  // into a whole-file download), and a pattern like /=\s*(\d*)\s*-/ backtracks quadratically
  // over a long run of spaces: "bytes=" + 60,000 spaces + "x" held the event loop 1.8 s, every
  // listener with it. Each step below is one linear pass.
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return null; // another unit, or garbage
  const spec = header.slice(eq + 1);
  if (spec.includes(',')) return null; // a multi-range list: served whole
  const dash = spec.indexOf('-');
  if (dash < 0) return null;
  const first = spec.slice(0, dash).trim();
  const last = spec.slice(dash + 1).trim();
  if (!DIGITS.test(first) || !DIGITS.test(last)) return null;
  if (first === '' && last === '') return null;

  if (first === '') {
    // Suffix range: the last N bytes (§14.1.3); longer than the file means the whole file.
    const n = position(last);
    if (n === 0 || size === 0) return { unsatisfiable: true };
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = position(first);
  const end = last === '' ? Infinity : position(last);
  // last < first is an invalid range-spec, which a server ignores (§14.1.1).
  if (end < start) return null;
  if (start >= size) return { unsatisfiable: true };
  return { start, end: Math.min(end, size - 1) };
}

module.exports = { parseByteRange };
