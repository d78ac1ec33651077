'use strict';
// What an ABR registry entry is (player/abr/index.js lists them, one file each):
//
//   name, label     the stable id (URL ?abr=, a scenario's abrs list) and what the page shows
//   defaults        its parameters' defaults (JSON-safe; the page shows them)
//   spec            {param: {min?, exclusiveMin?, max?, integer?, nullable?, oneOf?}} the rules
//                   resolveParams (params.js) checks overrides against
//   decide(input, state, params) -> {representationIndex, delayMs, state, reason, details}
//                   the lab algorithm (decision-input.js documents input and result); null for
//                   an entry that leaves the choice to dash.js's own rules (dashjs.js)
//   initialState()  its state before the first decision
//   bufferCeilingSeconds(params, segmentDurationSeconds)
//                   the buffer level above which it waits; dash.js's buffer target is set to it
//                   so that the algorithm, not dash.js, decides when to pause
//
// Optional hooks, for what dash.js's rules and Sabre's algorithms have and a pure per-segment
// decision does not see. An entry without them behaves exactly as before they existed (the
// built-in algorithms have none):
//
//   onSeek(seek, state, params) -> state
//     A seek was requested (scheduled or the viewer's), before the decision for its target.
//     seek = {fromSeconds, toSeconds, scheduled}. Returns the state the next decision gets
//     (Sabre's seek handling: forget the throughput history, restart startup, ...).
//   shouldAbandon(download, state, params) -> null | {representationIndex, reason}
//     Asked while a media segment downloads (dash.js's abandon-request rule, Sabre's
//     check_abandon). download = {ladder, representationIndex, bytesLoaded, bytesTotal,
//     elapsedSeconds, segmentDurationSeconds, bufferLevelSeconds}. A result with a LOWER rung
//     abandons the download and fetches that segment again at the rung; null keeps it.
const { resolveParams } = require('./params');

function fail(name, message) {
  throw new TypeError(`ABR "${name}": ${message}`);
}

const keepState = (seek, state) => state;
const neverAbandon = () => null;

/** Checks an entry against the contract above; returns its frozen, complete form. */
function normalizeAbr(raw) {
  const { name } = raw;
  if (typeof raw.label !== 'string' || !raw.label) fail(name, 'needs a label');
  if (!raw.defaults || typeof raw.defaults !== 'object') fail(name, 'needs defaults (an object, {} for none)');
  const spec = raw.spec || {};
  for (const key of Object.keys(raw.defaults)) if (!spec[key]) fail(name, `default "${key}" has no rule in spec`);
  const decides = raw.decide !== null && raw.decide !== undefined;
  if (decides) {
    if (typeof raw.decide !== 'function') fail(name, 'decide must be a function, or null to leave the choice to dash.js');
    if (typeof raw.bufferCeilingSeconds !== 'function') fail(name, 'needs bufferCeilingSeconds(params, segmentDurationSeconds)');
  }
  for (const hook of ['initialState', 'onSeek', 'shouldAbandon']) {
    if (raw[hook] !== undefined && typeof raw[hook] !== 'function') fail(name, `${hook} must be a function`);
    if (raw[hook] && !decides) fail(name, `${hook} needs a decide function to go with it`);
  }
  return Object.freeze({
    name,
    label: raw.label,
    defaults: raw.defaults,
    spec,
    decide: decides ? raw.decide : null,
    initialState: raw.initialState || (() => ({})),
    bufferCeilingSeconds: decides ? raw.bufferCeilingSeconds : null,
    onSeek: raw.onSeek || keepState,
    shouldAbandon: raw.shouldAbandon || neverAbandon,
    // Only an entry that has the hook gets dash.js's abandonment wired to it.
    abandons: typeof raw.shouldAbandon === 'function',
    /** Defaults with the overrides on top; throws naming a bad or unknown parameter. */
    resolveParams: (overrides) => resolveParams(name, raw.defaults, spec, overrides),
  });
}

module.exports = { normalizeAbr };
