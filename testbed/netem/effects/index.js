'use strict';
// The network effects of the emulated link, in the order every packet meets them: the only
// list of them. The link (../link-direction.js), profile validation and conversion
// (../../scenario/network-profile.js) and `npm run lab`'s counters all read this list, so a
// new effect is one file here plus one entry below.
//
// The order (netem's):
//   down        link down (switch outages)                  -> dropped, cause 'down'
//   loss        random loss                                 -> dropped, cause 'loss'
//   bottleneck  the queue and the rate-limited link: a full queue drops (cause 'queue'), its
//               discipline may drop at the head (CoDel: 'codel'); then serialisation at the
//               rate schedule, behind the packets already queued
//   reorder     a packet skips the delay and overtakes those in flight
//   delay       propagation delay + jitter; without jitterReorders no overtaking
//   corrupt     one random bit flipped
//   duplicate   a second copy delivered with it
// Effects before the bottleneck act when a packet arrives; effects after it act when the
// packet leaves the queue (for drop-tail, the same moment in the program). All random effects
// draw from the direction's one seeded generator in this order, so a seed fixes every outcome.
//
// An effect (one file here) is a plain object:
//   name           its name (where to insert another one; often also its drop cause)
//   settings       {key: default}: the LinkDirection settings it reads (keys unique across
//                  effects; both directions have them)
//   check(s)       throws a RangeError naming the setting when s (all settings) is wrong
//   drops          the causes it drops packets for; each is a counter under counters.drops
//   counters       {name: 0}: its other counters, kept on the direction's counters
//   create(link)   -> its state for one direction, {step(pkt), configure?(changed)}:
//                  step(pkt) returns null, or a drop cause from `drops`. pkt is reused for
//                  every packet (allocate nothing per packet): t (arrival, ms), size (bytes),
//                  token; after the bottleneck also start, finish (its last bit out), atMs
//                  (delivery time, starts at finish), skipDelay, corruptBit, copies (1).
//                  link is the LinkDirection: link.settings, link.rng(), link.counters.
//                  configure(changed) runs after a live settings change.
//   profile        optional, its part of a scenario's network profile:
//     keys           profile keys it owns
//     validate(v)    checks them with v.number(key, {min, max, integer, exclusiveMin}),
//                    v.boolean(key), v.oneOf(key, values), v.problem(text, key?); v.raw is the
//                    profile as written, v.out its normal form (v.number etc. copy valid
//                    values), v.partial for overrides, v.readText(file) for trace files
//     exclusive      [[key, ...]]: an override giving one key of a group drops the others
//     toSettings(p, direction)  -> its LinkDirection settings ('toClient' | 'toServer'), every
//                    one of them, so a profile change resets what the profile does not say
//     describe(p)    -> short texts for the profile's one-line description
//     describeRank   optional: where its texts go in that line (lower first; default 100)
//   describeCounters(c)  optional: texts for its counters (c: one direction's counters)
const linkDown = require('./link-down');
const randomLoss = require('./random-loss');
const bottleneck = require('./bottleneck');
const reorder = require('./reorder');
const delay = require('./delay');
const corrupt = require('./corrupt');
const duplicate = require('./duplicate');

const EFFECTS = [linkDown, randomLoss, bottleneck, reorder, delay, corrupt, duplicate];

function listEffects() {
  return EFFECTS.slice();
}

function checkShape(effect) {
  const fail = (what) => {
    throw new TypeError(`network effect "${effect && effect.name}": ${what}`);
  };
  if (!effect || typeof effect.name !== 'string' || !effect.name) fail('needs a name');
  if (EFFECTS.some((e) => e.name === effect.name)) fail('an effect of that name is registered already');
  if (typeof effect.settings !== 'object' || effect.settings === null) fail('needs settings ({key: default})');
  if (typeof effect.check !== 'function') fail('needs check(settings)');
  if (!Array.isArray(effect.drops)) fail('needs drops (a list of drop causes, maybe empty)');
  if (typeof effect.counters !== 'object' || effect.counters === null) fail('needs counters ({name: 0}, maybe empty)');
  if (typeof effect.create !== 'function') fail('needs create(link)');
  if (effect.queue) fail('there is one bottleneck; add a queue discipline instead (./queue-disciplines)');
  const taken = (list, what) => {
    for (const e of EFFECTS) for (const k of list(e)) if (list(effect).includes(k)) fail(`${what} "${k}" belongs to effect "${e.name}"`);
  };
  taken((e) => Object.keys(e.settings), 'setting');
  taken((e) => e.drops, 'drop cause');
  taken((e) => Object.keys(e.counters), 'counter');
  if (effect.profile) {
    const p = effect.profile;
    if (!Array.isArray(p.keys) || typeof p.validate !== 'function' || typeof p.toSettings !== 'function') fail('profile needs keys, validate(v) and toSettings(p, direction)');
    taken((e) => (e.profile ? e.profile.keys : []), 'profile key');
  }
}

/**
 * Adds an effect to the pipeline, before or after the effect of that name (default: last);
 * returns a function that removes it again. The effects are read when a LinkDirection is
 * made, so links made before keep their effects.
 * @param {object} effect  see above
 * @param {{before?: string, after?: string}} [where]
 */
function registerEffect(effect, { before, after } = {}) {
  checkShape(effect);
  let at = EFFECTS.length;
  const anchor = before || after;
  if (anchor) {
    const i = EFFECTS.findIndex((e) => e.name === anchor);
    if (i < 0) throw new Error(`no network effect "${anchor}" to insert "${effect.name}" ${before ? 'before' : 'after'} (effects: ${EFFECTS.map((e) => e.name).join(', ')})`);
    at = before ? i : i + 1;
  }
  EFFECTS.splice(at, 0, effect);
  return () => {
    const i = EFFECTS.indexOf(effect);
    if (i >= 0) EFFECTS.splice(i, 1);
  };
}

/** One direction's counters as text: every drop cause, then what the effects add. */
function describeCounters(c) {
  const drops = EFFECTS.flatMap((e) => e.drops).map((cause) => `${cause} ${c.drops[cause] ?? 0}`);
  const more = EFFECTS.flatMap((e) => (e.describeCounters ? e.describeCounters(c) : []));
  return [`drops: ${drops.join(', ')}`, ...more].join('; ');
}

module.exports = { listEffects, registerEffect, describeCounters };
