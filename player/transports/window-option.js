'use strict';
// The DataChannel transport's receive window (issue 16 item 2, "what the receiver takes"): "off"
// (default), or K KiB: the origin keeps at most K KiB of DATA, both channels together, sent and
// not yet acknowledged; the player acknowledges every quarter of it (shared/fdsp/client-core.js,
// origin/datachannel/in-flight-window.js). Why: on plain loopback Chromium's UDP socket (64 KiB
// receive buffer) dropped datagrams, paced or not; a window under that buffer should bound what
// can land while it is not reading. Measured, it did not stop those drops (README, "The
// unreliable channel's pace"). It caps the rate at K KiB per round trip (48 KiB at 50 ms:
// 7.9 Mbit/s), so it is off unless asked for.
// Parsed here only: page URL (?window=), a scenario's transport entry, the page's form.
const { numberFrom, show } = require('../option-values');
const { MIN_WINDOW_BYTES, MAX_WINDOW_BYTES } = require('../../shared/fdsp/frames');

const MIN_KIB = Math.ceil(MIN_WINDOW_BYTES / 1024);
const MAX_KIB = MAX_WINDOW_BYTES / 1024;

function parse(raw, where, problems) {
  if (typeof raw === 'string' && raw.trim() === 'off') return 'off';
  const n = numberFrom(raw);
  if (!(Number.isInteger(n) && n >= MIN_KIB && n <= MAX_KIB)) {
    problems.push(`${where.whole} must be "off" or a whole number of KiB from ${MIN_KIB} to ${MAX_KIB}, got ${show(raw)}`);
    return undefined;
  }
  return n;
}

/** Bytes for the origin's REQUEST, or null (no window). */
const windowBytes = (value) => (value === 'off' || value === undefined ? null : value * 1024);

module.exports = {
  title: 'receive window',
  noun: 'a receive window',
  help: `KiB of data the origin may have in flight before the player's acknowledgements (${MIN_KIB}-${MAX_KIB}), or "off" (default); caps the rate at that much per round trip`,
  default: 'off',
  parse,
  format: (value) => String(value),
  windowBytes,
  MIN_KIB,
  MAX_KIB,
};
