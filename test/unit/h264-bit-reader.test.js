'use strict';
const { BitReader, unescapeRbsp } = require('../../origin/content/media/h264/bit-reader');
const { splitAvccSample } = require('../../origin/content/media/h264/nal-units');

test('emulation prevention bytes are removed and their places remembered', () => {
  const nal = Uint8Array.from([0x65, 0x00, 0x00, 0x03, 0x01, 0x00, 0x00, 0x03, 0x00, 0xff]);
  const { rbsp, removed } = unescapeRbsp(nal);
  expect([...rbsp]).toEqual([0x65, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0xff]);
  expect(removed).toEqual([3, 7]);
  // 0x03 not after two zeros stays.
  expect([...unescapeRbsp(Uint8Array.from([0x00, 0x03, 0x03])).rbsp]).toEqual([0x00, 0x03, 0x03]);
});

test('RBSP bit positions map back to escaped byte ends', () => {
  const r = new BitReader(Uint8Array.from([0x65, 0x00, 0x00, 0x03, 0x01, 0xaa]));
  // RBSP: 65 00 00 01 aa. 3 RBSP bytes (24 bits) -> escaped 3; 25 bits need RBSP byte 4,
  // which lies after the 0x03 at escaped offset 3 -> 5 escaped bytes.
  expect(r.escapedByteEnd(24)).toBe(3);
  expect(r.escapedByteEnd(25)).toBe(5);
  expect(r.escapedByteEnd(1)).toBe(1);
  expect(r.escapedByteEnd(0)).toBe(0);
});

test('ue(v), se(v), u(n) and te(v) read the spec\'s codes', () => {
  // Bits: 1 | 010 | 011 | 00100 | 00101 | 1 ... -> ue: 0, 1, 2, 3, 4
  // 1010 0110 0100 0010 1100 0000 = a6 42 c0
  const r = new BitReader(Uint8Array.from([0xa6, 0x42, 0xc0]));
  expect([r.ue(), r.ue(), r.ue(), r.ue(), r.ue()]).toEqual([0, 1, 2, 3, 4]);
  // se mapping of k = 0, 1, 2, 3, 4 is 0, 1, -1, 2, -2.
  const s = new BitReader(Uint8Array.from([0xa6, 0x42, 0xc0]));
  expect([s.se(), s.se(), s.se(), s.se(), s.se()]).toEqual([0, 1, -1, 2, -2]);
  const u = new BitReader(Uint8Array.from([0b10110000]));
  expect([u.u(1), u.u(3), u.flag()]).toEqual([1, 3, false]);
  expect(new BitReader(Uint8Array.from([0x00])).te(1)).toBe(1);
});

test('reading past the end or an over-long Exp-Golomb code is an error, not garbage', () => {
  expect(() => new BitReader(Uint8Array.from([0xff])).u(9)).toThrow(/past the end/);
  expect(() => new BitReader(new Uint8Array(8)).ue()).toThrow(/longer than 32 bits/);
});

test('AVCC samples split into NAL units; bad lengths are refused', () => {
  const sample = Uint8Array.from([0, 0, 0, 2, 0x67, 0x42, 0, 0, 0, 3, 0x65, 0x88, 0x80]);
  const units = splitAvccSample(sample, 0, sample.length, 4);
  expect(units.map((u) => [u.lengthStart, u.start, u.end, u.type, u.name])).toEqual([
    [0, 4, 6, 7, 'sps'], [6, 10, 13, 5, 'idrSlice'],
  ]);
  expect(() => splitAvccSample(sample, 0, sample.length - 1, 4)).toThrow(/length 3/);
  expect(() => splitAvccSample(Uint8Array.from([0, 0, 0, 1, 0x85]), 0, 5, 4)).toThrow(/forbidden_zero_bit/);
});
