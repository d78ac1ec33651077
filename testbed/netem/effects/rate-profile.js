'use strict';
// The downlink rate as a scenario profile states it, and the rate-schedule spec
// (../rate-schedule.js) it becomes:
//   rateMbps: N                                  a constant rate
//   rate: {square: {lowMbps, highMbps, periodSeconds}}
//   rate: {steps: "trace.csv"}  (rows "seconds,kbps")  or  {steps: [[s, Mbps], ...]}
//   rate: {mahimahi: "trace.down"}
const { MTU, parseStepCsv, parseMahimahi } = require('../rate-schedule');

const show = (v) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));

/** A profile's `rate` -> a rate-schedule spec, or null after pushing the problem to v. */
function rateSpec(raw, v) {
  const fail = (msg) => {
    v.problem(msg, 'rate');
    return null;
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length !== 1) {
    return fail(`must be one of {square: {lowMbps, highMbps, periodSeconds}}, {steps: FILE or [[seconds, Mbps], ...]}, {mahimahi: FILE}; got ${show(raw)}`);
  }
  const [kind, value] = Object.entries(raw)[0];
  const load = (file, parse) => {
    if (typeof file !== 'string') return fail(`${kind} must name a trace file next to the scenario, got ${show(file)}`);
    if (!v.readText) return fail(`${kind}: trace files can only be read from a scenario file`);
    try {
      return parse(v.readText(file));
    } catch (err) {
      return fail(`${kind} trace "${file}": ${err.message}`);
    }
  };
  switch (kind) {
    case 'square': {
      if (!value || !(value.lowMbps > 0) || !(value.highMbps > 0) || !(value.periodSeconds > 0)) return fail(`square needs lowMbps, highMbps and periodSeconds > 0, got ${show(value)}`);
      return { kind: 'square', lowBitsPerSecond: value.lowMbps * 1e6, highBitsPerSecond: value.highMbps * 1e6, periodMs: value.periodSeconds * 1000 };
    }
    case 'steps': {
      let steps;
      if (Array.isArray(value)) {
        if (!value.every((r) => Array.isArray(r) && r.length === 2 && r[0] >= 0 && r[1] >= 0)) return fail(`steps rows must be [seconds, Mbps] pairs >= 0, got ${show(value)}`);
        steps = value.map(([s, mbps]) => ({ atMs: s * 1000, bitsPerSecond: mbps * 1e6 }));
      } else steps = load(value, parseStepCsv);
      if (!steps) return null;
      if (!steps.length) return fail('steps trace has no rows');
      for (let i = 1; i < steps.length; i += 1) if (!(steps[i].atMs > steps[i - 1].atMs)) return fail(`steps times must increase (row ${i + 1})`);
      return { kind: 'steps', steps };
    }
    case 'mahimahi': {
      const times = load(value, parseMahimahi);
      return times ? { kind: 'mahimahi', times } : null;
    }
    default:
      return fail(`unknown rate schedule "${kind}" (square, steps, mahimahi)`);
  }
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

/** "8 Mbit/s", "4-6 Mbit/s every 4 s", ... */
function describeRate(r) {
  if (r.kind === 'constant') return `${r.bitsPerSecond / 1e6} Mbit/s`;
  if (r.kind === 'square') return `${r.lowBitsPerSecond / 1e6}-${r.highBitsPerSecond / 1e6} Mbit/s every ${r.periodMs / 1000} s`;
  if (r.kind === 'steps') return `trace ${Math.min(...r.steps.map((s) => s.bitsPerSecond)) / 1e6}-${peakRate(r) / 1e6} Mbit/s`;
  return 'mahimahi trace';
}

module.exports = { rateSpec, peakRate, describeRate };
