'use strict';
// Dynamic Bitstream Prioritization (paper 000's future work: "BP will be dynamically
// adjusted"). After each media segment:
//   reliable bytes finished after the segment's playout deadline -> BP down one step: the
//     reliable channel carries more than the network delivers in time, and a late reliable
//     byte stalls playback where a lost unreliable one only damages a picture
//   else PLR above highPlr -> BP up one step: more of the I-slice data goes reliably
//   else PLR below lowPlr  -> BP down one step: nothing is being lost, save the retransmissions
//   else                   -> keep
// always within [minBp, maxBp]. Pure: (state, outcome) -> new BP and the reason.

const DEFAULTS = Object.freeze({ minBp: 0, maxBp: 100, step: 10, highPlr: 0.02, lowPlr: 0.002 });

/** "auto" or "auto:25-75" -> {minBp, maxBp}; null when the text is a plain number. */
function parseAutoBp(text) {
  const m = /^auto(?::(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?))?$/.exec(String(text).trim());
  if (!m) return null;
  const range = m[1] === undefined ? { minBp: 0, maxBp: 100 } : { minBp: Number(m[1]), maxBp: Number(m[2]) };
  if (!(range.minBp >= 0 && range.maxBp <= 100 && range.minBp <= range.maxBp)) throw new RangeError(`a BP range must be within 0-100 with min <= max, got "${text}"`);
  return range;
}

/**
 * @param {number} bp   the BP in force
 * @param {{plr: number, reliableLate: boolean}} outcome  the segment just finished
 * @param {object} [params]  DEFAULTS overridden
 * @returns {{bp: number, reason: string}}
 */
function nextBp(bp, outcome, params = {}) {
  const p = { ...DEFAULTS, ...params };
  const clamp = (v) => Math.min(p.maxBp, Math.max(p.minBp, v));
  if (outcome.reliableLate) return { bp: clamp(bp - p.step), reason: 'reliable data arrived after the deadline: BP down' };
  if (outcome.plr > p.highPlr) return { bp: clamp(bp + p.step), reason: `PLR ${(100 * outcome.plr).toFixed(2)} % > ${100 * p.highPlr} %: BP up` };
  if (outcome.plr < p.lowPlr) return { bp: clamp(bp - p.step), reason: `PLR ${(100 * outcome.plr).toFixed(2)} % < ${100 * p.lowPlr} %: BP down` };
  return { bp: clamp(bp), reason: 'PLR within range: BP kept' };
}

module.exports = { nextBp, parseAutoBp, DEFAULTS };
