'use strict';
// A network profile as a scenario states it (in the papers' terms: RTT, jitter in % of the
// delay, loss %, Mbit/s, a 4 s square wave, a trace file) and the LinkDirection settings it
// becomes for each direction of the emulated link.
//
//   rttMs             round-trip propagation delay, split evenly over the two directions
//   jitterMs          +- per direction, or jitterPercent of the one-way delay (paper 000: 20 %)
//   jitterReorders    let jitter reorder packets (netem's old behaviour; default false)
//   lossPercent, duplicatePercent, corruptPercent, reorderPercent   both directions, as
//                     paper 000 ran netem on both bridge interfaces
//   rateMbps          downlink (server -> client) rate, or `rate` for a schedule:
//                       {square: {lowMbps, highMbps, periodSeconds}}
//                       {steps: "trace.csv"}  (rows "seconds,kbps")  or  {steps: [[s, Mbps], ...]}
//                       {mahimahi: "trace.down"}
//   uplinkRateMbps    client -> server rate (default: unlimited; requests and ACKs are small)
//   queuePackets | queueBytes | queueMs   downlink drop-tail queue (default 100 ms at the
//                     highest rate, like tbf's latency parameter; unlimited without a rate)
//   seed              loss/jitter random seed (default 1; uplink uses seed + 1). Repetition k
//                     of a playback uses seed + 2(k - 1): repetitions are meant to sample the
//                     random process, and with one seed all of them dropped the same packets
//                     (paper000-table1's 0.2 % loss came out as 0.12 % in every repetition)
const { parseStepCsv, parseMahimahi } = require('../netem/rate-schedule');

const KEYS = ['description', 'rttMs', 'jitterMs', 'jitterPercent', 'jitterReorders', 'lossPercent', 'duplicatePercent',
  'corruptPercent', 'reorderPercent', 'rateMbps', 'rate', 'uplinkRateMbps', 'queuePackets', 'queueBytes', 'queueMs', 'seed'];
const DEFAULT_QUEUE_MS = 100;
const MTU = 1500;

const show = (v) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));

function rateSpec(raw, where, problems, readText) {
  const fail = (msg) => {
    problems.push(`${where}: ${msg}`);
    return null;
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length !== 1) {
    return fail(`must be one of {square: {lowMbps, highMbps, periodSeconds}}, {steps: FILE or [[seconds, Mbps], ...]}, {mahimahi: FILE}; got ${show(raw)}`);
  }
  const [kind, v] = Object.entries(raw)[0];
  const load = (file, parse) => {
    if (typeof file !== 'string') return fail(`${kind} must name a trace file next to the scenario, got ${show(file)}`);
    if (!readText) return fail(`${kind}: trace files can only be read from a scenario file`);
    try {
      return parse(readText(file));
    } catch (err) {
      return fail(`${kind} trace "${file}": ${err.message}`);
    }
  };
  switch (kind) {
    case 'square': {
      if (!v || !(v.lowMbps > 0) || !(v.highMbps > 0) || !(v.periodSeconds > 0)) return fail(`square needs lowMbps, highMbps and periodSeconds > 0, got ${show(v)}`);
      return { kind: 'square', lowBitsPerSecond: v.lowMbps * 1e6, highBitsPerSecond: v.highMbps * 1e6, periodMs: v.periodSeconds * 1000 };
    }
    case 'steps': {
      let steps;
      if (Array.isArray(v)) {
        if (!v.every((r) => Array.isArray(r) && r.length === 2 && r[0] >= 0 && r[1] >= 0)) return fail(`steps rows must be [seconds, Mbps] pairs >= 0, got ${show(v)}`);
        steps = v.map(([s, mbps]) => ({ atMs: s * 1000, bitsPerSecond: mbps * 1e6 }));
      } else steps = load(v, parseStepCsv);
      if (!steps) return null;
      if (!steps.length) return fail('steps trace has no rows');
      for (let i = 1; i < steps.length; i += 1) if (!(steps[i].atMs > steps[i - 1].atMs)) return fail(`steps times must increase (row ${i + 1})`);
      return { kind: 'steps', steps };
    }
    case 'mahimahi': {
      const times = load(v, parseMahimahi);
      return times ? { kind: 'mahimahi', times } : null;
    }
    default:
      return fail(`unknown rate schedule "${kind}" (square, steps, mahimahi)`);
  }
}

/**
 * Checks a profile; returns its normal form (numbers in the file's units, rate as a
 * rate-schedule spec in bits/s) and pushes problems. `partial` for overrides (abrs[].link).
 */
function validateProfile(raw, where, problems, readText, { partial = false } = {}) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`${where} must be a map of network settings, got ${show(raw)}`);
    return {};
  }
  const out = {};
  for (const k of Object.keys(raw)) if (!KEYS.includes(k)) problems.push(`${where}: unknown setting "${k}" (known: ${KEYS.join(', ')})`);
  const num = (k, { min = 0, max = Infinity, integer = false, exclusiveMin = false } = {}) => {
    if (raw[k] === undefined) return;
    const v = raw[k];
    const ok = typeof v === 'number' && Number.isFinite(v) && (exclusiveMin ? v > min : v >= min) && v <= max && (!integer || Number.isInteger(v));
    if (!ok) problems.push(`${where}.${k} must be ${integer ? 'a whole number' : 'a number'} ${exclusiveMin ? '>' : '>='} ${min}${max < Infinity ? ` and <= ${max}` : ''}, got ${show(v)}`);
    else out[k] = v;
  };
  num('rttMs');
  num('jitterMs');
  num('jitterPercent', { max: 100 });
  for (const k of ['lossPercent', 'duplicatePercent', 'corruptPercent', 'reorderPercent']) num(k, { max: 100 });
  num('rateMbps', { exclusiveMin: true });
  num('uplinkRateMbps', { exclusiveMin: true });
  num('queuePackets', { min: 1, integer: true });
  num('queueBytes', { min: MTU, integer: true });
  num('queueMs', { exclusiveMin: true });
  num('seed', { integer: true });
  if (raw.jitterReorders !== undefined) {
    if (typeof raw.jitterReorders !== 'boolean') problems.push(`${where}.jitterReorders must be true or false`);
    else out.jitterReorders = raw.jitterReorders;
  }
  if (raw.description !== undefined) out.description = String(raw.description);
  if (raw.jitterMs !== undefined && raw.jitterPercent !== undefined) problems.push(`${where}: give jitterMs or jitterPercent, not both`);
  if (raw.rateMbps !== undefined && raw.rate !== undefined) problems.push(`${where}: give rateMbps or rate, not both`);
  if ([raw.queuePackets, raw.queueBytes, raw.queueMs].filter((v) => v !== undefined).length > 1) problems.push(`${where}: give one of queuePackets, queueBytes, queueMs`);
  if (raw.rate !== undefined) {
    const spec = rateSpec(raw.rate, `${where}.rate`, problems, readText);
    if (spec) out.rate = spec;
  } else if (out.rateMbps !== undefined) {
    out.rate = { kind: 'constant', bitsPerSecond: out.rateMbps * 1e6 };
  }
  delete out.rateMbps;
  if (!partial) out.rttMs = out.rttMs ?? 0;
  return out;
}

/** Overrides (abrs[].link) on top of a profile: a new rate replaces the old one whole. */
function mergeProfile(profile, override) {
  if (!override) return profile;
  const merged = { ...profile, ...override };
  if (override.jitterMs !== undefined) delete merged.jitterPercent;
  if (override.jitterPercent !== undefined) delete merged.jitterMs;
  for (const q of ['queuePackets', 'queueBytes', 'queueMs']) {
    if (override[q] !== undefined) for (const other of ['queuePackets', 'queueBytes', 'queueMs']) if (other !== q) delete merged[other];
  }
  return merged;
}

/** The highest rate a spec ever reaches (bits/s), null when unlimited. */
function peakRate(spec) {
  if (!spec) return null;
  switch (spec.kind) {
    case 'constant': return spec.bitsPerSecond || null;
    case 'square': return Math.max(spec.lowBitsPerSecond, spec.highBitsPerSecond);
    case 'steps': return Math.max(...spec.steps.map((s) => s.bitsPerSecond));
    case 'mahimahi': {
      // Densest second of the trace.
      let best = 0;
      let j = 0;
      for (let i = 0; i < spec.times.length; i += 1) {
        while (spec.times[i] - spec.times[j] >= 1000) j += 1;
        best = Math.max(best, i - j + 1);
      }
      return best * MTU * 8;
    }
    default: return null;
  }
}

/** Profile -> {toClient, toServer} LinkDirection settings (testbed/netem/link-direction.js). */
/**
 * @param {object} p  a validated profile
 * @param {{repetition?: number}} [o]  which repetition (1-based) the settings are for
 */
function profileToLinkSettings(p, { repetition = 1 } = {}) {
  const oneWay = (p.rttMs || 0) / 2;
  const jitterMs = p.jitterMs ?? (p.jitterPercent ? (oneWay * p.jitterPercent) / 100 : 0);
  const common = {
    delayMs: oneWay,
    jitterMs,
    jitterReorders: Boolean(p.jitterReorders),
    lossRate: (p.lossPercent || 0) / 100,
    duplicateRate: (p.duplicatePercent || 0) / 100,
    corruptRate: (p.corruptPercent || 0) / 100,
    reorderRate: (p.reorderPercent || 0) / 100,
  };
  const peak = peakRate(p.rate);
  let queueLimitBytes = null;
  let queueLimitPackets = null;
  if (p.queuePackets) queueLimitPackets = p.queuePackets;
  else if (p.queueBytes) queueLimitBytes = p.queueBytes;
  else if (peak) queueLimitBytes = Math.max(2 * MTU, Math.round((peak * (p.queueMs ?? DEFAULT_QUEUE_MS)) / 8000));
  const seed = (p.seed ?? 1) + 2 * (repetition - 1);
  return {
    toClient: { ...common, rate: p.rate || null, queueLimitBytes, queueLimitPackets, seed },
    toServer: { ...common, rate: p.uplinkRateMbps ? { kind: 'constant', bitsPerSecond: p.uplinkRateMbps * 1e6 } : null, queueLimitBytes: null, queueLimitPackets: null, seed: seed + 1 },
  };
}

/** A one-line description for tables and progress lines. */
function describeProfile(p) {
  const parts = [`RTT ${p.rttMs} ms`];
  const r = p.rate;
  if (r) {
    if (r.kind === 'constant') parts.push(`${r.bitsPerSecond / 1e6} Mbit/s`);
    else if (r.kind === 'square') parts.push(`${r.lowBitsPerSecond / 1e6}-${r.highBitsPerSecond / 1e6} Mbit/s every ${r.periodMs / 1000} s`);
    else if (r.kind === 'steps') parts.push(`trace ${Math.min(...r.steps.map((s) => s.bitsPerSecond)) / 1e6}-${peakRate(r) / 1e6} Mbit/s`);
    else parts.push('mahimahi trace');
  }
  if (p.jitterMs || p.jitterPercent) parts.push(`jitter ${p.jitterMs !== undefined ? `${p.jitterMs} ms` : `${p.jitterPercent} %`}`);
  for (const [k, label] of [['lossPercent', 'loss'], ['duplicatePercent', 'dup'], ['corruptPercent', 'corrupt'], ['reorderPercent', 'reorder']]) if (p[k]) parts.push(`${label} ${p[k]} %`);
  return parts.join(', ');
}

module.exports = { validateProfile, mergeProfile, profileToLinkSettings, peakRate, describeProfile, DEFAULT_QUEUE_MS };
