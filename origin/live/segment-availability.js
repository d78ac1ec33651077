'use strict';
// When a live stream's segment may be fetched (ISO/IEC 23009-1 §5.3.9.5, number-based
// SegmentTemplate, one period starting at 0): segment n (1-based) holds media time
// [(n - 1)·d, n·d); it is complete, and available, once the broadcast has reached its end,
// availabilityStartTime + n·d; it stays available for the time-shift window after that. Pure.

/**
 * @param {object} o
 * @param {number} o.startMs           availabilityStartTime (ms since the epoch)
 * @param {number} o.nowMs             the origin's clock
 * @param {number} o.segmentSeconds    d
 * @param {number} o.number            the segment's number (1-based)
 * @param {number} o.segmentCount      segments in the content (the broadcast ends after the last)
 * @param {number} o.timeShiftSeconds  the time-shift window (timeShiftBufferDepth)
 * @returns {{available: true} | {available: false, reason: 'not-yet'|'gone'|'past-end', inMs?: number, message: string}}
 */
function segmentAvailability({ startMs, nowMs, segmentSeconds, number, segmentCount, timeShiftSeconds }) {
  if (number > segmentCount) return { available: false, reason: 'past-end', message: `segment ${number} is past the end of the broadcast (${segmentCount} segments)` };
  const availableAtMs = startMs + number * segmentSeconds * 1000;
  if (nowMs < availableAtMs) {
    const inMs = availableAtMs - nowMs;
    return { available: false, reason: 'not-yet', inMs, message: `segment ${number} is not available yet (in ${(inMs / 1000).toFixed(3)} s)` };
  }
  // The window is measured from the segment's end, plus its own duration: a segment that has
  // just left the player's time-shift buffer may still be in flight.
  const goneAtMs = availableAtMs + (timeShiftSeconds + segmentSeconds) * 1000;
  if (nowMs >= goneAtMs) return { available: false, reason: 'gone', message: `segment ${number} has left the ${timeShiftSeconds} s time-shift window` };
  return { available: true };
}

module.exports = { segmentAvailability };
