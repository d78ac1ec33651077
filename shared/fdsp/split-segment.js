'use strict';
// FDSP's split of one media segment (paper 000 Sect. 3): the bytes a decoder cannot do
// without go reliably, the rest unreliably. Reliable: everything that is not slice data
// (container boxes, NAL length fields, SPS/PPS, SEI, slice headers, other NAL units) plus the
// first BP % of every I-slice's data (Bitstream Prioritization: "a percentage of I-frame data
// that is to be sent via TCP in addition to the original critical data"). Unreliable: the
// rest of the I-slice data and all P/B-slice data. Pure; works on the segment index's
// priority map (origin/content/media/priority-map.js), not on the bytes.

const RELIABLE_KINDS = new Set(['container', 'parameterSet', 'sei', 'sliceHeader', 'otherNal']);
// Paper 000's UDP-only baseline: only what lets the segment be parsed at all.
const UDP_ONLY_RELIABLE_KINDS = new Set(['container']);

function pushMerged(list, start, end) {
  if (end <= start) return;
  const last = list[list.length - 1];
  if (last && last[1] === start) last[1] = end;
  else list.push([start, end]);
}

/**
 * @param {{ranges: [number, number, string][]}} priority  a segment's priority map
 * @param {number} bp   Bitstream Prioritization, 0-100 (% of each I-slice's data sent reliably)
 * @param {{udpOnly?: boolean}} [o]  udpOnly: the UDP-only baseline (only container boxes reliable,
 *   every NAL unit's bytes unreliable, BP ignored)
 * @returns {{reliable: [number, number][], unreliable: [number, number][], reliableBytes: number, unreliableBytes: number}}
 *   merged, sorted, disjoint half-open ranges whose union is the whole segment
 */
function splitSegment(priority, bp, { udpOnly = false } = {}) {
  if (!(typeof bp === 'number' && bp >= 0 && bp <= 100)) throw new RangeError(`BP must be a number from 0 to 100, got ${bp}`);
  if (!priority || !Array.isArray(priority.ranges)) throw new TypeError('a priority map with ranges is needed');
  const reliable = [];
  const unreliable = [];
  let expected = 0;
  for (const [start, end, kind] of priority.ranges) {
    if (start !== expected || !(end > start)) throw new RangeError(`priority map ranges must be sorted, disjoint and contiguous (range [${start}, ${end}) after ${expected})`);
    expected = end;
    if (!RELIABLE_KINDS.has(kind) && !['iSliceData', 'pbSliceData'].includes(kind)) throw new RangeError(`unknown priority kind "${kind}"`);
    if (udpOnly) pushMerged(UDP_ONLY_RELIABLE_KINDS.has(kind) ? reliable : unreliable, start, end);
    else if (RELIABLE_KINDS.has(kind)) pushMerged(reliable, start, end);
    else if (kind === 'iSliceData') {
      // Ceil: BP > 0 never rounds a slice's share down to nothing; BP 100 is the whole slice.
      const cut = start + Math.ceil(((end - start) * bp) / 100);
      pushMerged(reliable, start, cut);
      pushMerged(unreliable, cut, end);
    } else pushMerged(unreliable, start, end); // pbSliceData
  }
  const sum = (list) => list.reduce((a, [s, e]) => a + e - s, 0);
  return { reliable, unreliable, reliableBytes: sum(reliable), unreliableBytes: sum(unreliable) };
}

/**
 * Cuts ranges into chunks of at most `size` bytes, so one lost packet loses one chunk and no
 * more (paper 000 sends RTP packets; ~1100 bytes fits a packet with SCTP/DTLS/UDP/IP headers).
 * @returns {[number, number][]}
 */
function chunkRanges(ranges, size = 1100) {
  if (!(Number.isInteger(size) && size > 0)) throw new RangeError(`chunk size must be a positive whole number, got ${size}`);
  const chunks = [];
  for (const [start, end] of ranges) {
    for (let s = start; s < end; s += size) chunks.push([s, Math.min(end, s + size)]);
  }
  return chunks;
}

module.exports = { splitSegment, chunkRanges, RELIABLE_KINDS, UDP_ONLY_RELIABLE_KINDS };
