'use strict';
// When the machine's wall clock was set during a playback. A live playback's latency is the wall
// clock minus the stream's start minus the media time (player/qoe/live-latency.js), and the
// origin's live edge is the wall clock too, so a step (a VM paused and resumed has its wall clock
// set forward by the pause, which the monotonic clocks do not count: lab-clock.js; or a time
// daemon) moves the latency by the step's size with no stall behind it: on 2026-12-06 a 6.4 s step
// in one of 155 ten-minute paper002 playbacks showed as 6.7 s of latency growth without
// rebuffering. Any playback's ABR reads it too: the abandonment check times a download from
// dash.js's request start, a wall-clock Date (player/dash/custom-abr-rule.js), so a step during
// a download makes it look that much slower. The runner reads the wall clock and the monotonic
// one (which never steps) around each playback; one whose two readings part by more than the
// limit is set aside and played again, as one whose emulator timers ran late is (late-timers.js).
// The lab's own timings (segments, stalls, startup) are performance.now(), which does not step.

const { labNowMs } = require('./lab-clock');

// Over those 155 playbacks the two clocks otherwise agreed within 4 ms between switches; live
// latency is reported to 0.1 s.
const CLOCK_STEP_LIMIT_MS = 100;

// What a step falsifies, as every message about one names it (progress line, set-aside reason,
// report note): one phrase, so a change of what reads the wall clock is said everywhere at once.
const WALL_CLOCK_READERS = "live latency and the ABR's download timing";

/** Both clocks now, in ms (labNowMs: the runner's monotonic clock, lab-clock.js). */
function readClocks() {
  return { wallMs: Date.now(), monoMs: labNowMs() };
}

/**
 * How far the wall clock moved beyond the time that passed. Pure.
 * @param {{wallMs: number, monoMs: number}} start
 * @param {{wallMs: number, monoMs: number}} end
 * @returns {{wallSeconds: number, monoSeconds: number, stepMs: number}}  stepMs > 0: set forward
 */
function clockStep(start, end) {
  const wallMs = end.wallMs - start.wallMs;
  const monoMs = end.monoMs - start.monoMs;
  return { wallSeconds: wallMs / 1000, monoSeconds: monoMs / 1000, stepMs: wallMs - monoMs };
}

/**
 * @param {object} record  a playback record; `clock` is clockStep's result (since 2026-12-06)
 * @param {number} [limitMs]
 * @returns {{stepMs: number}|null}  the step, when the record is ok and stepped past the limit
 */
function clockSteppedBeyondLimit(record, limitMs = CLOCK_STEP_LIMIT_MS) {
  if (!record || record.status !== 'ok' || !record.clock) return null;
  if (!(Math.abs(record.clock.stepMs) > limitMs)) return null;
  return { stepMs: record.clock.stepMs };
}

module.exports = { readClocks, clockStep, clockSteppedBeyondLimit, CLOCK_STEP_LIMIT_MS, WALL_CLOCK_READERS };
