'use strict';
// How N players split over the protocols: "--mix http11=45,h2=45,datachannel=10" are weights
// (percentages by convention), turned into whole players by largest remainder so the counts
// always add up to N.

const PROTOCOLS = ['http11', 'h2', 'datachannel'];
// The origin allows 32 DataChannel sessions in all (origin/datachannel/signaling-server.js).
const MAX_DATACHANNEL_PLAYERS = 32;

/** @returns {Record<string, number>} weight per protocol (missing ones 0) */
function parseMix(text) {
  const weights = Object.fromEntries(PROTOCOLS.map((p) => [p, 0]));
  for (const part of String(text).split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z0-9]+)=(\d+(?:\.\d+)?)$/.exec(part);
    if (!m) throw new Error(`--mix: "${part}" is not PROTOCOL=WEIGHT (e.g. http11=45,h2=45,datachannel=10)`);
    if (!PROTOCOLS.includes(m[1])) throw new Error(`--mix: unknown protocol "${m[1]}" (known: ${PROTOCOLS.join(', ')})`);
    weights[m[1]] = Number(m[2]);
  }
  if (!(Object.values(weights).reduce((a, b) => a + b, 0) > 0)) throw new Error('--mix: the weights add up to 0');
  return weights;
}

/**
 * @param {number} players
 * @param {Record<string, number>} weights
 * @returns {Record<string, number>} players per protocol, summing to `players`
 */
function splitPlayers(players, weights) {
  const total = PROTOCOLS.reduce((a, p) => a + weights[p], 0);
  const exact = PROTOCOLS.map((p) => ({ p, x: (players * weights[p]) / total }));
  const counts = Object.fromEntries(exact.map(({ p, x }) => [p, Math.floor(x)]));
  let left = players - Object.values(counts).reduce((a, b) => a + b, 0);
  // Largest remainders first; ties to the order of PROTOCOLS, so the split is deterministic.
  for (const { p } of [...exact].sort((a, b) => (b.x - Math.floor(b.x)) - (a.x - Math.floor(a.x)))) {
    if (left === 0) break;
    counts[p] += 1;
    left -= 1;
  }
  if (counts.datachannel > MAX_DATACHANNEL_PLAYERS) {
    throw new Error(`--mix gives ${counts.datachannel} DataChannel players; the origin allows at most ${MAX_DATACHANNEL_PLAYERS} DataChannel sessions (use fewer players or a smaller datachannel weight)`);
  }
  return counts;
}

module.exports = { PROTOCOLS, MAX_DATACHANNEL_PLAYERS, parseMix, splitPlayers };
