'use strict';
// SARA, Segment Aware Rate Adaptation (Juluri, Tamarapalli, Medhi, ICC 2015 workshop; AStream's
// weighted_dash.py). It predicts how long the NEXT segment would take at each rate from that
// segment's real size S[l] and a size-weighted harmonic-mean throughput H over the last 5
// downloads, t[l] = S[l] / H, and compares that with the buffer B (seconds) against three
// thresholds given in segments and scaled by V: I = 1, B_alpha = 5, B_beta = 10.
//
//   no download yet, or B <= I          Fast start: the lowest rate
//   t[cur] > B - I                      the current rate would drain the buffer below I: the
//                                       highest lower rate with t <= B - I (the lowest if none)
//   B <= B_alpha                        Additive increase: one up if t[cur+1] < B - I, else stay
//   B <= B_beta                         Aggressive switching: the highest rate >= cur with
//                                       t <= B - I
//   B > B_beta                          Delayed download: the highest rate >= cur with
//                                       t <= B - B_alpha, and wait B - B_beta before requesting
//
// Deliberate deviations from AStream (weighted_dash.py), following the paper instead:
// - Units. AStream's segment sizes are bits (read_mpd.py converts to bits) but its H is bytes/s
//   (adaptation.py divides bytes by seconds), so every predicted download time is 8x too long
//   and AStream's SARA is far more timid than the paper's. Here S is bytes and H is bytes/s.
// - Thresholds. AStream compares (queued segments - I) with alpha and beta; the paper compares
//   B_curr with B_alpha and B_beta. Here B is compared with alpha * V and beta * V directly.
// - Delayed download. AStream's loop keeps the first rate whose time EXCEEDS the budget
//   (`>` where every other case has `<`) and budgets B - I; the paper's budget is B - B_alpha.
// - Window. AStream trims its sample list before appending, so it averages over 6 downloads;
//   here the window is exactly throughputWindowSegments.
// The delay B - B_beta agrees: AStream sleeps (queued - beta) * V.
// astreamUnits: true reproduces AStream's unit mix alone (every predicted time x 8), the SARA
// paper 002 actually ran; the other AStream differences above stay as the paper has them.
// Source note: the case list above is the paper's Algorithm 1 with its four named phases; it was
// cross-checked against AStream and an independent implementation of those phases, not against
// the paper's PDF, so where only strict vs non-strict inequality differs we took AStream's.
const { validateDecisionInput } = require('./decision-input');
const { resolveParams } = require('./params');
const { sizeWeightedHarmonicMeanBitsPerSecond } = require('./throughput');
const { segmentSizesOrNominal } = require('./segment-sizes');
const { observeSeek, bufferForRateChoice, heldRung } = require('./seek-handling');

const name = 'sara';
const label = 'SARA (segment-aware, Juluri et al. 2015)';

const defaults = Object.freeze({
  // AStream config_dash.SARA_SAMPLE_COUNT = 5
  throughputWindowSegments: 5,
  // I, B_alpha, B_beta in segments (AStream INITIAL_BUFFERING_COUNT, ALPHA_BUFFER_COUNT,
  // BETA_BUFFER_COUNT = 1, 5, 10); multiplied by V to compare with the buffer in seconds
  initialBufferSegments: 1,
  alphaSegments: 5,
  betaSegments: 10,
  // The QUIC fork's post-seek hold: decide as if beta segments were buffered for this many
  // decisions after a seek (fork: 4). 0 = the paper's SARA.
  seekHoldDecisions: 0,
  // AStream's units: segment sizes in bits over a throughput in bytes/s, so each predicted
  // download time is 8x too long and SARA far more cautious (what paper 002's runs used).
  astreamUnits: false,
});

const spec = {
  throughputWindowSegments: { min: 1, integer: true },
  initialBufferSegments: { min: 0 },
  alphaSegments: { min: 0 },
  betaSegments: { min: 0 },
  seekHoldDecisions: { min: 0, integer: true },
  astreamUnits: { oneOf: [true, false] },
};

function initialState() {
  return { seekInProgress: false, seekHoldRemaining: 0 };
}

function checkThresholdOrder(p) {
  if (!(p.initialBufferSegments <= p.alphaSegments && p.alphaSegments <= p.betaSegments)) {
    throw new RangeError(`sara parameters need initialBufferSegments <= alphaSegments <= betaSegments, got ${p.initialBufferSegments}, ${p.alphaSegments}, ${p.betaSegments}`);
  }
}

/** The buffer level above which SARA pauses; a player's own buffer cap must sit above it. */
function bufferCeilingSeconds(params, segmentDurationSeconds) {
  const p = resolveParams(name, defaults, spec, params);
  return (p.betaSegments + 1) * segmentDurationSeconds;
}

/** The highest rung in [from, to] whose predicted time fits the budget, or `fallback`. */
function highestFitting(times, from, to, budgetSeconds, fallback) {
  for (let l = to; l >= from; l -= 1) {
    if (times[l] <= budgetSeconds) return l;
  }
  return fallback;
}

function kbps(bitsPerSecond) {
  return `${(bitsPerSecond / 1000).toFixed(0)} kbps`;
}

/**
 * @param {import('./decision-input').DecisionInput} input
 * @param {object|null} state
 * @param {object} [params]
 */
function decide(input, state, params) {
  validateDecisionInput(input);
  const p = resolveParams(name, defaults, spec, params);
  checkThresholdOrder(p);
  const before = { ...initialState(), ...(state || {}) };
  const { ladder, segmentDurationSeconds: V } = input;
  const top = ladder.length - 1;
  const I = p.initialBufferSegments * V;
  const alpha = p.alphaSegments * V;
  const beta = p.betaSegments * V;

  const seek = observeSeek(input, before.seekInProgress);
  const view = bufferForRateChoice({
    realBufferSeconds: input.bufferLevelSeconds,
    assumedBufferSeconds: beta,
    seekStarted: seek.seekStarted,
    holdRemaining: before.seekHoldRemaining,
    holdDecisions: p.seekHoldDecisions,
  });
  const next = { seekInProgress: seek.seekInProgress, seekHoldRemaining: view.holdRemaining };

  if (input.holdCurrent) {
    const held = heldRung(input);
    return { representationIndex: held, delayMs: 0, state: next, reason: `SARA: holding rung ${held} while the seek is pending (paper 002 §3.1)`, details: { held: true, delaySeconds: 0 } };
  }

  const sizes = segmentSizesOrNominal(input, 'nextSegmentSizes');
  const sizeNote = sizes.fromIndex ? '' : ' [no segment sizes: assumed bandwidth x V / 8]';
  const holdNote = view.assumed ? ` [post-seek hold: buffer taken as ${beta} s, ${view.holdRemaining} more]` : '';
  const H = sizeWeightedHarmonicMeanBitsPerSecond(input.recentDownloads, p.throughputWindowSegments);
  const B = view.bufferSeconds;
  const base = { harmonicMeanBitsPerSecond: H, bufferSeconds: B, thresholdsSeconds: { I, alpha, beta }, sizesFromIndex: sizes.fromIndex, delaySeconds: 0 };

  if (H === null || B <= I) {
    const why = H === null ? 'no download yet' : `buffer ${B.toFixed(3)} s <= I = ${I} s`;
    return { representationIndex: 0, delayMs: 0, state: next, reason: `SARA fast start: ${why}, the lowest rate${holdNote}${sizeNote}`, details: { ...base, case: 'fast-start', predictedSeconds: null } };
  }

  const bytesPerSecond = H / 8;
  const unitFactor = p.astreamUnits ? 8 : 1; // AStream: bits / (bytes per second)
  const times = sizes.bytes.map((s) => (unitFactor * s) / bytesPerSecond);
  const current = input.currentIndex ?? 0;
  let chosen;
  let caseName;
  let why;
  if (times[current] > B - I) {
    caseName = 'decrease';
    chosen = highestFitting(times, 0, current - 1, B - I, 0);
    why = `t[cur] = ${times[current].toFixed(3)} s > B - I = ${(B - I).toFixed(3)} s: highest lower rate that fits`;
  } else if (B <= alpha) {
    caseName = 'additive-increase';
    chosen = current < top && times[current + 1] < B - I ? current + 1 : current;
    why = `B = ${B.toFixed(3)} s <= B_alpha = ${alpha} s: ${chosen > current ? 'one up' : 'stay'}`;
  } else if (B <= beta) {
    caseName = 'aggressive-switching';
    chosen = highestFitting(times, current, top, B - I, current);
    why = `B = ${B.toFixed(3)} s <= B_beta = ${beta} s: highest rate with t <= B - I = ${(B - I).toFixed(3)} s`;
  } else {
    caseName = 'delayed-download';
    chosen = highestFitting(times, current, top, B - alpha, current);
    why = `B = ${B.toFixed(3)} s > B_beta = ${beta} s: highest rate with t <= B - B_alpha = ${(B - alpha).toFixed(3)} s`;
  }
  // Only the Delayed-Download phase waits, until the buffer is back at B_beta. Every other case
  // requests at once: a decrease with B > B_beta (the next segment would take longer than the
  // buffer lasts) must not also sleep, or the stall it steps down to avoid comes anyway.
  // Here B is the real buffer: a post-seek hold takes B as B_beta, which is never above it.
  const delaySeconds = caseName === 'delayed-download' ? B - beta : 0;
  const delayMs = Math.round(delaySeconds * 1000);
  const delayNote = delaySeconds > 0 ? `; wait ${delaySeconds.toFixed(3)} s (B - B_beta)` : '';
  return {
    representationIndex: chosen,
    delayMs,
    state: next,
    reason: `SARA ${caseName}: H = ${kbps(H)}, ${why} -> ${kbps(ladder[chosen].bandwidth)}${p.astreamUnits ? ' [AStream units: times x 8]' : ''}${holdNote}${sizeNote}${delayNote}`,
    details: { ...base, delaySeconds, case: caseName, predictedSeconds: times },
  };
}

module.exports = { name, label, defaults, spec, initialState, decide, bufferCeilingSeconds };
