'use strict';
// A paper's own figures, carried in the scenario that reproduces them, so the report can set
// "what we measured" beside "what the paper printed" in the same table layout. Pure.
//
// In a scenario:
//   reference:
//     source: Paper 000 Table 3 (Bunny), rebuffering over the whole clip
//     entries:
//       - { transport: fdsp-bp0, network: rtt50, rebufferSeconds: 0.093, rebufferInstances: 2 }
//       - { transport: http11, abr: fixed-4M, network: rtt50, rebufferSeconds: 1.147, rebufferInstances: 1 }
// Values are in the metric's own unit (the keys of aggregate.js's reportMetrics(): seconds, ratios,
// bit/s), not the report's display unit, so the report scales ours and the paper's alike.
// `abr` may be left out when the scenario has one ABR per transport. `switch` names a switch
// schedule, for papers whose rows are interface-switch patterns (paper 002 Tables 8-9); an
// entry without it stands for every schedule.
const { reportMetrics, pivot } = require('./aggregate');

const ENTRY_KEYS = ['transport', 'abr', 'network', 'switch'];
const show = (v) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks a scenario's `reference` against its labels; problems are pushed, all at once.
 * @param {*} raw
 * @param {{transports: string[], abrs: string[], networks: string[], switchSchedules?: string[]}} names  the scenario's labels
 * @param {string[]} problems
 * @returns {{source: string, entries: object[]}|null}
 */
function validateReference(raw, names, problems) {
  if (raw === undefined) return null;
  if (!isObject(raw)) {
    problems.push(`reference must be {source, entries: [...]}, got ${show(raw)}`);
    return null;
  }
  for (const k of Object.keys(raw)) if (!['source', 'entries'].includes(k)) problems.push(`reference: unknown key "${k}" (source, entries)`);
  if (typeof raw.source !== 'string' || !raw.source.trim()) problems.push('reference.source must say where the figures come from (e.g. "Paper 000 Table 3")');
  if (!Array.isArray(raw.entries) || !raw.entries.length) {
    problems.push(`reference.entries must be a non-empty list of {transport, network, METRIC: value}, got ${show(raw.entries)}`);
    return null;
  }
  const seen = new Set();
  const entries = [];
  const metricKeys = reportMetrics().map((m) => m.key);
  raw.entries.forEach((e, i) => {
    const at = `reference.entries[${i}]`;
    if (!isObject(e)) return problems.push(`${at} must be {transport, network, METRIC: value}, got ${show(e)}`);
    if (!names.transports.includes(e.transport)) problems.push(`${at}.transport ${show(e.transport)} is not one of the scenario's transports (${names.transports.join(', ')})`);
    if (e.abr !== undefined && !names.abrs.includes(e.abr)) problems.push(`${at}.abr ${show(e.abr)} is not one of the scenario's ABRs (${names.abrs.join(', ')})`);
    if (!names.networks.includes(e.network)) problems.push(`${at}.network ${show(e.network)} is not one of the scenario's networks (${names.networks.join(', ')})`);
    const schedules = names.switchSchedules || [];
    if (e.switch !== undefined && !schedules.includes(e.switch)) problems.push(`${at}.switch ${show(e.switch)} is not one of the scenario's switch schedules (${schedules.join(', ') || 'it has none'})`);
    const values = {};
    for (const [k, v] of Object.entries(e)) {
      if (ENTRY_KEYS.includes(k)) continue;
      if (!metricKeys.includes(k)) problems.push(`${at}: "${k}" is not a metric (${metricKeys.join(', ')})`);
      else if (!(typeof v === 'number' && Number.isFinite(v))) problems.push(`${at}.${k} must be a number in the metric's own unit, got ${show(v)}`);
      else values[k] = v;
    }
    if (!Object.keys(values).length) problems.push(`${at} gives no metric value`);
    const key = `${e.transport}|${e.abr ?? '*'}|${e.network}|${e.switch ?? '*'}`;
    if (seen.has(key)) problems.push(`${at}: ${e.transport}${e.abr ? ` / ${e.abr}` : ''} on ${e.network}${e.switch ? ` / ${e.switch}` : ''} is given twice`);
    seen.add(key);
    entries.push({ transport: e.transport, ...(e.abr !== undefined ? { abr: e.abr } : {}), network: e.network, ...(e.switch !== undefined ? { switch: e.switch } : {}), values });
    return undefined;
  });
  return { source: raw.source, entries };
}

function entryFor(reference, key) {
  return reference.entries.find((e) => e.transport === key.transport && (e.abr === undefined || e.abr === key.abr) && e.network === key.network
    && (e.switch === undefined || e.switch === key.switchSchedule));
}

/**
 * The paper's figures for one metric laid out like pivot(groups, metricKey): same rows and
 * columns as our table, a cell {n: 1, mean: v, min: v, max: v} where the paper gives a value.
 * @returns {object|null} null when the reference has nothing for this metric
 */
function referencePivot(groups, reference, metricKey) {
  if (!reference || !reference.entries.some((e) => e.values[metricKey] !== undefined)) return null;
  const asGroups = groups.map((g) => {
    const e = entryFor(reference, g.key);
    const v = e ? e.values[metricKey] : undefined;
    return { ...g, metrics: { [metricKey]: v === undefined ? null : { n: 1, mean: v, min: v, max: v } } };
  });
  return pivot(asGroups, metricKey);
}

module.exports = { validateReference, referencePivot };
