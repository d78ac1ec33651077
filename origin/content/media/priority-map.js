'use strict';
// The priority map of one media segment: which bytes matter how much. FDSP (paper 000) sends
// the critical bytes reliably and the rest unreliably; here "critical" is everything a decoder
// needs to even parse the segment (container boxes, NAL length fields, parameter sets, SEI,
// slice headers), and the rest is slice data, split by the slice type because Bitstream
// Prioritization also sends BP % of every I-slice's data reliably.
//
// Format (all offsets are into the segment, ranges half-open [start, end)):
// {
//   moof: [start, end],
//   ranges: [[start, end, kind], ...]   sorted, disjoint, covering [0, segment length) exactly;
//      kind: 'container'    box bytes outside media data, mdat header, NAL length fields
//            'parameterSet' an SPS or PPS NAL unit
//            'sei'          an SEI NAL unit
//            'sliceHeader'  a slice NAL's header byte and slice_header() to its end rounded up
//            'iSliceData'   the rest of one I/SI slice NAL (one range per slice, never merged)
//            'pbSliceData'  the rest of one P/B/SP slice NAL (one range per slice)
//            'otherNal'     any other NAL unit (AUD, filler, end of sequence, ...)
//   frames: [{sample, type: 'I'|'P'|'B', idr, start, end}]  one per sample (access unit), the
//      type of its first slice; start/end span the sample's bytes
//   counts: {kind: bytes} totals
//   fragments: [[start, end, offsetSeconds], ...]  the segment's movie fragments ([sidx] moof
//      mdat), partitioning it in order; offsetSeconds: the fragment's first sample's media time
//      after the segment's first (0 for the first). One entry for a segment of one fragment;
//      absent in content built before fragments were recorded (read it as [[0, size, 0]]).
//      Paper 000's playout hands each fragment to the decoder at its own deadline.
// }
const { parseMediaSegment, parseInitSegment } = require('./mp4-boxes');
const { splitAvccSample } = require('./h264/nal-units');
const { parseSps, parsePps } = require('./h264/parameter-sets');
const { parseSliceHeader } = require('./h264/slice-header');

/** Parameter sets known from the init segment, as id -> parsed maps. */
function parameterSetsFromInit(initInfo) {
  const spsById = new Map();
  const ppsById = new Map();
  for (const nal of initInfo.avcC.sps) {
    const sps = parseSps(nal);
    spsById.set(sps.id, sps);
  }
  for (const nal of initInfo.avcC.pps) {
    const pps = parsePps(nal, spsById);
    ppsById.set(pps.id, pps);
  }
  return { spsById, ppsById };
}

function pushRange(ranges, start, end, kind) {
  if (end <= start) return;
  const last = ranges[ranges.length - 1];
  if (last && last[2] === 'container' && kind === 'container' && last[1] === start) {
    last[1] = end;
    return;
  }
  ranges.push([start, end, kind]);
}

/**
 * @param {Uint8Array} initBytes  the representation's init segment
 * @param {Uint8Array} segment    one media segment
 * @param {object} [initInfo]     parseInitSegment(initBytes), to avoid reparsing per segment
 */
function buildPriorityMap(initBytes, segment, initInfo = parseInitSegment(initBytes)) {
  const { spsById, ppsById } = parameterSetsFromInit(initInfo);
  const parsed = parseMediaSegment(segment, initInfo.trex);
  const lengthSize = initInfo.avcC.lengthSize;
  const ranges = [];
  const frames = [];
  let at = 0;
  const samples = parsed.samples.slice().sort((a, b) => a.offset - b.offset);
  samples.forEach((sample, index) => {
    pushRange(ranges, at, sample.offset, 'container');
    let frame = null;
    for (const nal of splitAvccSample(segment, sample.offset, sample.size, lengthSize)) {
      pushRange(ranges, nal.lengthStart, nal.start, 'container');
      const bytes = segment.subarray(nal.start, nal.end);
      if (nal.type === 7) {
        // In-band parameter sets replace the init segment's for the slices that follow.
        const sps = parseSps(bytes);
        spsById.set(sps.id, sps);
        pushRange(ranges, nal.start, nal.end, 'parameterSet');
      } else if (nal.type === 8) {
        const pps = parsePps(bytes, spsById);
        ppsById.set(pps.id, pps);
        pushRange(ranges, nal.start, nal.end, 'parameterSet');
      } else if (nal.type === 6) {
        pushRange(ranges, nal.start, nal.end, 'sei');
      } else if (nal.type === 1 || nal.type === 5) {
        const header = parseSliceHeader(bytes, spsById, ppsById);
        const headerEnd = nal.start + Math.min(header.headerEnd, bytes.length);
        pushRange(ranges, nal.start, headerEnd, 'sliceHeader');
        const intra = header.sliceType === 'I' || header.sliceType === 'SI';
        pushRange(ranges, headerEnd, nal.end, intra ? 'iSliceData' : 'pbSliceData');
        if (!frame) {
          frame = { sample: index, type: header.sliceType === 'SI' ? 'I' : header.sliceType === 'SP' ? 'P' : header.sliceType, idr: header.idr, start: sample.offset, end: sample.offset + sample.size };
        }
      } else {
        pushRange(ranges, nal.start, nal.end, 'otherNal');
      }
      at = nal.end;
    }
    at = sample.offset + sample.size;
    if (frame) frames.push(frame);
  });
  pushRange(ranges, at, segment.byteLength, 'container');
  const counts = {};
  for (const [s, e, kind] of ranges) counts[kind] = (counts[kind] || 0) + (e - s);
  const timescale = initInfo.timescale || 1;
  const first = parsed.fragments[0].baseMediaDecodeTime;
  const fragments = parsed.fragments.map((f) => [f.start, f.end, (f.baseMediaDecodeTime - first) / timescale]);
  return { moof: [parsed.moof.start, parsed.moof.end], ranges, frames, counts, fragments };
}

module.exports = { buildPriorityMap, parameterSetsFromInit };
