'use strict';
// A scenario's `competingFlows`: bulk TCP flows from the server namespace to the client
// namespace through the same emulated link, alongside every playback or throughput run
// (paper 001 Fig. 7: one TCP Reno download competing with the streams). The runner starts and
// stops them (testbed/competing/competing-flows.js); each is counted by its receiver and by the
// emulator. Checked here with the rest of the scenario; every problem is pushed with its path.
//
//   competingFlows:
//     - label: reno1      name in records and tables (default "<cc><n>", n from 1)
//       cc: reno          the sender's TCP congestion control (testbed/congestion/registry.js)
//       startSeconds: 0   after the playback's start (default 0)
//       stopSeconds: 500  (default: until the playback ends)

const KEYS = ['label', 'cc', 'startSeconds', 'stopSeconds'];
// Each flow has an address of its own in the client namespace (10.77.X.100 + i).
const MAX_FLOWS = 8;
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

const show = (v) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * @param {*} raw  the scenario's `competingFlows` value
 * @param {object} o
 * @param {string[]} o.congestionControls  the names allowed (validate-scenario.js's list)
 * @param {number|null} o.runSeconds  how long each run lasts (media or throughput seconds), if known
 * @param {string[]} problems
 * @returns {Array<{label: string, cc: string, startSeconds: number, stopSeconds: number|null}>|null}
 */
function validateCompetingFlows(raw, { congestionControls, runSeconds }, problems) {
  if (raw === undefined) return null;
  if (!Array.isArray(raw) || !raw.length) {
    problems.push(`competingFlows must be a non-empty list of {cc, startSeconds, stopSeconds}, got ${show(raw)}`);
    return null;
  }
  if (raw.length > MAX_FLOWS) problems.push(`competingFlows: at most ${MAX_FLOWS} flows, got ${raw.length}`);
  const out = [];
  raw.forEach((f, i) => {
    const at = `competingFlows[${i}]`;
    if (!isObject(f)) {
      problems.push(`${at} must be {cc, startSeconds, stopSeconds}, got ${show(f)}`);
      return;
    }
    for (const k of Object.keys(f)) if (!KEYS.includes(k)) problems.push(`${at}: unknown key "${k}" (${KEYS.join(', ')})`);
    if (!congestionControls.includes(f.cc)) problems.push(`${at}.cc must be one of ${congestionControls.join(', ')}, got ${show(f.cc)}`);
    const start = f.startSeconds ?? 0;
    if (!(typeof start === 'number' && Number.isFinite(start) && start >= 0)) problems.push(`${at}.startSeconds must be a number of seconds >= 0, got ${show(f.startSeconds)}`);
    else if (runSeconds && start >= runSeconds) problems.push(`${at}.startSeconds ${start} is not before the run's end (${runSeconds} s)`);
    const stop = f.stopSeconds ?? null;
    if (stop !== null && !(typeof stop === 'number' && Number.isFinite(stop) && stop > start)) problems.push(`${at}.stopSeconds must be a number of seconds after startSeconds (${show(start)}), got ${show(f.stopSeconds)}`);
    const label = f.label ?? `${f.cc}${i + 1}`;
    if (typeof label !== 'string' || !NAME_RE.test(label)) problems.push(`${at}.label ${show(label)} must be letters, digits, "-", "_" or "."`);
    out.push({ label, cc: f.cc, startSeconds: start, stopSeconds: stop });
  });
  const labels = out.map((f) => f.label);
  labels.forEach((l, i) => { if (labels.indexOf(l) !== i) problems.push(`competingFlows: label "${l}" is used twice`); });
  return out;
}

module.exports = { validateCompetingFlows, MAX_FLOWS };
