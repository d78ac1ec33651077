'use strict';
// The transport registry: the one list of the transports a playback can use. The page's menu,
// URL parsing, scenario validation, the matrix, results.csv and the report all read it. A new
// transport is a file in entries/ (the contract is in contract.js) plus one line below.
const { createRegistry } = require('../registry');
const { normalizeTransport, checkAgainstRegistered } = require('./contract');

const transports = createRegistry({ kind: 'transport', normalize: normalizeTransport, checkAgainst: checkAgainstRegistered });

transports.register(require('./entries/http11'));
transports.register(require('./entries/http10'));
transports.register(require('./entries/h2'));
transports.register(require('./entries/datachannel'));
transports.register(require('./entries/h3'));
transports.register(require('./entries/webtransport'));
transports.register(require('./entries/parallel'));

/** Every option key any registered transport takes, in registration order, with its option. */
function transportOptions() {
  const out = new Map();
  for (const t of transports.list()) for (const [key, o] of Object.entries(t.options)) if (!out.has(key)) out.set(key, o);
  return out;
}

/** The registered transports that take an option. */
function transportsWithOption(key) {
  return transports.list().filter((t) => t.options[key]).map((t) => t.name);
}

/** An option's values for one transport: what was given, defaults for the rest. */
function optionsWithDefaults(entry, given) {
  const out = {};
  for (const [key, o] of Object.entries(entry.options)) {
    const v = given ? given[key] : undefined;
    out[key] = v === undefined || v === null ? o.default : v;
  }
  return out;
}

/**
 * The Chromium flags the registered transports need for an origin (its ready line or GET
 * /api/info): each transport whose listener the origin has adds its entry's chromiumArgs, so
 * the launcher knows no transport by name.
 * @param {{urls: object}|null} info
 * @returns {string[]}
 */
function chromiumArgsFor(info) {
  const out = [];
  if (!info || !info.urls) return out;
  for (const t of transports.list()) {
    if (!info.urls[t.urlKey]) continue;
    for (const arg of t.chromiumArgs(info)) if (!out.includes(arg)) out.push(arg);
  }
  return out;
}

/**
 * @param {string} name   a registered transport
 * @param {object} urls   the origin's listener URLs (GET /api/info)
 * @param {object} [options]  the transport's options (missing ones take their defaults)
 * @param {{bufferLevel?: () => number, stallState?: () => {totalMs: number, since: number|null}, nextSegmentUrl?: (url: string) => string|null}} [context]
 *   seconds buffered; the player's stalls (FDSP's fragment deadlines move by them)
 */
function createTransport(name, urls, options = {}, context = {}) {
  const entry = transports.get(name);
  if (!urls || !urls[entry.urlKey]) throw new Error(`the origin did not say where its ${name} endpoint is (GET /api/info has no urls.${entry.urlKey})`);
  return entry.create(urls[entry.urlKey], optionsWithDefaults(entry, options), { bufferLevel: () => 0, stallState: () => ({ totalMs: 0, since: null }), ...context });
}

module.exports = { transports, createTransport, transportOptions, transportsWithOption, optionsWithDefaults, chromiumArgsFor };
