'use strict';
// How the algorithms see a seek. A seek flushes the buffer, so the buffer-based algorithms (SARA,
// BBA-2) drop to their lowest rate right after one; paper 002 §4.2 says as much ("SARA and BBA-2
// are sensitive to empty buffer"). Two ways of softening that exist, both optional:
//
// - input.holdCurrent (paper 002 §3.1): the caller asks to keep the current rung while the seek
//   is pending. The algorithm then only keeps its bookkeeping and repeats the current rung.
// - params.seekHoldDecisions (the QUIC fork paper 002 ran, sevketarisu/quic-streaming,
//   JUMP_BUFFER_COUNTER_CONSTANT = 4): for the first N decisions after a seek the algorithm
//   decides as if the buffer held a fixed amount (SARA: beta segments; BBA: its full buffer less
//   the one initial segment AStream subtracts).
//   Only the RATE choice sees the assumed buffer; any request delay is computed from the real
//   one, since idling with an empty buffer would only lengthen the seek.

/**
 * justSeeked stays true from the seek until playback resumes, so it spans several decisions;
 * an algorithm reacts once, on the first of them.
 * @param {object} input
 * @param {boolean} seekInProgressBefore  from the previous decision's state
 * @returns {{seekStarted: boolean, seekInProgress: boolean}}
 */
function observeSeek(input, seekInProgressBefore) {
  const seekInProgress = input.justSeeked === true;
  return { seekStarted: seekInProgress && !seekInProgressBefore, seekInProgress };
}

/**
 * The buffer level the rate choice should use, and the hold counter for the next decision.
 * @param {object} o
 * @param {number} o.realBufferSeconds
 * @param {number} o.assumedBufferSeconds  what the fork pretends the buffer holds
 * @param {boolean} o.seekStarted
 * @param {number} o.holdRemaining        decisions of the current hold still to come
 * @param {number} o.holdDecisions        params.seekHoldDecisions (0 = off)
 * @returns {{bufferSeconds: number, holdRemaining: number, assumed: boolean}}
 */
function bufferForRateChoice({ realBufferSeconds, assumedBufferSeconds, seekStarted, holdRemaining, holdDecisions }) {
  const remaining = seekStarted ? holdDecisions : holdRemaining;
  if (remaining > 0) return { bufferSeconds: assumedBufferSeconds, holdRemaining: remaining - 1, assumed: true };
  return { bufferSeconds: realBufferSeconds, holdRemaining: 0, assumed: false };
}

/** The rung to repeat when the caller asks to hold (the lowest if nothing was requested yet). */
function heldRung(input) {
  return input.currentIndex ?? 0;
}

module.exports = { observeSeek, bufferForRateChoice, heldRung };
