'use strict';
// How much of a content FDSP sends reliably at each BP (paper 000: "a percentage of I-frame data
// that is to be sent via TCP in addition to the original critical data"), in bytes and in
// packets. What BP can move is the I-slice data: in content where I-slices are a small share,
// every BP sends about the same. Packets of at most `packetBytes` (the unreliable chunk size,
// about an RTP packet as paper 000 counts them): a segment's reliable bytes packed together
// (they go as one stream), its unreliable bytes cut per contiguous range as the sender cuts them
// (chunkRanges). Pure: works on a representation's priority maps (split-segment.js's input).
const { splitSegment, chunkRanges } = require('./split-segment');

const DEFAULT_BPS = [0, 25, 50, 75, 100];

/**
 * @param {{size: number, priority: {ranges: [number, number, string][]}}[]} segments
 *   one representation's segments as its priority-map file lists them
 * @param {{bps?: number[], packetBytes?: number}} [o]
 * @returns {{segments: number, bytes: number, iSliceBytesShare: number, iSlices: number,
 *   byBp: {bp: number, bytesShare: number, packetsShare: number}[]}}
 */
function reliableShares(segments, { bps = DEFAULT_BPS, packetBytes = 1100 } = {}) {
  let bytes = 0;
  let iSliceBytes = 0;
  let iSlices = 0;
  const acc = bps.map(() => ({ reliableBytes: 0, reliablePackets: 0, packets: 0 }));
  for (const s of segments) {
    bytes += s.size;
    for (const [start, end, kind] of s.priority.ranges) {
      if (kind === 'iSliceData') {
        iSliceBytes += end - start;
        iSlices += 1;
      }
    }
    for (const [i, bp] of bps.entries()) {
      const split = splitSegment(s.priority, bp);
      const reliablePackets = Math.ceil(split.reliableBytes / packetBytes);
      acc[i].reliableBytes += split.reliableBytes;
      acc[i].reliablePackets += reliablePackets;
      acc[i].packets += reliablePackets + chunkRanges(split.unreliable, packetBytes).length;
    }
  }
  return {
    segments: segments.length,
    bytes,
    iSliceBytesShare: bytes ? iSliceBytes / bytes : 0,
    iSlices,
    byBp: bps.map((bp, i) => ({
      bp,
      bytesShare: bytes ? acc[i].reliableBytes / bytes : 0,
      packetsShare: acc[i].packets ? acc[i].reliablePackets / acc[i].packets : 0,
    })),
  };
}

module.exports = { reliableShares, DEFAULT_BPS };
