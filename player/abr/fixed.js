'use strict';
// FIXED: one quality level for the whole playback, no adaptation. Paper 003 measures protocol
// overhead and link utilization with "the quality level fixed for each individual
// experiment" and the bandwidth restricted to that media bitrate; this is that player.
//
//   bitrateKbps null     -> the highest rung
//   bitrateKbps b        -> the highest rung whose nominal bitrate is <= b kbps (the lowest if
//                           none): a scenario can name the papers' rates even when the ladder
//                           is close to, not exactly, the paper's
//   bufferSeconds        -> fetch until this much is buffered (paper 003: 40 s), then wait
const { validateDecisionInput } = require('./decision-input');
const { resolveParams } = require('./params');

const name = 'fixed';
const label = 'FIXED (one quality level, no adaptation; paper 003)';

const defaults = Object.freeze({
  bitrateKbps: null,
  bufferSeconds: 40,
});

const spec = {
  bitrateKbps: { min: 0, exclusiveMin: true, nullable: true },
  bufferSeconds: { min: 0, exclusiveMin: true },
};

function initialState() {
  return {};
}

function bufferCeilingSeconds(params, segmentDurationSeconds) {
  const p = resolveParams(name, defaults, spec, params);
  return p.bufferSeconds + segmentDurationSeconds;
}

/** The rung a bitrate names: highest nominal bitrate <= kbps, the lowest if none fits. */
function rungFor(ladder, kbps) {
  if (kbps === null) return ladder.length - 1;
  let chosen = 0;
  for (let i = 0; i < ladder.length; i += 1) if (ladder[i].bandwidth <= kbps * 1000) chosen = i;
  return chosen;
}

function decide(input, state, params) {
  validateDecisionInput(input);
  const p = resolveParams(name, defaults, spec, params);
  const chosen = rungFor(input.ladder, p.bitrateKbps);
  const delaySeconds = Math.max(0, input.bufferLevelSeconds - p.bufferSeconds);
  const delayMs = Math.round(delaySeconds * 1000);
  const target = p.bitrateKbps === null ? 'the highest rung' : `the highest rung <= ${p.bitrateKbps} kbps`;
  return {
    representationIndex: chosen,
    delayMs,
    state: initialState(),
    reason: `FIXED: ${target} -> ${(input.ladder[chosen].bandwidth / 1000).toFixed(0)} kbps${delayMs ? `; buffer ${input.bufferLevelSeconds.toFixed(2)} s > ${p.bufferSeconds} s: wait ${delaySeconds.toFixed(3)} s` : ''}`,
    details: { delaySeconds },
  };
}

module.exports = { name, label, defaults, spec, initialState, decide, bufferCeilingSeconds, rungFor };
