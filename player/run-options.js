'use strict';
// A playback's options, parsed by one set of rules whether they come from the page's URL
// (player/run-config.js) or a scenario file (testbed/scenario/validate-scenario.js): the seek
// schedule, the stop time, the transport and its options (BP, from the transport registry),
// the ABR and its parameters (from the ABR registry). Each parser takes the raw value (text
// from a URL, a number or a list from YAML), says where it came from, and pushes every problem
// onto `problems` instead of throwing, so a scenario reports all of them at once and a URL the
// first.
const { transports } = require('./transports');
const { abrs } = require('./abr');
const { numberFrom, show } = require('./option-values');

/**
 * Where a value came from, for messages. The sentence is the same whatever the source; only
 * the name of the place differs:
 *   whole   names the value when all of it is refused ("... must be 0-100")
 *   part    names the value when a part of it is quoted after a colon ("bp: a BP range ...")
 *   item(q) names one item of a list by its text ("seek "40-100" is not ...")
 * @typedef {{whole: string, part: string, item: (quoted: string) => string}} Where
 */

/** A place in a scenario file, by its path: "transports[2].bp", "seekSchedules.table3". */
function inFile(path) {
  return { whole: path, part: path, item: (quoted) => `${path}: ${quoted}` };
}

/**
 * A page URL parameter. A bare parameter name says little ("bp"), so a refused value is named
 * with the parameter's title when it has one: "bp (Bitstream Prioritization) must be 0-100".
 * @param {string} param
 * @param {{title?: string, itemNoun?: string}} [o]  itemNoun: what one item of a list is
 *   called ("seek")
 */
function inUrl(param, { title, itemNoun } = {}) {
  return { whole: title ? `${param} (${title})` : param, part: param, item: (quoted) => `${itemNoun || param} ${quoted}` };
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A seek schedule: "40:100, 150:200" (also "40->100"), or a list of [at, to] / {at, to} in
 * media seconds. Seek times must increase.
 * @returns {{at: number, to: number}[]} (empty when absent)
 */
function parseSeekSchedule(raw, where, problems) {
  if (raw === undefined || raw === null) return [];
  let list = raw;
  if (typeof raw === 'string') {
    list = raw.trim() ? raw.split(',').map((part) => {
      const m = /^\s*(\d+(?:\.\d+)?)\s*(?::|->)\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
      if (!m) {
        problems.push(`${where.item(`"${part.trim()}"`)} is not "AT:TO" in media seconds, e.g. 40:100`);
        return null;
      }
      return [Number(m[1]), Number(m[2])];
    }) : [];
  }
  if (!Array.isArray(list)) {
    problems.push(`${where.whole} must be "AT:TO, ..." or a list of [at, to] pairs, got ${show(raw)}`);
    return [];
  }
  const seeks = [];
  list.forEach((s, i) => {
    if (s === null) return;
    const pair = Array.isArray(s) ? { at: s[0], to: s[1] } : s;
    if (!isObject(pair) || typeof pair.at !== 'number' || typeof pair.to !== 'number' || !(pair.at >= 0) || !(pair.to >= 0)) {
      problems.push(`${where.part}[${i}] must be [at, to] or {at, to} in media seconds >= 0, got ${show(s)}`);
      return;
    }
    if (seeks.length && pair.at <= seeks[seeks.length - 1].at) problems.push(`${where.part}[${i}]: seek times must increase (${pair.at} s after ${seeks[seeks.length - 1].at} s)`);
    seeks.push({ at: pair.at, to: pair.to });
  });
  return seeks;
}

/** The page URL's form of a seek schedule (what parseSeekSchedule reads back). */
function formatSeekSchedule(seeks) {
  return seeks.map((s) => `${s.at}:${s.to}`).join(', ');
}

/** The media time a playback stops at: seconds > 0. @returns {number|undefined} */
function parseStopTime(raw, where, problems) {
  const n = numberFrom(raw);
  if (!(n > 0)) {
    problems.push(`${where.whole} must be a positive media time in seconds, got ${show(raw)}`);
    return undefined;
  }
  return n;
}

// A live playback's target latency: dash.js's liveDelay (player/live/). Paper 002's live runs had
// an 8 s buffer, which needs a latency of more than 8 s (a segment is available only once it
// has ended).
const LIVE_DELAY_LIMITS = Object.freeze({ min: 1, max: 120, default: 10 });

/** A live target latency in seconds, 1-120. @returns {number|undefined} */
function parseLiveDelay(raw, where, problems) {
  const n = numberFrom(raw);
  if (!(n >= LIVE_DELAY_LIMITS.min && n <= LIVE_DELAY_LIMITS.max)) {
    problems.push(`${where.whole} must be a target live latency of ${LIVE_DELAY_LIMITS.min}-${LIVE_DELAY_LIMITS.max} seconds, got ${show(raw)}`);
    return undefined;
  }
  return n;
}

/**
 * A live playback needs a transport that can fetch the live broadcast, and has no seek
 * schedule (a seek in a broadcast is a jump in the time-shift window, not paper 002's frame
 * seek).
 */
function checkLivePlayback({ transport, seeks }, where, problems) {
  if (transport && transport.liveRefusal) problems.push(`${where.whole}: transport "${transport.name}" cannot play live: ${transport.liveRefusal}`);
  if (seeks && seeks.length) problems.push(`${where.whole}: a live playback takes no seek schedule (seeks are for on-demand content)`);
}

/** A transport by its registry name. @returns {object|null} the registry entry */
function parseTransportName(name, where, problems) {
  if (!transports.has(name)) {
    problems.push(`${where.whole} ${show(name)} is not a transport (${transports.names().join(', ')})`);
    return null;
  }
  return transports.get(name);
}

/** An ABR by its registry name. @returns {object|null} the registry entry */
function parseAbrName(name, where, problems) {
  if (!abrs.has(name)) {
    problems.push(`${where.whole} ${show(name)} is not an ABR (${abrs.names().join(', ')})`);
    return null;
  }
  return abrs.get(name);
}

/**
 * Overrides of an ABR's parameters: an object, or its JSON text (URL). Checked against the
 * ABR's own parameter rules when the ABR is known.
 * @param {object|null} abr  the registry entry (null: only the shape is checked)
 * @returns {object|undefined} the overrides as given (empty when absent)
 */
function parseAbrParams(abr, raw, where, problems) {
  if (raw === undefined || raw === null || raw === '') return {};
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (err) {
      problems.push(`${where.whole} must be JSON, e.g. {"bufferSizeSeconds":20}: ${err.message}`);
      return undefined;
    }
  }
  if (!isObject(value)) {
    problems.push(`${where.whole} must be a JSON object (a map in YAML), got ${show(value)}`);
    return undefined;
  }
  if (abr) {
    try {
      abr.resolveParams(value);
    } catch (err) {
      problems.push(`${where.part}: ${err.message}`);
      return undefined;
    }
  }
  return value;
}

/**
 * One transport option (e.g. the DataChannel's bp), by the rules of the transport that owns
 * it. @returns {*} the value in its normal form, undefined on a problem
 */
function parseTransportOption(transport, key, raw, where, problems) {
  const before = problems.length;
  const value = transport.options[key].parse(raw, where, problems);
  return problems.length > before ? undefined : value;
}

/** Turns a list of problems into one thrown Error (for callers that stop at the first). */
function throwIfAny(problems) {
  if (problems.length) throw new Error(problems.join('; '));
}

module.exports = {
  inFile,
  inUrl,
  parseSeekSchedule,
  formatSeekSchedule,
  parseStopTime,
  parseLiveDelay,
  checkLivePlayback,
  LIVE_DELAY_LIMITS,
  parseTransportName,
  parseAbrName,
  parseAbrParams,
  parseTransportOption,
  throwIfAny,
};
