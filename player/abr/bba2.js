'use strict';
// BBA-2 (Huang, Johari, McKeown, Trunnell, Watson, "A Buffer-Based Approach to Rate Adaptation",
// SIGCOMM 2014, §5-6; AStream's netflix_dash.py). Two phases:
//
// Startup (§6). The buffer is nearly empty and says little, so BBA-2 uses the last chunk's
// download: the buffer changed by dB = V - ChunkSize / c[k] = V - (its download time). It steps
// up ONE rung when dB > f * V, where f falls linearly from 0.875 with an empty buffer ("the chunk
// downloaded eight times faster than it is played") to 0.5 when the cushion is full ("twice as
// fast"). It leaves startup for good when (1) the buffer is decreasing (dB < 0: the last chunk
// took longer than it plays) or (2) the map suggests a higher rung than startup would.
//
// Steady state (§5): the chunk map (bba-maps.js) from the buffer level, with a reservoir sized
// from the upcoming lowest-rung chunks (bba-reservoir.js) and the cushion ending at 90 % of the
// buffer. The buffer size is a parameter: 60 segments (AStream; the paper's 240 s of 4 s chunks)
// unless bufferSizeSeconds is set (paper 002 used 20 s on demand, 8 s live).
//
// Deliberate deviations from AStream, following the paper:
// - dB. AStream computes V - (the rate's MEAN segment size) / (last throughput) with the size in
//   bits and the throughput in bytes/s, so its download time is 8x too long and the startup
//   step-up (which needs the chunk to arrive 8x faster than real time) practically never fires.
//   Here dB uses the last download's measured time, which is exactly ChunkSize / c[k].
// - Threshold. AStream keeps 0.875 throughout; the paper lowers it to 0.5 as the cushion fills
//   (set startupStepUpFactorCushionFull = 0.875 to get AStream's).
// - Exit. AStream only leaves startup when the map suggests more; it never checks (1).
// - Map. AStream spaces rungs evenly in buffer with no Algorithm 1 (mapKind 'astream-steps');
//   the paper's BBA-2 uses the chunk map ('chunk'); BBA-0's plain rate map is 'rate'.
// - Reservoir. AStream: fixed 10 % of the buffer; the paper: dynamic (reservoirMode).
// - Buffer. AStream subtracts its 1-segment initial buffer from the queue before mapping; the
//   paper maps the buffer itself, as here.
// - Full buffer. AStream waits (queued - 60 + 1) * V but then sleeps that many SEGMENTS again
//   (delay * V seconds); here the wait is B + V - buffer size seconds, i.e. until the next segment
//   fits, which is what AStream's first expression means.
// - Seek. The paper counts "seeking to a new point" as a startup phase (§6, footnote 6); with
//   restartStartupOnSeek the first decision after a seek takes the map's rung for the flushed
//   buffer (no dB step: the last download describes the old position) and startup resumes.
const { validateDecisionInput } = require('./decision-input');
const { resolveParams } = require('./params');
const { segmentSizesOrNominal } = require('./segment-sizes');
const { observeSeek, bufferForRateChoice, heldRung } = require('./seek-handling');
const { dynamicReservoir } = require('./bba-reservoir');
const { linearMapValue, algorithmOne, astreamSteps } = require('./bba-maps');

const name = 'bba2';
const label = 'BBA-2 (buffer-based, Huang et al. 2014)';

const defaults = Object.freeze({
  // AStream NETFLIX_BUFFER_SIZE = 60 segments (240 s / 4 s, the paper's Netflix player buffer)
  bufferSizeSegments: 60,
  // seconds; when set it replaces bufferSizeSegments (paper 002: 20 on demand, 8 live)
  bufferSizeSeconds: null,
  // 'chunk' (paper §5.2) | 'rate' (BBA-0, §4) | 'astream-steps' (netflix_dash.py)
  mapKind: 'chunk',
  // 'dynamic' (paper §5.1; needs input.upcomingLowestRungSizes, else falls back to fixed) |
  // 'fixed' (AStream)
  reservoirMode: 'dynamic',
  // AStream NETFLIX_RESERVOIR = 0.1 of the buffer (fixed mode and the fallback)
  reservoirFraction: 0.1,
  // AStream NETFLIX_CUSHION = 0.9; paper §4: the map reaches R_max at 216 of 240 s (90 %)
  cushionEndFraction: 0.9,
  // paper §5.1: look ahead X = 480 s, twice the 240 s buffer
  reservoirLookaheadBufferMultiple: 2,
  // paper §5.1: the reservoir is bounded to 8..140 s of the 240 s buffer
  reservoirMinFraction: 8 / 240,
  reservoirMaxFraction: 140 / 240,
  // paper §6 and AStream NETFLIX_INITIAL_FACTOR: step up if dB > 0.875 V with an empty buffer
  startupStepUpFactorEmpty: 0.875,
  // paper §6: ... falling linearly to 0.5 V once the cushion is full (AStream: stays 0.875)
  startupStepUpFactorCushionFull: 0.5,
  // paper §6: a seek starts a new startup phase
  restartStartupOnSeek: true,
  // The QUIC fork's post-seek hold: decide as if the buffer were full (less one segment, as the
  // fork's AStream sees it) for this many decisions after a seek (fork: 4). 0 = off.
  seekHoldDecisions: 0,
});

const spec = {
  bufferSizeSegments: { min: 0, exclusiveMin: true },
  bufferSizeSeconds: { min: 0, exclusiveMin: true, nullable: true },
  mapKind: { oneOf: ['chunk', 'rate', 'astream-steps'] },
  reservoirMode: { oneOf: ['dynamic', 'fixed'] },
  reservoirFraction: { min: 0, max: 1 },
  cushionEndFraction: { min: 0, exclusiveMin: true, max: 1 },
  reservoirLookaheadBufferMultiple: { min: 0 },
  reservoirMinFraction: { min: 0, max: 1 },
  reservoirMaxFraction: { min: 0, max: 1 },
  startupStepUpFactorEmpty: { min: 0, max: 1 },
  startupStepUpFactorCushionFull: { min: 0, max: 1 },
  restartStartupOnSeek: { oneOf: [true, false] },
  seekHoldDecisions: { min: 0, integer: true },
};

function initialState() {
  return { phase: 'startup', seekInProgress: false, seekHoldRemaining: 0 };
}

function checkParamRelations(p) {
  if (!(p.reservoirFraction < p.cushionEndFraction)) throw new RangeError(`bba2 needs reservoirFraction < cushionEndFraction, got ${p.reservoirFraction} and ${p.cushionEndFraction}`);
  if (!(p.reservoirMinFraction <= p.reservoirMaxFraction)) throw new RangeError(`bba2 needs reservoirMinFraction <= reservoirMaxFraction, got ${p.reservoirMinFraction} and ${p.reservoirMaxFraction}`);
  if (!(p.reservoirMaxFraction < p.cushionEndFraction)) throw new RangeError(`bba2 needs reservoirMaxFraction < cushionEndFraction, got ${p.reservoirMaxFraction} and ${p.cushionEndFraction}`);
}

/** The buffer capacity in seconds: bufferSizeSeconds if set, else bufferSizeSegments * V. */
function bufferSizeSecondsOf(p, segmentDurationSeconds) {
  return p.bufferSizeSeconds ?? p.bufferSizeSegments * segmentDurationSeconds;
}

/** The buffer level BBA-2 fills to; a player's own buffer cap must be at least this. */
function bufferCeilingSeconds(params, segmentDurationSeconds) {
  return bufferSizeSecondsOf(resolveParams(name, defaults, spec, params), segmentDurationSeconds);
}

/** Reservoir r in seconds and where it came from. */
function reservoirFor(input, p, bufferSizeSeconds) {
  const V = input.segmentDurationSeconds;
  const fixed = { reservoirSeconds: p.reservoirFraction * bufferSizeSeconds, source: 'fixed' };
  if (p.reservoirMode === 'fixed') return fixed;
  if (!Array.isArray(input.upcomingLowestRungSizes)) return { ...fixed, source: 'fixed (no upcoming segment sizes)' };
  const r = dynamicReservoir({
    upcomingLowestRungSizes: input.upcomingLowestRungSizes,
    lowestBandwidth: input.ladder[0].bandwidth,
    segmentDurationSeconds: V,
    lookaheadSeconds: p.reservoirLookaheadBufferMultiple * bufferSizeSeconds,
    minSeconds: Math.max(p.reservoirMinFraction * bufferSizeSeconds, V),
    maxSeconds: p.reservoirMaxFraction * bufferSizeSeconds,
  });
  return { reservoirSeconds: r.reservoirSeconds, source: 'dynamic', rawSeconds: r.rawSeconds, chunks: r.chunks };
}

/** The map's rung for buffer B, given the previous rung. */
function mapChoice(input, p, { bufferSeconds, reservoirSeconds, cushionEndSeconds, previous }) {
  const { ladder } = input;
  const geometry = { bufferSeconds, reservoirSeconds, cushionEndSeconds };
  if (p.mapKind === 'astream-steps') {
    return { ...astreamSteps({ rungs: ladder.length, ...geometry }), allowed: null, notes: [] };
  }
  if (p.mapKind === 'rate') {
    const values = ladder.map((r) => r.bandwidth);
    const allowed = linearMapValue({ low: values[0], high: values[values.length - 1], ...geometry });
    return { ...algorithmOne({ values, previous, allowed, ...geometry }), allowed, notes: [] };
  }
  const next = segmentSizesOrNominal(input, 'nextSegmentSizes');
  const mean = segmentSizesOrNominal(input, 'averageSegmentSizes');
  const notes = [];
  if (!next.fromIndex) notes.push('no next segment sizes: assumed bandwidth x V / 8');
  if (!mean.fromIndex) notes.push('no mean segment sizes: assumed bandwidth x V / 8');
  const allowed = linearMapValue({ low: mean.bytes[0], high: mean.bytes[mean.bytes.length - 1], ...geometry });
  return { ...algorithmOne({ values: next.bytes, previous, allowed, ...geometry }), allowed, notes };
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
  checkParamRelations(p);
  const before = { ...initialState(), ...(state || {}) };
  const { ladder, segmentDurationSeconds: V } = input;
  const top = ladder.length - 1;
  const bufferSize = bufferSizeSecondsOf(p, V);

  const seek = observeSeek(input, before.seekInProgress);
  const restarted = seek.seekStarted && p.restartStartupOnSeek;
  let phase = restarted ? 'startup' : before.phase;
  const view = bufferForRateChoice({
    realBufferSeconds: input.bufferLevelSeconds,
    // The fork sets AStream's queue to the buffer size, and AStream then subtracts its one
    // initial-buffer segment before mapping: the map sees one segment less than full.
    assumedBufferSeconds: Math.max(0, bufferSize - V),
    seekStarted: seek.seekStarted,
    holdRemaining: before.seekHoldRemaining,
    holdDecisions: p.seekHoldDecisions,
  });
  const stateWith = (ph) => ({ phase: ph, seekInProgress: seek.seekInProgress, seekHoldRemaining: view.holdRemaining });

  // Wait until the next segment fits in the (real) buffer.
  const delaySeconds = Math.max(0, input.bufferLevelSeconds + V - bufferSize);
  const delayMs = Math.round(delaySeconds * 1000);
  const delayNote = delaySeconds > 0 ? `; buffer full: wait ${delaySeconds.toFixed(3)} s` : '';

  if (input.holdCurrent) {
    const held = heldRung(input);
    return { representationIndex: held, delayMs, state: stateWith(phase), reason: `BBA-2: holding rung ${held} while the seek is pending (paper 002 §3.1)${delayNote}`, details: { held: true, phase, delaySeconds } };
  }

  const reservoir = reservoirFor(input, p, bufferSize);
  const cushionEndSeconds = p.cushionEndFraction * bufferSize;
  if (!(reservoir.reservoirSeconds < cushionEndSeconds)) {
    throw new RangeError(`bba2: reservoir ${reservoir.reservoirSeconds} s does not fit below the cushion end ${cushionEndSeconds} s; the buffer (${bufferSize} s) is too small for ${V} s segments`);
  }
  const B = view.bufferSeconds;
  const previous = input.currentIndex ?? 0;
  const map = mapChoice(input, p, { bufferSeconds: B, reservoirSeconds: reservoir.reservoirSeconds, cushionEndSeconds, previous });
  const notes = [`r = ${reservoir.reservoirSeconds.toFixed(2)} s ${reservoir.source}`, ...map.notes];
  if (view.assumed) notes.push(`post-seek hold: buffer taken as ${B} s, ${view.holdRemaining} more`);
  const details = {
    phase: null,
    bufferSeconds: B,
    bufferSizeSeconds: bufferSize,
    reservoirSeconds: reservoir.reservoirSeconds,
    reservoirSource: reservoir.source,
    cushionEndSeconds,
    mapIndex: map.index,
    mapRule: map.rule,
    mapValue: map.allowed,
    startupIndex: null,
    deltaBufferSeconds: null,
    stepUpThresholdSeconds: null,
    delaySeconds,
  };
  const finish = (index, ph, why) => ({
    representationIndex: index,
    delayMs,
    state: stateWith(ph),
    reason: `BBA-2 ${ph}: ${why} -> ${kbps(ladder[index].bandwidth)} [${notes.join('; ')}]${delayNote}`,
    details: { ...details, phase: ph },
  });

  // Only startup reads the last download; steady state needs none (the map reads the buffer), so
  // an empty download list there (the player's window can be empty after a seek or a switch) does
  // not send BBA-2 back to startup at the lowest rate.
  if (phase === 'startup' && input.recentDownloads.length === 0) {
    return finish(0, 'startup', 'no download yet, start at the lowest rate');
  }
  if (restarted) {
    return finish(map.index, 'startup', `seek: startup restarts from the map's rung for B = ${B.toFixed(3)} s (${map.rule})`);
  }
  if (phase === 'startup') {
    const last = input.recentDownloads[input.recentDownloads.length - 1];
    const deltaB = V - last.seconds;
    const fill = Math.min(1, B / cushionEndSeconds);
    const factor = p.startupStepUpFactorEmpty - (p.startupStepUpFactorEmpty - p.startupStepUpFactorCushionFull) * fill;
    const threshold = factor * V;
    const startupIndex = deltaB > threshold ? Math.min(previous + 1, top) : previous;
    details.startupIndex = startupIndex;
    details.deltaBufferSeconds = deltaB;
    details.stepUpThresholdSeconds = threshold;
    const dBNote = `dB = ${deltaB.toFixed(3)} s ${deltaB > threshold ? '>' : '<='} ${factor.toFixed(4)} V = ${threshold.toFixed(3)} s`;
    if (map.index > startupIndex) {
      phase = 'steady';
      return finish(map.index, phase, `${dBNote}; the map suggests more (${map.rule}): startup ends`);
    }
    if (deltaB < 0) {
      phase = 'steady';
      return finish(map.index, phase, `${dBNote}; the buffer is decreasing: startup ends, the map decides (${map.rule})`);
    }
    return finish(startupIndex, phase, startupIndex > previous ? `${dBNote}: up one` : `${dBNote}: stay`);
  }
  return finish(map.index, 'steady', `B = ${B.toFixed(3)} s, ${map.rule}`);
}

module.exports = { name, label, defaults, spec, initialState, decide, bufferCeilingSeconds };
