'use strict';
// A WebSocket close frame carries at most 125 payload bytes: a 2-byte code and a reason of at
// most 123 bytes of UTF-8 (RFC 6455 §5.5). ws's close() throws a RangeError past that, and the
// reasons here quote what a client sent, so a reason cut by characters (not bytes) let one
// signaling message with non-ASCII text throw out of an error handler and end the process.
const MAX_REASON_BYTES = 123;

/**
 * The longest prefix of `text` that fits a close frame, cut at a character boundary (never
 * inside a UTF-8 sequence or a surrogate pair), with "…" when something was cut.
 * @param {unknown} text
 * @returns {string} at most 123 bytes in UTF-8
 */
function closeReason(text) {
  const s = String(text);
  if (Buffer.byteLength(s) <= MAX_REASON_BYTES) return s;
  const ellipsis = '…'; // 3 bytes
  let out = '';
  let bytes = 0;
  for (const ch of s) { // iterates by code point, so surrogate pairs stay whole
    const n = Buffer.byteLength(ch);
    if (bytes + n > MAX_REASON_BYTES - Buffer.byteLength(ellipsis)) break;
    out += ch;
    bytes += n;
  }
  return out + ellipsis;
}

module.exports = { closeReason, MAX_REASON_BYTES };
