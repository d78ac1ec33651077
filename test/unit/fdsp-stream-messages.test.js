'use strict';
// FDSP frames over a byte stream (WebTransport's bidirectional stream): `[u32 BE len][frame]`,
// put back together whatever the reads' boundaries (shared/fdsp/stream-messages.js).
const frames = require('../../shared/fdsp/frames');
const { encodeStreamMessage, StreamMessageReader, StreamMessageError } = require('../../shared/fdsp/stream-messages');

const concat = (parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const hex = (u8) => Buffer.from(u8).toString('hex');

// Real frames of a response: HEAD, a reliable DATA of 3000 bytes, END; and an empty message.
const body = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7) % 251);
const messages = [
  frames.encodeHead(1, { status: 200, totalBytes: 3000, reliableBytes: 3000, unreliableBytes: 0, unreliableChunks: 0, contentType: 'video/mp4' }),
  frames.encodeData(1, 0, body),
  new Uint8Array(0),
  frames.encodeEnd(1, { reliableChunks: 1, unreliableChunks: 0 }),
];
const stream = concat(messages.map((m) => encodeStreamMessage(m)));

test('a message is its u32 big-endian length, then its bytes', () => {
  const m = encodeStreamMessage(Uint8Array.of(0xfd, 1, 2));
  expect([...m]).toEqual([0, 0, 0, 3, 0xfd, 1, 2]);
  expect([...encodeStreamMessage(new Uint8Array(0))]).toEqual([0, 0, 0, 0]);
  const big = encodeStreamMessage(new Uint8Array(0x012345));
  expect([...big.subarray(0, 4)]).toEqual([0, 0x01, 0x23, 0x45]);
  expect(() => encodeStreamMessage(new Uint8Array(frames.MAX_FRAME_BYTES + 1))).toThrow(StreamMessageError);
});

test('several messages in one read come out in order, and decode as the frames they were', () => {
  const reader = new StreamMessageReader();
  const out = reader.push(stream);
  expect(out.map(hex)).toEqual(messages.map(hex));
  expect(frames.decodeFrame(out[1]).bytes).toEqual(body);
  expect(reader.pendingBytes).toBe(0);
});

test('messages split across reads at every boundary, inside lengths and inside frames, come out whole', () => {
  // Every cut point of the stream into two reads, and reads of every size from 1 to 17 bytes.
  for (let cut = 0; cut <= stream.length; cut += 1) {
    const reader = new StreamMessageReader();
    const out = [...reader.push(stream.subarray(0, cut)), ...reader.push(stream.subarray(cut))];
    expect(out.map(hex)).toEqual(messages.map(hex));
  }
  for (let size = 1; size <= 17; size += 1) {
    const reader = new StreamMessageReader();
    const out = [];
    for (let at = 0; at < stream.length; at += size) out.push(...reader.push(stream.subarray(at, at + size)));
    expect(out.map(hex)).toEqual(messages.map(hex));
    expect(reader.pendingBytes).toBe(0);
  }
});

test('a partial message waits for the rest and is counted as pending', () => {
  const reader = new StreamMessageReader();
  expect(reader.push(stream.subarray(0, 2))).toEqual([]);
  expect(reader.pendingBytes).toBe(2);
  const firstLength = 4 + messages[0].length;
  expect(reader.push(stream.subarray(2, firstLength - 1))).toEqual([]);
  expect(reader.pendingBytes).toBe(firstLength - 1);
  expect(reader.push(stream.subarray(firstLength - 1, firstLength)).map(hex)).toEqual([hex(messages[0])]);
  expect(reader.pendingBytes).toBe(0);
});

test('a length over the limit is an error, also when it is split across reads, and the reader stays broken', () => {
  const over = new Uint8Array(4);
  new DataView(over.buffer).setUint32(0, frames.MAX_FRAME_BYTES + 1);
  expect(() => new StreamMessageReader().push(over)).toThrow(/over the 262144-byte limit/);
  const reader = new StreamMessageReader();
  expect(reader.push(concat([encodeStreamMessage(messages[0]), over.subarray(0, 3)])).map(hex)).toEqual([hex(messages[0])]);
  let caught;
  try {
    reader.push(over.subarray(3));
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(StreamMessageError);
  expect(caught.code).toBe('too-large');
  // Out of step for good: whatever comes next is refused, not read as lengths.
  expect(() => reader.push(encodeStreamMessage(messages[0]))).toThrow(StreamMessageError);
  // The limit itself is allowed, and a smaller limit is the caller's to set.
  const max = new Uint8Array(frames.MAX_FRAME_BYTES);
  expect(new StreamMessageReader().push(encodeStreamMessage(max))[0].length).toBe(frames.MAX_FRAME_BYTES);
  expect(() => new StreamMessageReader({ maxBytes: 100 }).push(encodeStreamMessage(new Uint8Array(101)))).toThrow(/over the 100-byte limit/);
});
