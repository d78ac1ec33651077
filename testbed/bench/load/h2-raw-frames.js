'use strict';
// Just enough HTTP/2 (RFC 9113) framing, written by hand, for the abusive clients: node:http2
// is a polite client (it will not send a HEADERS frame and its RST_STREAM back to back in a
// loop, nor keep asking while never reading), and the abuse has to be exactly what a hostile
// client sends on the wire.

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const TYPE = { DATA: 0, HEADERS: 1, RST_STREAM: 3, SETTINGS: 4, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8 };
const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4 };
const SETTING = { INITIAL_WINDOW_SIZE: 0x4 };
const CANCEL = 0x8;

function frame(type, flags, streamId, payload = Buffer.alloc(0)) {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

/** HPACK integer with an N-bit prefix (RFC 7541 §5.1), the prefix's other bits from `first`. */
function hpackInteger(value, prefixBits, first = 0) {
  const max = (1 << prefixBits) - 1;
  if (value < max) return [first | value];
  const out = [first | max];
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

/** A literal header field without indexing, its name from the static table (RFC 7541 §6.2.2). */
function literalWithIndexedName(nameIndex, value) {
  const v = Buffer.from(value, 'latin1');
  return Buffer.concat([Buffer.from(hpackInteger(nameIndex, 4)), Buffer.from(hpackInteger(v.length, 7)), v]);
}

/** A GET request's header block: static-table :method GET (2), :scheme https (7), :authority (1), :path (4). */
function getHeaderBlock(authority, path) {
  return Buffer.concat([Buffer.from([0x82, 0x87]), literalWithIndexedName(1, authority), literalWithIndexedName(4, path)]);
}

const settings = (pairs = []) => {
  const p = Buffer.alloc(6 * pairs.length);
  pairs.forEach(([id, value], i) => {
    p.writeUInt16BE(id, 6 * i);
    p.writeUInt32BE(value, 6 * i + 2);
  });
  return frame(TYPE.SETTINGS, 0, 0, p);
};

const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

module.exports = {
  PREFACE,
  TYPE,
  FLAG,
  SETTING,
  settings,
  settingsAck: () => frame(TYPE.SETTINGS, FLAG.ACK, 0),
  pingAck: (payload) => frame(TYPE.PING, FLAG.ACK, 0, payload),
  windowUpdate: (streamId, increment) => frame(TYPE.WINDOW_UPDATE, 0, streamId, u32(increment)),
  getRequest: (streamId, authority, path) => frame(TYPE.HEADERS, FLAG.END_STREAM | FLAG.END_HEADERS, streamId, getHeaderBlock(authority, path)),
  rstStream: (streamId, code = CANCEL) => frame(TYPE.RST_STREAM, 0, streamId, u32(code)),
  hpackInteger,
  getHeaderBlock,
};
