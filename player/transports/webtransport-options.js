'use strict';
// The WebTransport transport's options, written once: the page URL (?carrier=split), a
// scenario's transport entry ({name: webtransport, carrier: split}) and the page's form all
// parse them here (the registry entry, entries/webtransport.js, lists them).
//   carrier      single: one session, its stream and datagrams under one congestion controller;
//                split: the reliable part on one session, the datagrams on a second one under
//                `fixed` (paper 000's TCP + uncontrolled UDP, in a browser)
//   cc           the congestion controller of the session carrying the reliable part (single:
//                of everything)
//   fixedMargin  a `fixed` session's rate = the highest representation's bandwidth x this
const { numberFrom, show, oneOf } = require('../option-values');

const CARRIERS = ['single', 'split'];
// The QUIC server's controllers (origin/quic: quinn's three and its own `fixed`).
const CONGESTION_CONTROLLERS = ['cubic', 'newreno', 'bbr', 'fixed'];
// What the page and the report say wherever `fixed` is in use: it sends at its rate whatever
// the network says, which on a shared link starves TCP flows.
const FIXED_NOTE = 'not TCP-friendly (emulated links only)';
const MIN_MARGIN = 0.1;
const MAX_MARGIN = 10;

const carrier = {
  title: 'WebTransport carrier',
  noun: 'a carrier',
  help: `single (default): one session carries the reliable stream and the datagrams; split: the reliable part on a session under cc, the datagrams on a second session at a fixed rate (${FIXED_NOTE})`,
  default: 'single',
  parse: oneOf(CARRIERS),
};

const cc = {
  title: 'congestion control',
  noun: 'a congestion control',
  help: `the QUIC congestion controller of the session carrying the reliable part: cubic (default), newreno, bbr, or fixed (${FIXED_NOTE})`,
  default: 'cubic',
  parse: oneOf(CONGESTION_CONTROLLERS),
};

const fixedMargin = {
  title: 'fixed-rate margin',
  noun: 'a fixed-rate margin',
  help: `a fixed-rate session sends at the highest representation's bandwidth x this (${MIN_MARGIN}-${MAX_MARGIN}, default 1.2)`,
  default: 1.2,
  parse(raw, where, problems) {
    const n = numberFrom(raw);
    if (!(n >= MIN_MARGIN && n <= MAX_MARGIN)) {
      problems.push(`${where.whole} must be a number from ${MIN_MARGIN} to ${MAX_MARGIN}, got ${show(raw)}`);
      return undefined;
    }
    return n;
  },
};

module.exports = { carrier, cc, fixedMargin, CARRIERS, CONGESTION_CONTROLLERS, FIXED_NOTE };
