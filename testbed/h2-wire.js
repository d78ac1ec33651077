'use strict';
// HTTP/2 on the wire, only as much as the fuzzer and the load bench's abusive clients need
// (RFC 9113, RFC 7541): frames in and out, request header blocks written as HPACK literals (any name, any bytes, in any order:
// what node:http2 refuses to send is exactly what a hostile client sends), and the response's
// :status read back. The client advertises a header table size of 0, so the server may only
// use the static table and literals; a status outside the static table is a short literal,
// Huffman-coded when that is shorter, and digits are all the Huffman code it needs.

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const TYPE = Object.freeze({ DATA: 0, HEADERS: 1, PRIORITY: 2, RST_STREAM: 3, SETTINGS: 4, PUSH_PROMISE: 5, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9 });
const FLAG = Object.freeze({ END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 });
const SETTING = Object.freeze({ HEADER_TABLE_SIZE: 1, ENABLE_PUSH: 2, MAX_CONCURRENT_STREAMS: 3, INITIAL_WINDOW_SIZE: 4, MAX_FRAME_SIZE: 5, MAX_HEADER_LIST_SIZE: 6 });
const ERROR_NAMES = ['NO_ERROR', 'PROTOCOL_ERROR', 'INTERNAL_ERROR', 'FLOW_CONTROL_ERROR', 'SETTINGS_TIMEOUT', 'STREAM_CLOSED', 'FRAME_SIZE_ERROR', 'REFUSED_STREAM', 'CANCEL', 'COMPRESSION_ERROR', 'CONNECT_ERROR', 'ENHANCE_YOUR_CALM', 'INADEQUATE_SECURITY', 'HTTP_1_1_REQUIRED'];
const DEFAULT_MAX_FRAME = 16384;
// The static table's :status entries (RFC 7541 Appendix A).
const STATIC_STATUS = { 8: 200, 9: 204, 10: 206, 11: 304, 12: 400, 13: 404, 14: 500 };

function frame(type, flags, streamId, payload = Buffer.alloc(0)) {
  const p = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
  const h = Buffer.alloc(9);
  h.writeUIntBE(p.length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(streamId >>> 0, 5);
  return Buffer.concat([h, p]);
}

/** RFC 7541 §5.1 integer with an N-bit prefix; `high` holds the bits above the prefix. */
function hpackInt(value, prefixBits, high = 0) {
  const max = (1 << prefixBits) - 1;
  if (value < max) return Buffer.from([high | value]);
  const out = [high | max];
  let v = value - max;
  while (v >= 128) {
    out.push((v % 128) + 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}

function hpackString(s) {
  const b = Buffer.isBuffer(s) ? s : Buffer.from(String(s), 'latin1');
  return Buffer.concat([hpackInt(b.length, 7, 0), b]);
}

/**
 * A header block of "literal, never indexed, new name" fields, in the order given.
 * @param {Array<[string|Buffer, string|Buffer]>} pairs  names and values as raw bytes (latin1)
 */
function headerBlock(pairs) {
  return Buffer.concat(pairs.flatMap(([n, v]) => [Buffer.from([0x10]), hpackString(n), hpackString(v)]));
}

/** HEADERS (+ CONTINUATION) frames carrying `block`, cut at maxFrame bytes. */
function headersFrames(streamId, block, { endStream = true, maxFrame = DEFAULT_MAX_FRAME } = {}) {
  const out = [];
  for (let at = 0, first = true; first || at < block.length; first = false) {
    const part = block.subarray(at, at + maxFrame);
    at += part.length;
    const last = at >= block.length;
    const flags = (last ? FLAG.END_HEADERS : 0) | (first && endStream ? FLAG.END_STREAM : 0);
    out.push(frame(first ? TYPE.HEADERS : TYPE.CONTINUATION, flags, streamId, part));
  }
  return Buffer.concat(out);
}

function settingsFrame(pairs, ack = false) {
  const p = Buffer.alloc(pairs.length * 6);
  pairs.forEach(([id, value], i) => {
    p.writeUInt16BE(id, i * 6);
    p.writeUInt32BE(value >>> 0, i * 6 + 2);
  });
  return frame(TYPE.SETTINGS, ack ? FLAG.ACK : 0, 0, p);
}

function u32(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

const windowUpdate = (streamId, increment) => frame(TYPE.WINDOW_UPDATE, 0, streamId, u32(increment));
const rstStream = (streamId, code) => frame(TYPE.RST_STREAM, 0, streamId, u32(code));
const ping = (data = Buffer.alloc(8), ack = false) => frame(TYPE.PING, ack ? FLAG.ACK : 0, 0, data);
const goaway = (lastStreamId = 0, code = 0) => frame(TYPE.GOAWAY, 0, 0, Buffer.concat([u32(lastStreamId), u32(code)]));
const dataFrame = (streamId, bytes, endStream = false) => frame(TYPE.DATA, endStream ? FLAG.END_STREAM : 0, streamId, bytes);
const priorityFrame = (streamId, dependsOn, weight = 15) => frame(TYPE.PRIORITY, 0, streamId, Buffer.concat([u32(dependsOn), Buffer.from([weight])]));

/** Splits a byte stream into frames. */
function createFrameReader() {
  let buf = Buffer.alloc(0);
  return function push(chunk) {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    const frames = [];
    while (buf.length >= 9) {
      const length = buf.readUIntBE(0, 3);
      if (buf.length < 9 + length) break;
      frames.push({ length, type: buf[3], flags: buf[4], streamId: buf.readUInt32BE(5) & 0x7fffffff, payload: buf.subarray(9, 9 + length) });
      buf = buf.subarray(9 + length);
    }
    return frames;
  };
}

function readInt(block, at, prefixBits) {
  const max = (1 << prefixBits) - 1;
  let value = block[at] & max;
  let i = at + 1;
  if (value < max) return { value, next: i };
  let m = 0;
  for (; i < block.length && m < 35; i += 1, m += 7) {
    value += (block[i] & 0x7f) * 2 ** m;
    if (!(block[i] & 0x80)) return { value, next: i + 1 };
  }
  return null;
}

/** Huffman-decodes a string of digits (RFC 7541 Appendix B); null for anything else. */
function huffmanDigits(bytes) {
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  let out = '';
  let i = 0;
  while (bits.length - i >= 5) {
    if (/^1+$/.test(bits.slice(i))) break; // EOS padding
    const v5 = parseInt(bits.slice(i, i + 5), 2);
    if (v5 <= 2) {
      out += String(v5);
      i += 5;
      continue;
    }
    const v6 = parseInt(bits.slice(i, i + 6), 2);
    if (bits.length - i >= 6 && v6 >= 0x19 && v6 <= 0x1f) {
      out += String(3 + v6 - 0x19);
      i += 6;
      continue;
    }
    return null;
  }
  return out;
}

/**
 * The :status of a response header block (its first field, after any table size updates).
 * @returns {number|null}
 */
function decodeStatus(block) {
  let at = 0;
  while (at < block.length && (block[at] & 0xe0) === 0x20) {
    const r = readInt(block, at, 5); // dynamic table size update
    if (!r) return null;
    at = r.next;
  }
  if (at >= block.length) return null;
  const b = block[at];
  if (b & 0x80) {
    const r = readInt(block, at, 7);
    return r ? STATIC_STATUS[r.value] ?? null : null;
  }
  const prefix = (b & 0x40) ? 6 : 4;
  const name = readInt(block, at, prefix);
  if (!name || !(name.value >= 8 && name.value <= 14)) return null;
  const huffman = (block[name.next] & 0x80) !== 0;
  const len = readInt(block, name.next, 7);
  if (!len) return null;
  const raw = block.subarray(len.next, len.next + len.value);
  const text = huffman ? huffmanDigits(raw) : raw.toString('latin1');
  return text && /^\d{3}$/.test(text) ? Number(text) : null;
}

/** The header block fragment of a HEADERS frame (without padding and priority fields). */
function headersFragment(f) {
  let p = f.payload;
  let pad = 0;
  if (f.flags & FLAG.PADDED) {
    pad = p[0];
    p = p.subarray(1);
  }
  if (f.flags & FLAG.PRIORITY) p = p.subarray(5);
  return p.subarray(0, Math.max(0, p.length - pad));
}

const errorName = (code) => ERROR_NAMES[code] || `0x${code.toString(16)}`;

/** A plain GET's HEADERS frame (END_STREAM): what the load bench's abusive clients ask for, then reset or never read. */
const getRequest = (streamId, authority, path) => headersFrames(streamId, headerBlock([[':method', 'GET'], [':scheme', 'https'], [':authority', authority], [':path', path]]));

module.exports = {
  PREFACE, TYPE, FLAG, SETTING, DEFAULT_MAX_FRAME, frame, hpackInt, hpackString, headerBlock, headersFrames,
  settingsFrame, windowUpdate, rstStream, ping, getRequest, goaway, dataFrame, priorityFrame, createFrameReader,
  decodeStatus, headersFragment, huffmanDigits, errorName,
};
