'use strict';
// FDSP's pure parts: the reliable/unreliable split by BP, chunking, the frame protocol against
// malformed input, and reassembly with chunks dropped, reordered and duplicated.
const { splitSegment, chunkRanges } = require('../../shared/fdsp/split-segment');
const frames = require('../../shared/fdsp/frames');
const { SegmentAssembler } = require('../../shared/fdsp/segment-assembler');

// A generated map: container, SPS, PPS, then per slice a header and its data; two I slices
// of 1000 and 333 bytes, one P slice of 500.
const MAP = {
  ranges: [
    [0, 100, 'container'], [100, 120, 'parameterSet'], [120, 128, 'parameterSet'], [128, 132, 'container'],
    [132, 140, 'sliceHeader'], [140, 1140, 'iSliceData'], [1140, 1144, 'container'],
    [1144, 1150, 'sliceHeader'], [1150, 1483, 'iSliceData'], [1483, 1487, 'container'],
    [1487, 1492, 'sliceHeader'], [1492, 1992, 'pbSliceData'],
  ],
};
const covered = (ranges) => ranges.reduce((a, [s, e]) => a + e - s, 0);

describe('split by Bitstream Prioritization', () => {
  test.each([
    // BP % of each I slice (ceil): 1000 -> 0/250/500/750/1000, 333 -> 0/84/167/250/333
    [0, 140 + 10 + 9, []],
    [25, 140 + 250 + 10 + 84 + 9, [[140, 390], [1150, 1234]]],
    [50, 140 + 500 + 10 + 167 + 9, [[140, 640], [1150, 1317]]],
    [75, 140 + 750 + 10 + 250 + 9, [[140, 890], [1150, 1400]]],
    [100, 140 + 1000 + 10 + 333 + 9, [[140, 1140], [1150, 1483]]],
  ])('BP %p: byte-exact reliable share, reliable and unreliable disjoint and covering the segment', (bp, reliableBytes, iParts) => {
    const s = splitSegment(MAP, bp);
    expect(s.reliableBytes).toBe(reliableBytes);
    expect(s.reliableBytes + s.unreliableBytes).toBe(1992);
    // Every byte exactly once.
    const owner = new Uint8Array(1992);
    for (const [a, b] of s.reliable) for (let i = a; i < b; i += 1) owner[i] += 1;
    for (const [a, b] of s.unreliable) for (let i = a; i < b; i += 1) owner[i] += 1;
    expect(owner.every((x) => x === 1)).toBe(true);
    // Headers, parameter sets and containers are always reliable; P data never.
    const rel = (i) => s.reliable.some(([a, b]) => i >= a && i < b);
    for (const i of [0, 110, 125, 135, 1145, 1490]) expect(rel(i)).toBe(true);
    for (const i of [1492, 1991]) expect(rel(i)).toBe(false);
    for (const [a, b] of iParts) expect(rel(a) && rel(b - 1)).toBe(true);
  });

  test('UDP-only (paper 000\'s baseline): only the container boxes reliable, whatever the BP', () => {
    for (const bp of [0, 100]) {
      const s = splitSegment(MAP, bp, { udpOnly: true });
      const containers = MAP.ranges.filter(([, , k]) => k === 'container');
      expect(s.reliableBytes).toBe(containers.reduce((a, [x, y]) => a + y - x, 0));
      expect(s.reliableBytes + s.unreliableBytes).toBe(1992);
      // The SPS/PPS and slice headers go unreliable too.
      expect(s.unreliable).toContainEqual([100, 128]);
    }
  });

  test('bad input is refused', () => {
    expect(() => splitSegment(MAP, 101)).toThrow(/BP must be a number from 0 to 100/);
    expect(() => splitSegment({ ranges: [[0, 10, 'container'], [12, 20, 'sei']] }, 0)).toThrow(/contiguous/);
    expect(() => splitSegment({ ranges: [[0, 10, 'magic']] }, 0)).toThrow(/unknown priority kind/);
  });

  test('chunks of at most one packet, covering the ranges exactly', () => {
    expect(chunkRanges([[0, 2500], [3000, 3100]], 1100)).toEqual([[0, 1100], [1100, 2200], [2200, 2500], [3000, 3100]]);
    expect(covered(chunkRanges(splitSegment(MAP, 25).unreliable))).toBe(splitSegment(MAP, 25).unreliableBytes);
    expect(() => chunkRanges([[0, 1]], 0)).toThrow(/positive whole number/);
  });
});

describe('frames', () => {
  test('every type survives encode -> decode', () => {
    const req = frames.decodeFrame(frames.encodeRequest(7, { url: '/content/sample/chunk-0-00001.m4s', range: [0, 99], bp: 25, deadlineMs: 1500 }));
    expect(req).toEqual({ type: 'REQUEST', requestId: 7, offset: 0, payload: { url: '/content/sample/chunk-0-00001.m4s', range: [0, 99], bp: 25, deadlineMs: 1500 } });
    const data = frames.decodeFrame(frames.encodeData(7, 4096, Uint8Array.from([1, 2, 3])));
    expect(data.type).toBe('DATA');
    expect(data.offset).toBe(4096);
    expect([...data.bytes]).toEqual([1, 2, 3]);
    expect(frames.decodeFrame(frames.encodeHead(7, { status: 200, totalBytes: 3 })).payload).toEqual({ status: 200, totalBytes: 3 });
    expect(frames.decodeFrame(frames.encodeEnd(7, { unreliableChunks: 2 })).type).toBe('END');
    expect(frames.decodeFrame(frames.encodeError(7, 404, 'no such file')).payload).toEqual({ status: 404, message: 'no such file' });
    expect(frames.decodeFrame(frames.encodeCancel(7)).type).toBe('CANCEL');
    // Node Buffers (what node-datachannel hands over) decode the same.
    expect(frames.decodeFrame(Buffer.from(frames.encodeCancel(9))).requestId).toBe(9);
  });

  test('a REQUEST may carry the unreliable pace: kept when given, refused outside 100 kbit/s-10 Gbit/s', () => {
    const decode = (payload) => frames.decodeFrame(frames.encodeRequest(7, { url: '/x', bp: 0, ...payload })).payload;
    expect(decode({ paceBps: 3e6 })).toEqual({ url: '/x', range: null, bp: 0, deadlineMs: null, paceBps: 3e6 });
    expect(decode({ paceBps: null }).paceBps).toBeNull();
    expect(decode({})).not.toHaveProperty('paceBps');
    for (const bad of [5, 2e10, '3e6', -1]) expect(() => decode({ paceBps: bad })).toThrow(/paceBps must be/);
    expect(decode({ udpOnly: true }).udpOnly).toBe(true);
    expect(decode({ udpOnly: false })).not.toHaveProperty('udpOnly');
    expect(() => decode({ udpOnly: 'yes' })).toThrow(/udpOnly must be true or false/);
  });

  test('malformed frames throw FrameError with a code, never anything else', () => {
    const good = frames.encodeRequest(1, { url: '/x', bp: 0 });
    const variants = {
      'not-binary': 'hello',
      'too-short': new Uint8Array(5),
      'bad-magic': Uint8Array.from([0, ...good.subarray(1)]),
      'bad-version': Uint8Array.from([0xfd, 9, ...good.subarray(2)]),
      'bad-type': Uint8Array.from([0xfd, 1, 99, ...good.subarray(3)]),
      'too-large': new Uint8Array(frames.MAX_FRAME_BYTES + 1).fill(0xfd),
      'bad-json': Uint8Array.from([...good.subarray(0, 12), 0x7b, 0xff]),
    };
    for (const [code, bytes] of Object.entries(variants)) {
      let err;
      try {
        frames.decodeFrame(bytes);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(frames.FrameError);
      expect(err.code).toBe(code);
    }
    const withPayload = (obj) => {
      const json = new TextEncoder().encode(JSON.stringify(obj));
      return Uint8Array.from([...good.subarray(0, 12), ...json]);
    };
    expect(() => frames.decodeFrame(withPayload({ url: '/x', bp: 150 }))).toThrow(/bp must be 0-100/);
    expect(() => frames.decodeFrame(withPayload({ url: '/x', bp: 0, range: [5, 2] }))).toThrow(/first <= last/);
    expect(() => frames.decodeFrame(withPayload({ bp: 0 }))).toThrow(/needs a url/);
    expect(() => frames.decodeFrame(withPayload([1, 2]))).toThrow(/must be a JSON object/);
    // Random garbage: only FrameErrors.
    let seed = 1;
    const rnd = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    for (let n = 0; n < 2000; n += 1) {
      const bytes = Uint8Array.from({ length: Math.floor(rnd() * 40) }, () => Math.floor(rnd() * 256));
      if (rnd() < 0.5 && bytes.length > 3) { bytes[0] = 0xfd; bytes[1] = 1; bytes[2] = [1, 2, 16, 17, 18, 19][Math.floor(rnd() * 6)]; }
      try {
        frames.decodeFrame(bytes);
      } catch (e) {
        expect(e).toBeInstanceOf(frames.FrameError);
      }
    }
  });
});

describe('reassembly', () => {
  const body = Uint8Array.from({ length: 1992 }, (_, i) => (i * 7 + 3) % 256);
  const split = splitSegment(MAP, 25);
  const head = { totalBytes: 1992, reliableBytes: split.reliableBytes, unreliableBytes: split.unreliableBytes, unreliableChunks: chunkRanges(split.unreliable, 200).length };
  const relChunks = chunkRanges(split.reliable, 500);
  const unrelChunks = chunkRanges(split.unreliable, 200);

  test('reordered and duplicated chunks give back the exact bytes', () => {
    const a = new SegmentAssembler(head);
    const all = [...relChunks.map((c) => [c, 'reliable']), ...unrelChunks.map((c) => [c, 'unreliable'])].reverse();
    for (const [[s, e], ch] of [...all, all[0], all[3]]) a.add(s, body.subarray(s, e), ch);
    expect(a.complete).toBe(true);
    const r = a.finish();
    expect(Buffer.from(r.bytes).equals(Buffer.from(body))).toBe(true);
    expect(r).toMatchObject({ lostBytes: 0, lostChunks: 0, duplicates: 2, plr: 0 });
  });

  test('dropped unreliable chunks stay zero in place and count as lost; reliable bytes decide completion', () => {
    const a = new SegmentAssembler(head);
    for (const [s, e] of relChunks.slice(1)) a.add(s, body.subarray(s, e), 'reliable');
    expect(a.reliableComplete).toBe(false);
    a.add(relChunks[0][0], body.subarray(...relChunks[0]), 'reliable');
    expect(a.reliableComplete).toBe(true);
    const dropped = [unrelChunks[1], unrelChunks[3]];
    for (const c of unrelChunks) if (!dropped.includes(c)) a.add(c[0], body.subarray(...c), 'unreliable');
    expect(a.complete).toBe(false);
    const r = a.finish();
    expect(r.lostChunks).toBe(2);
    expect(r.lostBytes).toBe(dropped.reduce((x, [s, e]) => x + e - s, 0));
    expect(r.unreliableLossRatio).toBeCloseTo(2 / unrelChunks.length, 12);
    // PLR over all packets: the reliable bytes count as packets of the default 1100-byte chunk.
    expect(r.plr).toBeCloseTo(2 / (unrelChunks.length + Math.ceil(split.reliableBytes / 1100)), 12);
    for (const [s, e] of dropped) expect(r.bytes.subarray(s, e).every((x) => x === 0)).toBe(true);
    const kept = unrelChunks[0];
    expect(Buffer.from(r.bytes.subarray(...kept)).equals(Buffer.from(body.subarray(...kept)))).toBe(true);
  });

  test('chunks that do not fit, and heads that do not add up, are refused', () => {
    const a = new SegmentAssembler(head);
    expect(() => a.add(1990, new Uint8Array(5), 'reliable')).toThrow(/does not fit/);
    expect(() => a.add(0, new Uint8Array(0), 'reliable')).toThrow(/does not fit/);
    expect(() => new SegmentAssembler({ ...head, totalBytes: 5 })).toThrow(/must equal totalBytes/);
  });
});
