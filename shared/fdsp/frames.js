'use strict';
// The DataChannel request/response protocol, defined once for origin and player. Every
// message is one binary frame with a fixed 12-byte header:
//
//   0  u8   magic 0xFD
//   1  u8   version (1)
//   2  u8   type (below)
//   3  u8   flags (0; reserved)
//   4  u32  request id (big-endian; chosen by the client, unique per peer connection)
//   8  u32  offset: where DATA's bytes go in the response body (0 for other types)
//   12 ...  payload: the bytes (DATA) or a UTF-8 JSON object (the others)
//
// client -> server (reliable channel):
//   REQUEST {url, range: [first, last] | null, bp: 0-100, deadlineMs: number | null,
//           paceBps?: number | null (the session's unreliable sending rate from now on; null: unpaced),
//           udpOnly?: boolean (paper 000's UDP-only baseline: only container boxes reliable),
//           windowBytes?: number | null (the session's receive window from now on: at most this
//           many DATA bytes, both channels, sent and not yet acknowledged; null: none)}
//   CANCEL  {}
//   ACK     no payload; request id and offset name the DATA frame that came last (either
//           channel): it and everything sent before it have left the network, arrived or lost.
//           Sent only while a receive window is asked for (origin/datachannel/in-flight-window.js)
//   STALL   {stalled: boolean} (request id 0) the player began (true) or stopped (false)
//           stalling: the origin's chunk deadlines stand still meanwhile (paper 000 moves every
//           later deadline by a stall's length)
// server -> client:
//   HEAD    {status, totalBytes, reliableBytes, unreliableBytes, unreliableChunks, contentType,
//           fragments?: [[start, end, offsetSeconds], ...]} (reliable) before any DATA of the
//           request; fragments: a segment's movie fragments when it has several
//   DATA    bytes at offset, on either channel; any chunk can be placed without the others
//   END     {reliableChunks, unreliableChunks} (reliable) once every chunk has been handed
//           to its channel: the client then knows what to wait for
//   ERROR   {status, message} (reliable) instead of HEAD, or after it (the request is dead)
//
// A frame that breaks these rules throws FrameError with a code, never anything else, so a
// peer sending garbage gets an ERROR frame or a closed channel and the process carries on.

const MAGIC = 0xfd;
const VERSION = 1;
const HEADER_BYTES = 12;
// node-datachannel and Chromium both accept 256 KB messages; larger is refused.
const MAX_FRAME_BYTES = 256 * 1024;
const MAX_JSON_BYTES = 8 * 1024;
// A client's pace for the unreliable channel: 100 kbit/s to 10 Gbit/s.
const MIN_PACE_BPS = 1e5;
const MAX_PACE_BPS = 1e10;
// A client's receive window: 16 KiB (one reliable frame must fit) to 64 MiB.
const MIN_WINDOW_BYTES = 16 * 1024 + HEADER_BYTES;
const MAX_WINDOW_BYTES = 64 * 1024 * 1024;
const TYPES = Object.freeze({ REQUEST: 1, CANCEL: 2, STALL: 3, ACK: 4, HEAD: 16, DATA: 17, END: 18, ERROR: 19 });
const TYPE_NAMES = Object.fromEntries(Object.entries(TYPES).map(([k, v]) => [v, k]));

class FrameError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function header(type, requestId, offset, payloadBytes) {
  if (!(Number.isInteger(requestId) && requestId >= 0 && requestId <= 0xffffffff)) throw new FrameError('bad-request-id', `request id must be a u32, got ${requestId}`);
  if (!(Number.isInteger(offset) && offset >= 0 && offset <= 0xffffffff)) throw new FrameError('bad-offset', `offset must be a u32, got ${offset}`);
  const total = HEADER_BYTES + payloadBytes;
  if (total > MAX_FRAME_BYTES) throw new FrameError('too-large', `a frame of ${total} bytes is over the ${MAX_FRAME_BYTES}-byte limit`);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out[0] = MAGIC;
  out[1] = VERSION;
  out[2] = type;
  out[3] = 0;
  view.setUint32(4, requestId);
  view.setUint32(8, offset);
  return out;
}

function encodeJson(type, requestId, obj) {
  const json = encoder.encode(JSON.stringify(obj));
  if (json.length > MAX_JSON_BYTES) throw new FrameError('too-large', `a ${TYPE_NAMES[type]} payload of ${json.length} bytes is over ${MAX_JSON_BYTES}`);
  const out = header(type, requestId, 0, json.length);
  out.set(json, HEADER_BYTES);
  return out;
}

function encodeData(requestId, offset, bytes) {
  const out = header(TYPES.DATA, requestId, offset, bytes.length);
  out.set(bytes, HEADER_BYTES);
  return out;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function checkRequest(p) {
  if (typeof p.url !== 'string' || !p.url || p.url.length > 2048) throw new FrameError('bad-request', 'REQUEST needs a url (a string of at most 2048 characters)');
  if (p.range !== null && p.range !== undefined) {
    const ok = Array.isArray(p.range) && p.range.length === 2 && p.range.every((n) => Number.isInteger(n) && n >= 0) && p.range[1] >= p.range[0];
    if (!ok) throw new FrameError('bad-request', `REQUEST range must be [first, last] byte positions with first <= last, got ${JSON.stringify(p.range)}`);
  }
  if (!(typeof p.bp === 'number' && p.bp >= 0 && p.bp <= 100)) throw new FrameError('bad-request', `REQUEST bp must be 0-100, got ${JSON.stringify(p.bp)}`);
  if (p.deadlineMs !== null && p.deadlineMs !== undefined && !(typeof p.deadlineMs === 'number' && p.deadlineMs >= 0)) throw new FrameError('bad-request', 'REQUEST deadlineMs must be a number of ms >= 0 or null');
  if (p.paceBps !== null && p.paceBps !== undefined && !(typeof p.paceBps === 'number' && p.paceBps >= MIN_PACE_BPS && p.paceBps <= MAX_PACE_BPS)) {
    throw new FrameError('bad-request', `REQUEST paceBps must be ${MIN_PACE_BPS}-${MAX_PACE_BPS} bits/s or null, got ${JSON.stringify(p.paceBps)}`);
  }
  if (p.udpOnly !== undefined && typeof p.udpOnly !== 'boolean') throw new FrameError('bad-request', `REQUEST udpOnly must be true or false, got ${JSON.stringify(p.udpOnly)}`);
  if (p.windowBytes !== null && p.windowBytes !== undefined && !(Number.isInteger(p.windowBytes) && p.windowBytes >= MIN_WINDOW_BYTES && p.windowBytes <= MAX_WINDOW_BYTES)) {
    throw new FrameError('bad-request', `REQUEST windowBytes must be a whole number of bytes ${MIN_WINDOW_BYTES}-${MAX_WINDOW_BYTES} or null, got ${JSON.stringify(p.windowBytes)}`);
  }
  return {
    url: p.url, range: p.range || null, bp: p.bp, deadlineMs: p.deadlineMs ?? null,
    ...(p.paceBps === undefined ? {} : { paceBps: p.paceBps }), ...(p.udpOnly ? { udpOnly: true } : {}), ...(p.windowBytes === undefined ? {} : { windowBytes: p.windowBytes }),
  };
}

function checkStall(p) {
  if (typeof p.stalled !== 'boolean') throw new FrameError('bad-stall', `STALL needs stalled: true or false, got ${JSON.stringify(p.stalled)}`);
  return { stalled: p.stalled };
}

/**
 * @param {Uint8Array|ArrayBuffer|Buffer} data  one DataChannel message
 * @returns {{type: string, requestId: number, offset: number, payload?: object, bytes?: Uint8Array}}
 */
function decodeFrame(data) {
  if (typeof data === 'string') throw new FrameError('not-binary', 'frames are binary; got a text message');
  const u8 = data instanceof Uint8Array ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : null;
  if (!u8) throw new FrameError('not-binary', 'frames are binary');
  if (u8.length < HEADER_BYTES) throw new FrameError('too-short', `a frame is at least ${HEADER_BYTES} bytes, got ${u8.length}`);
  if (u8.length > MAX_FRAME_BYTES) throw new FrameError('too-large', `a frame of ${u8.length} bytes is over the ${MAX_FRAME_BYTES}-byte limit`);
  if (u8[0] !== MAGIC) throw new FrameError('bad-magic', `not a frame of this protocol (first byte 0x${u8[0].toString(16)})`);
  if (u8[1] !== VERSION) throw new FrameError('bad-version', `protocol version ${u8[1]} is not supported (this side speaks ${VERSION})`);
  const type = TYPE_NAMES[u8[2]];
  if (!type) throw new FrameError('bad-type', `unknown frame type ${u8[2]}`);
  const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  const frame = { type, requestId: view.getUint32(4), offset: view.getUint32(8) };
  const body = u8.subarray(HEADER_BYTES);
  if (type === 'DATA') {
    frame.bytes = body;
    return frame;
  }
  if (type === 'ACK') {
    if (body.length) throw new FrameError('bad-ack', `ACK frames carry no payload, got ${body.length} bytes`);
    return frame;
  }
  if (frame.offset !== 0) throw new FrameError('bad-offset', `${type} frames carry offset 0`);
  if (body.length > MAX_JSON_BYTES) throw new FrameError('too-large', `a ${type} payload of ${body.length} bytes is over ${MAX_JSON_BYTES}`);
  let payload;
  try {
    payload = body.length ? JSON.parse(decoder.decode(body)) : {};
  } catch (err) {
    throw new FrameError('bad-json', `${type} payload is not UTF-8 JSON: ${err.message}`);
  }
  if (!isObject(payload)) throw new FrameError('bad-json', `${type} payload must be a JSON object`);
  frame.payload = type === 'REQUEST' ? checkRequest(payload) : type === 'STALL' ? checkStall(payload) : payload;
  return frame;
}

module.exports = {
  TYPES, MAGIC, VERSION, HEADER_BYTES, MAX_FRAME_BYTES, MIN_PACE_BPS, MAX_PACE_BPS, MIN_WINDOW_BYTES, MAX_WINDOW_BYTES, FrameError, decodeFrame, encodeData,
  encodeAck: (requestId, offset) => header(TYPES.ACK, requestId, offset, 0),
  encodeRequest: (requestId, req) => encodeJson(TYPES.REQUEST, requestId, checkRequest(req)),
  encodeCancel: (requestId) => encodeJson(TYPES.CANCEL, requestId, {}),
  encodeStall: (stalled) => encodeJson(TYPES.STALL, 0, checkStall({ stalled })),
  encodeHead: (requestId, head) => encodeJson(TYPES.HEAD, requestId, head),
  encodeEnd: (requestId, end) => encodeJson(TYPES.END, requestId, end),
  encodeError: (requestId, status, message) => encodeJson(TYPES.ERROR, requestId, { status, message: String(message).slice(0, 1000) }),
};
