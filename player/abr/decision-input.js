'use strict';
// What every lab ABR decision sees, documented once, and the check that it is well formed.
//
// Every lab algorithm (basic.js, sara.js, bba2.js, fixed.js; the registry entry around it is in
// contract.js) shares one signature:
//
//   decide(input, state, params) -> { representationIndex, delayMs, state, reason, details }
//
//   input   a DecisionInput (below): the player's view right now. Nothing else reaches the
//           algorithm: no dash.js objects, no clock, no DOM, so a decision can be replayed
//           from a logged input.
//   state   what the algorithm carried over from its previous decision (null/undefined before
//           the first one). Never mutated: a new state comes back in the result.
//   params  overrides of the algorithm's `defaults` (missing keys take the default).
//
//   representationIndex  the ladder position to request next
//   delayMs              how long to wait before that request (0 = now); the algorithms assume
//                        playback drains the buffer at 1 s per s while they wait
//   reason               one line saying which rule decided, for the QoE log
//   details              the numbers behind the decision (throughput, thresholds, ...)
//
// Units are in the names: bytes, seconds, bits per second. Sizes are BYTES everywhere (the
// segment index stores bytes); bitrates are BITS per second (the MPD's @bandwidth).

/**
 * One rung of the bitrate ladder.
 * @typedef {object} LadderRung
 * @property {number} index      the rung's position in `ladder` (0 = lowest); the caller maps it
 *                               back to a dash.js Representation
 * @property {number} bandwidth  nominal bitrate, bits/s (the MPD's @bandwidth)
 *   Other properties (e.g. `id`) are allowed and ignored.
 */

/**
 * One finished media-segment download, as the transport saw it.
 * @typedef {object} SegmentDownload
 * @property {number} bytes    bytes received (> 0)
 * @property {number} seconds  request sent to last byte received (> 0)
 * @property {number|null} [representationIndex]  ladder position of what was downloaded; -1 or
 *   null if it is not in the current ladder. Informational: no algorithm here needs it.
 */

/**
 * @typedef {object} DecisionInput
 * @property {LadderRung[]} ladder   ascending by bandwidth, strictly, `index` equal to position
 * @property {number|null} currentIndex  the rung of the last requested segment; null before the
 *   first request
 * @property {number} bufferLevelSeconds     media buffered ahead of the playhead (>= 0)
 * @property {number} segmentDurationSeconds V, the nominal segment duration (> 0)
 * @property {SegmentDownload[]} recentDownloads  most recent LAST; may be empty. BASIC and SARA
 *   use the last few (their window); BBA-2 uses the last one during startup.
 * @property {number[]|null} [nextSegmentSizes]  bytes of the NEXT segment at each ladder index,
 *   from the segment index. Absent: the algorithms fall back to bandwidth * V / 8 and say so in
 *   `reason` (SARA's and BBA-2's point is the real sizes, so the fallback loses that).
 * @property {number[]|null} [averageSegmentSizes]  bytes, mean segment size of each rung over the
 *   whole stream (BBA-2's chunk map runs from the lowest rung's to the highest rung's mean).
 *   Absent: bandwidth * V / 8.
 * @property {number[]|null} [upcomingLowestRungSizes]  bytes of the upcoming segments at the
 *   LOWEST rung, next segment first, as many as the content has up to BBA-2's look-ahead window
 *   (2 x its buffer). Absent: BBA-2 uses a fixed-fraction reservoir and says so.
 * @property {number} [nextSegmentNumber]  the 1-based number of the segment being decided for, the
 *   one the size arrays start at (informational: recorded with each decision)
 * @property {boolean} [started]      playback has shown its first frame (informational)
 * @property {boolean} [playing]      the playhead is advancing now (informational)
 * @property {boolean} [justSeeked]   true from a seek until playback resumes at the target; an
 *   algorithm reacts once, on the first decision where it turns true (it keeps that in state)
 * @property {boolean} [holdCurrent]  keep the current rung (paper 002 §3.1: "we kept the
 *   requested bitrate unchanged during seeking"); the caller sets it while a seek is pending,
 *   with currentIndex at the rung that was on screen when the seek was asked for ("the last
 *   played segment before the seeking")
 */

function describe(value) {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  return String(value);
}

function fail(ErrorType, message) {
  throw new ErrorType(`decision input: ${message}`);
}

function checkNumber(value, name, { min = -Infinity, exclusiveMin = false } = {}) {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(TypeError, `${name} must be a finite number, got ${describe(value)}`);
  if (exclusiveMin ? value <= min : value < min) fail(RangeError, `${name} must be ${exclusiveMin ? '>' : '>='} ${min}, got ${value}`);
}

function checkOptionalBoolean(input, name) {
  const v = input[name];
  if (v !== undefined && v !== null && typeof v !== 'boolean') fail(TypeError, `${name} must be a boolean when given, got ${describe(v)}`);
}

function checkSizesPerRung(input, name, rungs) {
  const sizes = input[name];
  if (sizes === undefined || sizes === null) return;
  if (!Array.isArray(sizes)) fail(TypeError, `${name} must be an array of bytes (one per ladder rung) or null, got ${describe(sizes)}`);
  if (sizes.length !== rungs) fail(RangeError, `${name} has ${sizes.length} entries but the ladder has ${rungs} rungs`);
  sizes.forEach((s, i) => checkNumber(s, `${name}[${i}] (bytes)`, { min: 0, exclusiveMin: true }));
}

function checkLadder(ladder) {
  if (!Array.isArray(ladder)) fail(TypeError, `ladder must be an array of {index, bandwidth}, got ${describe(ladder)}`);
  if (ladder.length === 0) fail(RangeError, 'ladder is empty: there is nothing to choose from');
  ladder.forEach((rung, i) => {
    if (!rung || typeof rung !== 'object') fail(TypeError, `ladder[${i}] must be an object {index, bandwidth}, got ${describe(rung)}`);
    if (rung.index !== i) fail(RangeError, `ladder[${i}].index is ${describe(rung.index)}; it must equal its position ${i}`);
    checkNumber(rung.bandwidth, `ladder[${i}].bandwidth (bits/s)`, { min: 0, exclusiveMin: true });
    if (i > 0 && !(rung.bandwidth > ladder[i - 1].bandwidth)) {
      fail(RangeError, `ladder is not sorted strictly ascending by bandwidth: ladder[${i - 1}] is ${ladder[i - 1].bandwidth} bits/s, ladder[${i}] is ${rung.bandwidth} bits/s`);
    }
  });
}

function checkDownloads(downloads, rungs) {
  if (!Array.isArray(downloads)) fail(TypeError, `recentDownloads must be an array (most recent last; empty before the first download), got ${describe(downloads)}`);
  downloads.forEach((d, i) => {
    if (!d || typeof d !== 'object') fail(TypeError, `recentDownloads[${i}] must be an object {bytes, seconds}, got ${describe(d)}`);
    checkNumber(d.bytes, `recentDownloads[${i}].bytes`, { min: 0, exclusiveMin: true });
    checkNumber(d.seconds, `recentDownloads[${i}].seconds`, { min: 0, exclusiveMin: true });
    const r = d.representationIndex;
    if (r !== undefined && r !== null && !(Number.isInteger(r) && r >= -1 && r < rungs)) {
      fail(RangeError, `recentDownloads[${i}].representationIndex must be a ladder position 0..${rungs - 1}, -1 or null, got ${describe(r)}`);
    }
  });
}

/**
 * Throws a TypeError or RangeError naming the first malformed field; returns the input.
 * @param {DecisionInput} input
 * @returns {DecisionInput}
 */
function validateDecisionInput(input) {
  if (!input || typeof input !== 'object' || Array.isArray(input)) fail(TypeError, `must be an object, got ${describe(input)}`);
  checkLadder(input.ladder);
  const rungs = input.ladder.length;
  const c = input.currentIndex;
  if (c !== undefined && c !== null && !(Number.isInteger(c) && c >= 0 && c < rungs)) {
    fail(RangeError, `currentIndex must be a ladder position 0..${rungs - 1} or null, got ${describe(c)}`);
  }
  checkNumber(input.bufferLevelSeconds, 'bufferLevelSeconds', { min: 0 });
  checkNumber(input.segmentDurationSeconds, 'segmentDurationSeconds', { min: 0, exclusiveMin: true });
  checkDownloads(input.recentDownloads, rungs);
  checkSizesPerRung(input, 'nextSegmentSizes', rungs);
  checkSizesPerRung(input, 'averageSegmentSizes', rungs);
  const upcoming = input.upcomingLowestRungSizes;
  if (upcoming !== undefined && upcoming !== null) {
    if (!Array.isArray(upcoming)) fail(TypeError, `upcomingLowestRungSizes must be an array of bytes or null, got ${describe(upcoming)}`);
    upcoming.forEach((s, i) => checkNumber(s, `upcomingLowestRungSizes[${i}] (bytes)`, { min: 0, exclusiveMin: true }));
  }
  for (const flag of ['started', 'playing', 'justSeeked', 'holdCurrent']) checkOptionalBoolean(input, flag);
  return input;
}

module.exports = { validateDecisionInput };
