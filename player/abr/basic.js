'use strict';
// BASIC: the throughput-based algorithm paper 002 compares against (AStream's basic_dash2.py,
// the "basic" baseline of Juluri et al. 2015). It ignores the buffer when choosing the rate
// (paper 002 §4.2 blames its rebuffering on exactly that) and uses it only to pause downloads.
//
//   T = 8 * sum(bytes) / sum(seconds) over the last 5 downloads
//   no download yet            -> the lowest rate
//   T > 1.2 * current rate     -> one rung up (never more than one)
//   otherwise                  -> the highest rate r with T > 1.2 * r, the lowest if none
//   buffer > 10 segments       -> wait (buffered - 10) * V before the next request
//
// Taken literally this oscillates: with 1.2 * r[k] < T <= 1.2 * r[k+1] it goes up from k to
// k+1, then down again because T <= 1.2 * r[k+1]. AStream behaves the same way; we keep it.
//
// Delay: AStream counts whole segments in its queue and sleeps (queued - 10) * V. dash.js
// reports the buffer in seconds, so "segments buffered" is bufferLevel / V and the wait is
// bufferLevel - 10 * V: the same number whenever the buffer is a whole number of segments.
const { validateDecisionInput } = require('./decision-input');
const { resolveParams } = require('./params');
const { windowThroughputBitsPerSecond } = require('./throughput');
const { heldRung } = require('./seek-handling');

const name = 'basic';
const label = 'BASIC (throughput, AStream basic_dash2)';

const defaults = Object.freeze({
  // AStream config_dash.BASIC_DELTA_COUNT = 5 (the QUIC fork notes 2 for live video)
  throughputWindowSegments: 5,
  // AStream config_dash.BASIC_UPPER_THRESHOLD = 1.2
  switchUpFactor: 1.2,
  // AStream config_dash.BASIC_THRESHOLD = 10 segments (the QUIC fork notes 4 for live video)
  maxBufferSegments: 10,
});

const spec = {
  throughputWindowSegments: { min: 1, integer: true },
  switchUpFactor: { min: 0, exclusiveMin: true },
  maxBufferSegments: { min: 0 },
};

/** BASIC keeps nothing between decisions. */
function initialState() {
  return {};
}

/** The buffer level above which BASIC pauses; a player's own buffer cap must sit above it. */
function bufferCeilingSeconds(params, segmentDurationSeconds) {
  const p = resolveParams(name, defaults, spec, params);
  return (p.maxBufferSegments + 1) * segmentDurationSeconds;
}

function kbps(bitsPerSecond) {
  return `${(bitsPerSecond / 1000).toFixed(0)} kbps`;
}

/** The highest rung r with throughput > factor * r; the lowest if none. */
function highestSustainable(ladder, throughput, factor) {
  let chosen = 0;
  for (let i = 1; i < ladder.length; i += 1) {
    if (throughput > factor * ladder[i].bandwidth) chosen = i;
  }
  return chosen;
}

/**
 * @param {import('./decision-input').DecisionInput} input
 * @param {object|null} state
 * @param {object} [params]
 */
function decide(input, state, params) {
  validateDecisionInput(input);
  const p = resolveParams(name, defaults, spec, params);
  const { ladder, segmentDurationSeconds: V, bufferLevelSeconds: buffer } = input;

  const bufferedSegments = buffer / V;
  const delaySeconds = bufferedSegments > p.maxBufferSegments ? buffer - p.maxBufferSegments * V : 0;
  const delayMs = Math.round(delaySeconds * 1000);
  const delayNote = delaySeconds > 0 ? `; ${bufferedSegments.toFixed(2)} segments buffered > ${p.maxBufferSegments}: wait ${delaySeconds.toFixed(3)} s` : '';

  if (input.holdCurrent) {
    const held = heldRung(input);
    return { representationIndex: held, delayMs, state: initialState(), reason: `BASIC: holding rung ${held} while the seek is pending (paper 002 §3.1)${delayNote}`, details: { held: true, delaySeconds } };
  }

  const throughput = windowThroughputBitsPerSecond(input.recentDownloads, p.throughputWindowSegments);
  if (throughput === null) {
    return { representationIndex: 0, delayMs, state: initialState(), reason: `BASIC: no download yet, start at the lowest rate${delayNote}`, details: { throughputBitsPerSecond: null, delaySeconds } };
  }
  const current = input.currentIndex ?? 0;
  const samples = Math.min(input.recentDownloads.length, p.throughputWindowSegments);
  const top = ladder.length - 1;
  let chosen;
  let why;
  if (throughput > p.switchUpFactor * ladder[current].bandwidth) {
    chosen = Math.min(current + 1, top);
    why = current === top
      ? `throughput ${kbps(throughput)} > ${p.switchUpFactor} x ${kbps(ladder[current].bandwidth)}, already at the top`
      : `throughput ${kbps(throughput)} > ${p.switchUpFactor} x ${kbps(ladder[current].bandwidth)}: up one`;
  } else {
    chosen = highestSustainable(ladder, throughput, p.switchUpFactor);
    why = `throughput ${kbps(throughput)} <= ${p.switchUpFactor} x ${kbps(ladder[current].bandwidth)}: highest rate below throughput / ${p.switchUpFactor}`;
  }
  return {
    representationIndex: chosen,
    delayMs,
    state: initialState(),
    reason: `BASIC: ${why} -> ${kbps(ladder[chosen].bandwidth)} (over ${samples} download${samples === 1 ? '' : 's'})${delayNote}`,
    details: { throughputBitsPerSecond: throughput, samples, delaySeconds },
  };
}

module.exports = { name, label, defaults, spec, initialState, decide, bufferCeilingSeconds };
