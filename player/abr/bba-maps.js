'use strict';
// The buffer-to-rate maps of the BBA family (Huang et al., SIGCOMM 2014), each turning the buffer
// level into the rung to request next. Below the reservoir r: the lowest rung; at or above the
// end of the cushion (r + cu): the highest; in between a line from the lowest to the highest.
//
// - rate map (BBA-0, §4): the line runs from R_min to R_max in bits/s and is compared with the
//   rungs' nominal bitrates.
// - chunk map (BBA-1/2, §5.2): the line runs from Chunk_min to Chunk_max, the MEAN segment sizes
//   of the lowest and highest rungs, and is compared with the sizes of the NEXT segment at each
//   rung, so a big (complex) upcoming segment needs more buffer than a small one.
//   Both go through the paper's Algorithm 1: stay on the previous rung until the map passes the
//   value of the next rung up (Rate+) or down (Rate-); that "stickiness" damps oscillation.
// - AStream's steps (netflix_dash.py): the rungs spaced EVENLY IN BUFFER between r and the
//   cushion end, each rung chosen while the buffer is above the previous rung's mark, and no
//   Algorithm 1. This is not the paper's linear-in-rate map (with a ladder like 100..4500 kbps
//   the two differ a lot); it is here to reproduce what AStream, and so paper 002, ran.

/** The map's value at buffer B: `low` at r, `high` at cushionEnd, linear in between. */
function linearMapValue({ low, high, bufferSeconds, reservoirSeconds, cushionEndSeconds }) {
  return low + ((high - low) * (bufferSeconds - reservoirSeconds)) / (cushionEndSeconds - reservoirSeconds);
}

/**
 * Algorithm 1 of the paper, for rates or (generalised in §5.2) chunk sizes.
 * @param {object} o
 * @param {number[]} o.values     per rung: bandwidth (rate map) or next segment bytes (chunk map)
 * @param {number} o.previous     the previous rung
 * @param {number} o.allowed      the map's value f(B) in the same unit as `values`
 * @param {number} o.bufferSeconds
 * @param {number} o.reservoirSeconds
 * @param {number} o.cushionEndSeconds
 * @returns {{index: number, rule: string}}
 */
function algorithmOne({ values, previous, allowed, bufferSeconds, reservoirSeconds, cushionEndSeconds }) {
  const top = values.length - 1;
  if (bufferSeconds <= reservoirSeconds) return { index: 0, rule: 'reservoir' };
  if (bufferSeconds >= cushionEndSeconds) return { index: top, rule: 'cushion full' };
  const plus = previous === top ? top : previous + 1;
  const minus = previous === 0 ? 0 : previous - 1;
  if (allowed >= values[plus]) {
    // max{R_i : R_i < f(B)}
    let index = 0;
    for (let i = 0; i <= top; i += 1) if (values[i] < allowed) index = i;
    return { index, rule: 'passed Rate+' };
  }
  if (allowed <= values[minus]) {
    // min{R_i : R_i > f(B)}
    for (let i = 0; i <= top; i += 1) if (values[i] > allowed) return { index: i, rule: 'passed Rate-' };
    return { index: previous, rule: 'passed Rate-' };
  }
  return { index: previous, rule: 'between Rate- and Rate+' };
}

/**
 * AStream's stepped map: rung k's mark is r + k * (cushionEnd - r) / (rungs - 1); the chosen
 * rung is the first whose mark is at or above the buffer.
 * @returns {{index: number, rule: string}}
 */
function astreamSteps({ rungs, bufferSeconds, reservoirSeconds, cushionEndSeconds }) {
  const top = rungs - 1;
  if (bufferSeconds <= reservoirSeconds) return { index: 0, rule: 'reservoir' };
  if (bufferSeconds >= cushionEndSeconds || top === 0) return { index: top, rule: 'cushion full' };
  const step = (cushionEndSeconds - reservoirSeconds) / top;
  // 1e-9 keeps a buffer exactly on a mark on that mark despite rounding.
  const index = Math.min(top, Math.max(1, Math.ceil((bufferSeconds - reservoirSeconds) / step - 1e-9)));
  return { index, rule: 'AStream step' };
}

module.exports = { linearMapValue, algorithmOne, astreamSteps };
