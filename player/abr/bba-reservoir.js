'use strict';
// BBA-1/BBA-2's dynamic reservoir (Huang et al., SIGCOMM 2014, §5.1 and Figure 12).
//
// With VBR the chunks of the lowest rate are not all V * R_min bits: when the capacity is just
// R_min, a big chunk takes longer than V to download and the buffer shrinks; a small one lets it
// grow. The reservoir is "the amount of buffer the client will consume minus the amount it can
// resupply during the next X seconds" at capacity R_min:
//
//   reservoir = sum over the chunks of the next X seconds of (8 * size_i / R_min - V)
//
// X is twice the buffer (the paper's 480 s for a 240 s buffer). The paper bounds the result to
// 8..140 s of its 240 s buffer; we keep those as fractions of the buffer so they scale to the
// 20 s buffer of paper 002, and never go below one chunk (§4: "the size of reservoir needs to be
// at least one chunk").

/**
 * @param {object} o
 * @param {number[]} o.upcomingLowestRungSizes  bytes, next segment first
 * @param {number} o.lowestBandwidth            R_min, bits/s
 * @param {number} o.segmentDurationSeconds     V
 * @param {number} o.lookaheadSeconds           X
 * @param {number} o.minSeconds
 * @param {number} o.maxSeconds
 * @returns {{reservoirSeconds: number, rawSeconds: number, chunks: number}}
 */
function dynamicReservoir({ upcomingLowestRungSizes, lowestBandwidth, segmentDurationSeconds: V, lookaheadSeconds, minSeconds, maxSeconds }) {
  // Chunks that start inside the window; near the end of the content, what is left.
  const windowChunks = Math.floor(lookaheadSeconds / V + 1e-9);
  const chunks = Math.min(windowChunks, upcomingLowestRungSizes.length);
  let raw = 0;
  for (let i = 0; i < chunks; i += 1) raw += (8 * upcomingLowestRungSizes[i]) / lowestBandwidth - V;
  const reservoirSeconds = Math.min(Math.max(raw, minSeconds), Math.max(maxSeconds, minSeconds));
  return { reservoirSeconds, rawSeconds: raw, chunks };
}

module.exports = { dynamicReservoir };
