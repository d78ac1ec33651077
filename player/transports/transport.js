'use strict';
// The one interface every transport implements (the HTTP ones in http-fetch-transport.js, the
// DataChannel in datachannel-transport.js), so dash.js, ABR and QoE code never know which one
// is in use. A transport fetches a URL (optionally a byte range) and reports progress,
// completion and its own accounting. Its registry entry (contract.js) says how to create it.
//
//   transport.name        stable id ('http11', 'http10', 'h2', 'datachannel', ...)
//   transport.label       what the page shows
//   transport.load(request, callbacks) -> { abort() }
//     request   = { url, range: {start, end} | null, responseType: 'arraybuffer' | 'text', timeoutMs,
//                 durationSeconds? (a media segment's, from dash.js) }
//     callbacks = { onProgress({loaded, total}), onComplete(response), onError(error) }
//     response  = { url, status, statusText, headers: {name: value}, data, accounting }
//   A transport may hand bytes over ahead of the whole (FDSP's fragments at their deadlines):
//   onProgress({data: ArrayBuffer, ...}) in order, each whole moof+mdat pairs; the response then
//   carries `appendData`, the bytes not yet handed over, beside the whole `data`.
//     accounting = { transport, protocol, bytes, requestStart, firstByte, lastByte } (ms, performance.now())
//   Exactly one of onComplete / onError is called, never after abort().

/** A byte range as an HTTP Range header value (inclusive end, RFC 9110). */
function rangeHeader(range) {
  if (!range) return null;
  const { start, end } = range;
  if (!Number.isInteger(start) || start < 0) throw new RangeError(`range start must be a non-negative integer, got ${start}`);
  if (end === undefined || end === null) return `bytes=${start}-`;
  if (!Number.isInteger(end) || end < start) throw new RangeError(`range end must be an integer >= start, got ${end}`);
  return `bytes=${start}-${end}`;
}

/** dash.js gives ranges as "start-end" strings. */
function parseDashRange(value) {
  if (value === undefined || value === null || value === '') return null;
  const m = /^(\d+)-(\d*)$/.exec(String(value));
  if (!m) throw new RangeError(`unrecognised byte range "${value}"`);
  return { start: Number(m[1]), end: m[2] === '' ? null : Number(m[2]) };
}

/**
 * Rebases a URL onto a transport's base URL (same path and query, other scheme/host/port),
 * because the page, the MPD and each transport's listener may live on different origins.
 */
function rebaseUrl(url, baseUrl, pageUrl) {
  const absolute = new URL(url, pageUrl);
  const base = new URL(baseUrl);
  absolute.protocol = base.protocol;
  absolute.host = base.host;
  return absolute.toString();
}

module.exports = { rangeHeader, parseDashRange, rebaseUrl };
