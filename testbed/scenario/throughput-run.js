'use strict';
// A scenario's `throughput` key: instead of playing content, each run's page fetches an
// unbounded source over the transport for a fixed time and records its in-order throughput
// (paper 001 Fig. 6: "an infinite data source ... every 10 seconds the in-order throughput is
// measured"). The source is the origin's GET /bytes/<2^40> (origin/byte-source.js), fetched as
// consecutive byte ranges of requestMiB each, one after another, through the transport
// registry's createTransport (testbed/throughput/page-hook.js). Checked here, with the rest of
// the scenario; every problem is pushed with its path.
//
//   throughput:
//     seconds: 500        how long each run fetches (required)
//     sampleSeconds: 10   the windows the in-order throughput is reported in (default 10)
//     requestMiB: 64      the size of each range request (default 64); a request-response
//                         transport cuts each into its own chunks, a single connection carries
//                         it as one response, and between two of them it waits one round trip
//                         (at 8 Mbit/s a 64 MiB range takes ~65 s, so that wait is under 0.5 %)

const KEYS = ['seconds', 'sampleSeconds', 'requestMiB'];
const MAX_SECONDS = 24 * 3600;

// A throughput run plays nothing: it stands where the matrix has an ABR (ids and tables leave it out).
const THROUGHPUT_ABR = Object.freeze({ name: null, label: null, params: {}, link: null, networks: null });

// Top-level keys that belong to playing content and mean nothing to a throughput run.
const PLAYBACK_ONLY_KEYS = ['content', 'durationSeconds', 'abrs', 'seekSchedules', 'keepBitrateOnSeek'];

const show = (v) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * @param {*} raw        the scenario's `throughput` value
 * @param {object} scenarioRaw  the whole scenario (its playback-only keys are refused)
 * @param {string[]} problems
 * @returns {{seconds: number, sampleSeconds: number, requestMiB: number}|null}
 */
function validateThroughput(raw, scenarioRaw, problems) {
  if (raw === undefined) return null;
  if (!isObject(raw)) {
    problems.push(`throughput must be {seconds, sampleSeconds, requestMiB}, got ${show(raw)}`);
    return null;
  }
  for (const k of Object.keys(raw)) if (!KEYS.includes(k)) problems.push(`throughput: unknown key "${k}" (${KEYS.join(', ')})`);
  const num = (k, fallback, ok, text) => {
    const v = raw[k] ?? fallback;
    if (!(typeof v === 'number' && Number.isFinite(v) && ok(v))) {
      problems.push(`throughput.${k} must be ${text}, got ${show(raw[k])}`);
      return null;
    }
    return v;
  };
  const seconds = num('seconds', undefined, (v) => v > 0 && v <= MAX_SECONDS, `a number of seconds > 0 and <= ${MAX_SECONDS}`);
  const sampleSeconds = num('sampleSeconds', 10, (v) => v >= 1 && (seconds === null || v <= seconds), `a number of seconds >= 1 and <= throughput.seconds`);
  const requestMiB = num('requestMiB', 64, (v) => v > 0 && v <= 1024, 'a number of MiB > 0 and <= 1024');
  for (const k of PLAYBACK_ONLY_KEYS) {
    if (scenarioRaw[k] !== undefined) problems.push(`${k}: a throughput run plays no content (it fetches /bytes from the origin for throughput.seconds); remove ${k}`);
  }
  return { seconds, sampleSeconds, requestMiB };
}

module.exports = { validateThroughput, THROUGHPUT_ABR, PLAYBACK_ONLY_KEYS };
