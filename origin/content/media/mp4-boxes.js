'use strict';
// ISO BMFF (fMP4) box parsing, only as far as the lab needs it: the boxes of a DASH media
// segment (styp/sidx/moof/mdat), a fragment's samples (tfhd/tfdt/trun with trex defaults), and
// the init segment's timescale and avcC (NAL length size, SPS, PPS). Runs in Node and in the
// browser: Uint8Array/DataView only. Malformed input throws an Error naming the box and offset;
// nothing loops forever on a zero or lying size.

class Mp4ParseError extends Error {
  constructor(message) {
    super(message);
    this.name = 'Mp4ParseError';
  }
}

function viewOf(bytes) {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function fourcc(bytes, at) {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}

/**
 * The boxes directly inside [start, end) of bytes.
 * @returns {{type: string, start: number, headerSize: number, size: number, end: number}[]}
 */
function listBoxes(bytes, start = 0, end = bytes.byteLength) {
  const view = viewOf(bytes);
  const boxes = [];
  let at = start;
  while (at < end) {
    if (end - at < 8) throw new Mp4ParseError(`truncated box header at offset ${at} (${end - at} bytes left)`);
    let size = view.getUint32(at);
    const type = fourcc(bytes, at + 4);
    let headerSize = 8;
    if (size === 1) {
      if (end - at < 16) throw new Mp4ParseError(`truncated 64-bit size of "${type}" box at offset ${at}`);
      const high = view.getUint32(at + 8);
      const low = view.getUint32(at + 12);
      size = high * 2 ** 32 + low;
      headerSize = 16;
    } else if (size === 0) {
      size = end - at; // "extends to the end of the file"
    }
    if (size < headerSize) throw new Mp4ParseError(`"${type}" box at offset ${at} has impossible size ${size}`);
    if (at + size > end) throw new Mp4ParseError(`"${type}" box at offset ${at} (size ${size}) runs past the end of its container at ${end}`);
    boxes.push({ type, start: at, headerSize, size, end: at + size });
    at += size;
  }
  return boxes;
}

/** The first box of each type along path, e.g. ['moov', 'trak', 'mdia', 'mdhd']. */
function findBox(bytes, path, start = 0, end = bytes.byteLength) {
  let box = null;
  let from = start;
  let to = end;
  for (const type of path) {
    box = listBoxes(bytes, from, to).find((b) => b.type === type) || null;
    if (!box) return null;
    from = box.start + box.headerSize;
    to = box.end;
  }
  return box;
}

function need(box, bytes, length, what) {
  if (box.end - box.start < length) throw new Mp4ParseError(`"${box.type}" box at offset ${box.start} too short for ${what}`);
}

function parseFullBoxHeader(bytes, box) {
  need(box, bytes, box.headerSize + 4, 'version and flags');
  const at = box.start + box.headerSize;
  return { version: bytes[at], flags: (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3], body: at + 4 };
}

function parseTrex(bytes, box) {
  const { body } = parseFullBoxHeader(bytes, box);
  need(box, bytes, body - box.start + 20, 'trex fields');
  const v = viewOf(bytes);
  return {
    trackId: v.getUint32(body),
    defaultSampleDescriptionIndex: v.getUint32(body + 4),
    defaultSampleDuration: v.getUint32(body + 8),
    defaultSampleSize: v.getUint32(body + 12),
    defaultSampleFlags: v.getUint32(body + 16),
  };
}

/** Sequential 32-bit fields of a box body, each read checked against the box's end. */
function fieldReader(bytes, box, start) {
  const v = viewOf(bytes);
  const reader = {
    at: start,
    read32(what) {
      if (reader.at + 4 > box.end) throw new Mp4ParseError(`${box.type} at offset ${box.start} truncated reading ${what}`);
      const x = v.getUint32(reader.at);
      reader.at += 4;
      return x;
    },
  };
  return reader;
}

function parseTfhd(bytes, box) {
  const { flags, body } = parseFullBoxHeader(bytes, box);
  const read32 = fieldReader(bytes, box, body).read32;
  const out = { trackId: read32('track_ID'), flags };
  if (flags & 0x1) {
    const high = read32('base_data_offset');
    out.baseDataOffset = high * 2 ** 32 + read32('base_data_offset');
  }
  if (flags & 0x2) out.sampleDescriptionIndex = read32('sample_description_index');
  if (flags & 0x8) out.defaultSampleDuration = read32('default_sample_duration');
  if (flags & 0x10) out.defaultSampleSize = read32('default_sample_size');
  if (flags & 0x20) out.defaultSampleFlags = read32('default_sample_flags');
  out.defaultBaseIsMoof = Boolean(flags & 0x20000);
  return out;
}

function parseTfdt(bytes, box) {
  const { version, body } = parseFullBoxHeader(bytes, box);
  const v = viewOf(bytes);
  need(box, bytes, body - box.start + (version === 1 ? 8 : 4), 'baseMediaDecodeTime');
  return version === 1 ? v.getUint32(body) * 2 ** 32 + v.getUint32(body + 4) : v.getUint32(body);
}

function parseTrun(bytes, box) {
  const { version, flags, body } = parseFullBoxHeader(bytes, box);
  const fields = fieldReader(bytes, box, body);
  const read32 = fields.read32;
  const sampleCount = read32('sample_count');
  const out = { flags, sampleCount, samples: [] };
  if (flags & 0x1) out.dataOffset = read32('data_offset') | 0; // signed 32-bit
  if (flags & 0x4) out.firstSampleFlags = read32('first_sample_flags');
  const perSample = ((flags & 0x100) ? 4 : 0) + ((flags & 0x200) ? 4 : 0) + ((flags & 0x400) ? 4 : 0) + ((flags & 0x800) ? 4 : 0);
  if (fields.at + perSample * sampleCount > box.end) {
    throw new Mp4ParseError(`trun at offset ${box.start} says ${sampleCount} samples but has room for ${Math.floor((box.end - fields.at) / Math.max(perSample, 1))}`);
  }
  for (let i = 0; i < sampleCount; i++) {
    const s = {};
    if (flags & 0x100) s.duration = read32('sample_duration');
    if (flags & 0x200) s.size = read32('sample_size');
    if (flags & 0x400) s.flags = read32('sample_flags');
    if (flags & 0x800) {
      const raw = read32('composition offset');
      s.compositionOffset = version === 0 ? raw : raw | 0;
    }
    out.samples.push(s);
  }
  return out;
}

/**
 * Samples of every track fragment of a media segment, with absolute byte offsets into it. A
 * segment may hold several movie fragments ([sidx] moof mdat, repeated: ffmpeg's -frag_duration,
 * CMAF chunks); each moof's samples lie in the mdat that follows it.
 * @param {Uint8Array} segment
 * @param {{defaultSampleDuration?: number, defaultSampleSize?: number, defaultSampleFlags?: number}} [trex]
 * @returns {{boxes, moof: {start, end}, mdat: {start, end, payloadStart}, baseMediaDecodeTime: number,
 *   samples: {offset: number, size: number, duration: number, flags: number, isSync: boolean}[],
 *   fragments: {start: number, end: number, firstSample: number, sampleCount: number, baseMediaDecodeTime: number}[]}}
 *   moof/mdat: the first fragment's; fragments partition the segment: fragment k runs from the end
 *   of fragment k-1's mdat (0 for the first, so styp and any sidx go with the fragment they
 *   precede) to the end of its own mdat (the last to the end of the segment)
 */
function parseMediaSegment(segment, trex = {}) {
  const boxes = listBoxes(segment);
  const moofs = boxes.filter((b) => b.type === 'moof');
  if (!moofs.length) throw new Mp4ParseError('media segment has no moof box');
  if (!boxes.some((b) => b.type === 'mdat')) throw new Mp4ParseError('media segment has no mdat box');
  const samples = [];
  const fragments = [];
  let fragmentStart = 0;
  for (const moof of moofs) {
    const mdat = boxes.find((b) => b.type === 'mdat' && b.start >= moof.end);
    if (!mdat) throw new Mp4ParseError(`moof at offset ${moof.start} has no mdat after it`);
    const firstSample = samples.length;
    const base = parseFragment(segment, moof, mdat, trex, samples);
    fragments.push({ start: fragmentStart, end: mdat.end, firstSample, sampleCount: samples.length - firstSample, baseMediaDecodeTime: base ?? 0 });
    fragmentStart = mdat.end;
  }
  fragments[fragments.length - 1].end = segment.byteLength;
  const mdat = boxes.find((b) => b.type === 'mdat' && b.start >= moofs[0].end);
  return {
    boxes,
    moof: { start: moofs[0].start, end: moofs[0].end },
    mdat: { start: mdat.start, end: mdat.end, payloadStart: mdat.start + mdat.headerSize },
    baseMediaDecodeTime: fragments[0].baseMediaDecodeTime,
    samples,
    fragments,
  };
}

/** One movie fragment's samples, pushed onto `samples`; returns its tfdt base (or null). */
function parseFragment(segment, moof, mdat, trex, samples) {
  let baseMediaDecodeTime = null;
  for (const traf of listBoxes(segment, moof.start + moof.headerSize, moof.end).filter((b) => b.type === 'traf')) {
    const children = listBoxes(segment, traf.start + traf.headerSize, traf.end);
    const tfhdBox = children.find((b) => b.type === 'tfhd');
    if (!tfhdBox) throw new Mp4ParseError(`traf at offset ${traf.start} has no tfhd`);
    const tfhd = parseTfhd(segment, tfhdBox);
    const tfdtBox = children.find((b) => b.type === 'tfdt');
    if (tfdtBox && baseMediaDecodeTime === null) baseMediaDecodeTime = parseTfdt(segment, tfdtBox);
    // Without an explicit base, data offsets count from the moof (default-base-is-moof, which
    // every DASH muxer sets; the older "first byte of the moof" rule gives the same here).
    let dataStart = tfhd.baseDataOffset ?? moof.start;
    for (const trunBox of children.filter((b) => b.type === 'trun')) {
      const trun = parseTrun(segment, trunBox);
      let offset = trun.dataOffset !== undefined ? dataStart + trun.dataOffset : dataStart;
      trun.samples.forEach((s, i) => {
        const size = s.size ?? tfhd.defaultSampleSize ?? trex.defaultSampleSize;
        const duration = s.duration ?? tfhd.defaultSampleDuration ?? trex.defaultSampleDuration ?? 0;
        const flags = s.flags ?? (i === 0 && trun.firstSampleFlags !== undefined ? trun.firstSampleFlags : tfhd.defaultSampleFlags ?? trex.defaultSampleFlags ?? 0);
        if (size === undefined) throw new Mp4ParseError(`sample ${i} of trun at offset ${trunBox.start} has no size (none in trun, tfhd or trex)`);
        if (offset < mdat.start + mdat.headerSize || offset + size > mdat.end) {
          throw new Mp4ParseError(`sample ${i} of trun at offset ${trunBox.start} (bytes ${offset}-${offset + size}) lies outside the mdat payload`);
        }
        // sample_is_non_sync_sample is bit 16 of sample flags.
        samples.push({ offset, size, duration, flags, isSync: !(flags & 0x10000) });
        offset += size;
      });
      dataStart = offset;
    }
  }
  return baseMediaDecodeTime;
}

/**
 * What a media segment needs from its init segment: the video timescale, trex defaults and the
 * avcC configuration (NAL length size, SPS and PPS NAL units).
 */
function parseInitSegment(init) {
  const mdhd = findBox(init, ['moov', 'trak', 'mdia', 'mdhd']);
  if (!mdhd) throw new Mp4ParseError('init segment has no moov/trak/mdia/mdhd');
  const { version, body } = parseFullBoxHeader(init, mdhd);
  const v = viewOf(init);
  const timescale = v.getUint32(body + (version === 1 ? 16 : 8));
  const trexBox = findBox(init, ['moov', 'mvex', 'trex']);
  const trex = trexBox ? parseTrex(init, trexBox) : {};
  const stsd = findBox(init, ['moov', 'trak', 'mdia', 'minf', 'stbl', 'stsd']);
  if (!stsd) throw new Mp4ParseError('init segment has no sample description (stsd)');
  // stsd: full box header + entry_count, then sample entries.
  const entries = listBoxes(init, stsd.start + stsd.headerSize + 8, stsd.end);
  const entry = entries.find((b) => b.type === 'avc1' || b.type === 'avc3');
  if (!entry) throw new Mp4ParseError(`no H.264 sample entry (found ${entries.map((b) => b.type).join(', ') || 'none'})`);
  // VisualSampleEntry has 78 bytes of fixed fields before its child boxes.
  const avcCBox = listBoxes(init, entry.start + entry.headerSize + 78, entry.end).find((b) => b.type === 'avcC');
  if (!avcCBox) throw new Mp4ParseError(`${entry.type} sample entry has no avcC box`);
  return { timescale, trex, sampleEntry: entry.type, avcC: parseAvcC(init.subarray(avcCBox.start + avcCBox.headerSize, avcCBox.end)) };
}

function parseAvcC(b) {
  if (b.length < 7) throw new Mp4ParseError('avcC too short');
  const lengthSize = (b[4] & 0x3) + 1;
  const sps = [];
  const pps = [];
  let at = 5;
  const take = (list, count, what) => {
    for (let i = 0; i < count; i++) {
      if (at + 2 > b.length) throw new Mp4ParseError(`avcC truncated in ${what} ${i}`);
      const len = (b[at] << 8) | b[at + 1];
      at += 2;
      if (at + len > b.length) throw new Mp4ParseError(`avcC ${what} ${i} runs past the box`);
      list.push(b.subarray(at, at + len));
      at += len;
    }
  };
  take(sps, b[at++] & 0x1f, 'SPS');
  if (at >= b.length) throw new Mp4ParseError('avcC truncated before PPS count');
  take(pps, b[at++], 'PPS');
  return { profile: b[1], level: b[3], lengthSize, sps, pps };
}

module.exports = { Mp4ParseError, listBoxes, findBox, parseMediaSegment, parseInitSegment, parseAvcC, parseTrun, parseTfhd };
