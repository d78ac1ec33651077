'use strict';
// Which segment dash.js requests next, for the ABR inputs that need that segment's size (SARA's
// download-time prediction, BBA-2's chunk map and reservoir). It is the segment that starts
// where the video buffer ends: currentTime + buffer level.
//
// dash.js hands out the buffer level rounded to the millisecond (DashMetrics.getCurrentBufferLevel
// rounds to 3 decimals), so a buffer that really ends on a segment boundary (528 s) can read as
// ending just before it (527.9995 s) and a plain floor names the segment already buffered: in
// paper002-connswitch about 1 in 10 of SARA's size-based decisions used the previous segment's
// size that way. A level read before dash.js updated it only errs the other way (the playhead
// has moved on since), so the tolerance needs to cover the rounding only; 10 ms does with room,
// and a seek target that close to a segment's end is rare enough not to matter.
const BOUNDARY_TOLERANCE_SECONDS = 0.01;

/**
 * @param {number} currentTimeSeconds  the video element's playhead
 * @param {number} bufferLevelSeconds  dash.js's buffer level ahead of the playhead (0 when empty)
 * @param {number} segmentDurationSeconds
 * @returns {number} 1-based segment number
 */
function nextSegmentNumber(currentTimeSeconds, bufferLevelSeconds, segmentDurationSeconds) {
  if (!(segmentDurationSeconds > 0)) throw new RangeError(`segment duration must be > 0, got ${segmentDurationSeconds}`);
  const bufferEnd = Math.max(0, currentTimeSeconds || 0) + Math.max(0, bufferLevelSeconds || 0);
  return Math.floor((bufferEnd + BOUNDARY_TOLERANCE_SECONDS) / segmentDurationSeconds) + 1;
}

module.exports = { nextSegmentNumber, BOUNDARY_TOLERANCE_SECONDS };
