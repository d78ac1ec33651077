'use strict';
// A network profile as a scenario states it (in the papers' terms: RTT, jitter in % of the
// delay, loss %, Mbit/s, a 4 s square wave, a trace file) and the LinkDirection settings it
// becomes for each direction of the emulated link.
//
// Each network effect owns its profile keys, their checks, their conversion and their words in
// the profile's description (testbed/netem/effects/; the keys are listed in
// testbed/scenarios/README.md). This file adds what belongs to the profile as a whole:
//   description       free text
//   seed              loss/jitter random seed (default 1; uplink uses seed + 1). Repetition k
//                     of a playback uses seed + 2(k - 1): repetitions are meant to sample the
//                     random process, and with one seed all of them dropped the same packets
//                     (paper000-table1's 0.2 % loss came out as 0.12 % in every repetition)
//   extraPaths        [profile, ...]: more paths between client and server, each with its own
//                     settings (no extraPaths of their own), up to 3; a playback on such a
//                     profile runs Multipath TCP over all paths (paper 004: two Wi-Fi paths).
//                     Path k's random effects use seed + 100k
//   congestionControl the origin's TCP congestion control for playbacks on this profile (a name
//                     of testbed/congestion/registry.js), overriding the scenario's. Not per
//                     extra path: Linux gives every subflow of an MPTCP connection the
//                     connection's congestion control (it copies it to each new subflow once the
//                     application has set any socket option, as the origin's HTTP server does)
const { listEffects } = require('../netem/effects');
const { DEFAULT_QUEUE_MS, peakRate } = require('../netem/effects/bottleneck');
const congestionControls = require('../congestion/registry');

const OWN_KEYS = ['description', 'seed', 'congestionControl', 'extraPaths'];
const MAX_EXTRA_PATHS = 3;

const show = (v) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));

const profileParts = () => listEffects().filter((e) => e.profile).map((e) => e.profile);

/** Every key a profile may have, in the effects' order. */
function profileKeys() {
  return [...OWN_KEYS.slice(0, 1), ...profileParts().flatMap((p) => p.keys), ...OWN_KEYS.slice(1)];
}

/** The checker an effect's profile.validate(v) gets (testbed/netem/effects/index.js). */
function createChecker(raw, where, problems, readText, partial) {
  const out = {};
  const v = {
    raw,
    out,
    where,
    partial,
    readText,
    problem(text, key) {
      problems.push(key ? `${where}.${key}: ${text}` : `${where}: ${text}`);
    },
    number(k, { min = 0, max = Infinity, integer = false, exclusiveMin = false } = {}) {
      if (raw[k] === undefined) return;
      const x = raw[k];
      const ok = typeof x === 'number' && Number.isFinite(x) && (exclusiveMin ? x > min : x >= min) && x <= max && (!integer || Number.isInteger(x));
      if (!ok) problems.push(`${where}.${k} must be ${integer ? 'a whole number' : 'a number'} ${exclusiveMin ? '>' : '>='} ${min}${max < Infinity ? ` and <= ${max}` : ''}, got ${show(x)}`);
      else out[k] = x;
    },
    boolean(k) {
      if (raw[k] === undefined) return;
      if (typeof raw[k] !== 'boolean') problems.push(`${where}.${k} must be true or false`);
      else out[k] = raw[k];
    },
    oneOf(k, values) {
      if (raw[k] === undefined) return;
      if (!values.includes(raw[k])) problems.push(`${where}.${k} must be one of ${values.join(', ')}, got ${show(raw[k])}`);
      else out[k] = raw[k];
    },
  };
  return v;
}

/**
 * Checks a profile; returns its normal form (numbers in the file's units, rate as a
 * rate-schedule spec in bits/s) and pushes problems. `partial` for overrides (abrs[].link).
 */
function validateProfile(raw, where, problems, readText, { partial = false, nested = false } = {}) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`${where} must be a map of network settings, got ${show(raw)}`);
    return {};
  }
  const keys = profileKeys();
  for (const k of Object.keys(raw)) if (!keys.includes(k)) problems.push(`${where}: unknown setting "${k}" (known: ${keys.join(', ')})`);
  const v = createChecker(raw, where, problems, readText, partial);
  for (const part of profileParts()) part.validate(v);
  v.number('seed', { integer: true });
  if (nested && raw.congestionControl !== undefined) {
    v.problem('a path cannot have a congestion control of its own: Linux gives every subflow of an MPTCP connection the connection\'s (set congestionControl on the profile)', 'congestionControl');
  } else {
    v.oneOf('congestionControl', congestionControls.names());
  }
  if (raw.description !== undefined) v.out.description = String(raw.description);
  if (raw.extraPaths !== undefined) {
    if (partial || nested) problems.push(`${where}.extraPaths: only a whole profile of its own can have extra paths`);
    else if (!Array.isArray(raw.extraPaths) || !raw.extraPaths.length || raw.extraPaths.length > MAX_EXTRA_PATHS) problems.push(`${where}.extraPaths must be a list of 1-${MAX_EXTRA_PATHS} path profiles, got ${show(raw.extraPaths)}`);
    else v.out.extraPaths = raw.extraPaths.map((x, i) => validateProfile(x, `${where}.extraPaths[${i}]`, problems, readText, { nested: true }));
  }
  return v.out;
}

/** Overrides (abrs[].link) on top of a profile: a new rate replaces the old one whole. */
function mergeProfile(profile, override) {
  if (!override) return profile;
  const merged = { ...profile, ...override };
  for (const group of profileParts().flatMap((p) => p.exclusive || [])) {
    for (const k of group) {
      if (override[k] !== undefined) for (const other of group) if (other !== k) delete merged[other];
    }
  }
  return merged;
}

/**
 * Profile -> {toClient, toServer} LinkDirection settings (testbed/netem/link-direction.js).
 * @param {object} p  a validated profile
 * @param {{repetition?: number}} [o]  which repetition (1-based) the settings are for
 */
function profileToLinkSettings(p, { repetition = 1 } = {}) {
  const seed = (p.seed ?? 1) + 2 * (repetition - 1);
  const direction = (name) => Object.assign({}, ...profileParts().map((part) => part.toSettings(p, name)));
  const settings = {
    toClient: { ...direction('toClient'), seed },
    toServer: { ...direction('toServer'), seed: seed + 1 },
  };
  if (p.extraPaths) {
    settings.extraPaths = p.extraPaths.map((x, i) => profileToLinkSettings({ ...x, seed: x.seed ?? (p.seed ?? 1) + 100 * (i + 1) }, { repetition }));
  }
  return settings;
}

/** A one-line description for tables and progress lines. */
function describeProfile(p) {
  const rank = (part) => part.describeRank ?? 100;
  const parts = profileParts().map((part, i) => ({ part, i })).sort((a, b) => rank(a.part) - rank(b.part) || a.i - b.i);
  const own = [...parts.flatMap(({ part }) => (part.describe ? part.describe(p) : [])), ...(p.congestionControl ? [`TCP ${p.congestionControl}`] : [])].join(', ');
  if (!p.extraPaths) return own;
  return [`path 1: ${own}`, ...p.extraPaths.map((x, i) => `path ${i + 2}: ${describeProfile(x)}`), 'Multipath TCP'].join('; ');
}

module.exports = { validateProfile, mergeProfile, profileToLinkSettings, peakRate, describeProfile, profileKeys, DEFAULT_QUEUE_MS };
