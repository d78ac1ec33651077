'use strict';
// Range header parsing for one resource of known size (RFC 9110 §14). The origin serves one
// range per request: multi-range requests would need multipart/byteranges, which no DASH
// player sends, so they are answered with the whole resource (200), as the RFC allows a
// server to ignore Range.

/**
 * @param {string|undefined} header  the Range header value
 * @param {number} size              resource size in bytes
 * @returns {null | {start: number, end: number} | {unsatisfiable: true}}
 *   null: serve the whole resource (no header, or one the RFC says to ignore);
 *   {start, end}: inclusive byte positions to serve with 206;
 *   {unsatisfiable: true}: answer 416 with Content-Range: bytes *\/size
 */
function parseByteRange(header, size) {
  if (header === undefined || header === null) return null;
  if (typeof header !== 'string') return null;
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return null; // another unit, or garbage: ignore the header
  const spec = m[1].trim();
  if (spec.includes(',')) return null;
  const r = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  if (!r || (r[1] === '' && r[2] === '')) return null;
  // Positions beyond 2^53 are nonsense for a file here; treat them as syntactically invalid.
  if (r[1].length > 15 || r[2].length > 15) return null;
  if (r[1] === '') {
    // Suffix range: the last N bytes.
    const n = Number(r[2]);
    if (n === 0 || size === 0) return { unsatisfiable: true };
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(r[1]);
  const end = r[2] === '' ? Infinity : Number(r[2]);
  if (end < start) return null; // invalid range-spec: ignore (RFC 9110 §14.1.1)
  if (start >= size) return { unsatisfiable: true };
  return { start, end: Math.min(end, size - 1) };
}

module.exports = { parseByteRange };
