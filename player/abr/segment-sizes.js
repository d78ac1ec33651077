'use strict';
// Where segment sizes come from: the project's segment index when the caller passed it, else
// the nominal size a rung's @bandwidth implies for one segment (bandwidth * V / 8 bytes). The
// fallback is named in every decision's reason, because SARA and BBA-2 exist to use the REAL
// sizes (VBR segments of one rung differ by 2x or more, BBA paper Figure 10).

/** bytes of one segment at `bandwidth` bits/s lasting `seconds` */
function nominalSegmentBytes(bandwidth, seconds) {
  return (bandwidth * seconds) / 8;
}

/**
 * @param {import('./decision-input').DecisionInput} input
 * @param {'nextSegmentSizes'|'averageSegmentSizes'} field
 * @returns {{bytes: number[], fromIndex: boolean}}
 */
function segmentSizesOrNominal(input, field) {
  const given = input[field];
  if (Array.isArray(given)) return { bytes: given.slice(), fromIndex: true };
  return { bytes: input.ladder.map((r) => nominalSegmentBytes(r.bandwidth, input.segmentDurationSeconds)), fromIndex: false };
}

module.exports = { nominalSegmentBytes, segmentSizesOrNominal };
