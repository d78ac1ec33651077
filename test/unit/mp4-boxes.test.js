'use strict';
const { listBoxes, parseMediaSegment, parseInitSegment, Mp4ParseError } = require('../../origin/content/media/mp4-boxes');

function box(type, ...payloads) {
  const body = Buffer.concat(payloads.map((p) => Buffer.from(p)));
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}
function u32(...xs) {
  const b = Buffer.alloc(4 * xs.length);
  xs.forEach((x, i) => b.writeUInt32BE(x >>> 0, 4 * i));
  return b;
}

// A minimal valid segment: moof(mfhd, traf(tfhd, trun)) + mdat holding the samples.
function segment({ trunCount = 2, sizes = [4, 6] } = {}) {
  const tfhd = box('tfhd', u32(0x020000), u32(1)); // default-base-is-moof
  const mfhd = box('mfhd', u32(0), u32(1));
  const trunWith = (dataOffset) => box('trun', u32(0x000301), u32(trunCount), u32(dataOffset), ...sizes.map((s) => u32(1000, s)));
  const moofLen = 8 + mfhd.length + 8 + tfhd.length + trunWith(0).length;
  const moof = box('moof', mfhd, box('traf', tfhd, trunWith(moofLen + 8)));
  const mdat = box('mdat', Buffer.alloc(sizes.reduce((a, b) => a + b, 0), 1));
  return new Uint8Array(Buffer.concat([moof, mdat]));
}

test('samples of a fragment with absolute offsets and durations', () => {
  const seg = segment();
  const p = parseMediaSegment(seg);
  expect(p.samples.map((s) => [s.offset, s.size, s.duration])).toEqual([
    [p.mdat.payloadStart, 4, 1000], [p.mdat.payloadStart + 4, 6, 1000],
  ]);
});

test('truncated and lying boxes are clear errors', () => {
  const seg = segment();
  expect(() => listBoxes(seg.subarray(0, 5))).toThrow(/truncated box header at offset 0/);
  expect(() => listBoxes(seg.subarray(0, seg.length - 1))).toThrow(/"mdat" box .* runs past the end/);
  const zero = Uint8Array.from([0, 0, 0, 4, 0x6d, 0x6f, 0x6f, 0x66]);
  expect(() => listBoxes(zero)).toThrow(/impossible size 4/);
  expect(() => parseMediaSegment(segment({ trunCount: 1000 }))).toThrow(/says 1000 samples/);
  expect(() => parseMediaSegment(segment({ sizes: [4, 600] }).subarray(0, 80))).toThrow(Mp4ParseError);
  expect(() => parseMediaSegment(new Uint8Array(box('mdat', 'x')))).toThrow(/no moof/);
  expect(() => parseInitSegment(new Uint8Array(box('ftyp', 'isom')))).toThrow(/no moov/);
});

test('a sample pointing outside mdat is refused', () => {
  const seg = segment();
  // Corrupt the second sample size to overrun mdat.
  const buf = Buffer.from(seg);
  // trun body after its type: flags, count, data_offset, then (duration, size) per sample.
  const trunAt = buf.indexOf('trun');
  buf.writeUInt32BE(5000, trunAt + 4 + 12 + 8 + 4);
  expect(() => parseMediaSegment(new Uint8Array(buf))).toThrow(/outside the mdat payload/);
});
