'use strict';
// Which WebTransport sessions the transport opens, and with what congestion control, from its
// options (webtransport-options.js). The origin's QUIC server reads the controller from each
// session's CONNECT path (`/fdsp?cc=NAME[&rateKbps=N]`); Chromium gives every `new
// WebTransport()` its own QUIC connection, so each session has its own controller.
//   single  one session: its stream carries REQUEST/CANCEL and the reliable frames, its
//           datagrams the unreliable DATA, both under `cc`
//   split   session A (`cc`, `pairToken=T`) carries the requests and the reliable frames;
//           session B (`cc=fixed&rateKbps=R&pairWith=T`) only the datagrams of A's responses:
//           paper 000's TCP + uncontrolled UDP. The origin pairs them by T, 16 hex characters
//           the page makes.
// Pure apart from the token's randomness, so it is checked in Node.
const { newPairToken, sessionUrl } = require('../../shared/fdsp/pair-token');
const { FIXED_NOTE } = require('./webtransport-options');

// The QUIC server's bounds for a fixed rate (kbit/s).
const MIN_RATE_KBPS = 100;
const MAX_RATE_KBPS = 1000000;


/** A fixed-rate session's rate: the highest representation's bandwidth x the margin, in kbit/s. */
function fixedRateKbps(highestBandwidthBps, margin) {
  if (!(highestBandwidthBps > 0)) throw new RangeError('a fixed-rate session needs the highest representation\'s bandwidth (the content\'s segment index)');
  const kbps = Math.ceil((highestBandwidthBps * margin) / 1000);
  if (kbps < MIN_RATE_KBPS || kbps > MAX_RATE_KBPS) {
    throw new RangeError(`a fixed rate of ${kbps} kbit/s (${highestBandwidthBps} bit/s x ${margin}) is outside the QUIC server's ${MIN_RATE_KBPS}-${MAX_RATE_KBPS} kbit/s`);
  }
  return kbps;
}

/**
 * @param {object} o
 * @param {string} o.baseUrl            urls.webtransport, e.g. https://127.0.0.1:8444/fdsp
 * @param {{carrier: string, cc: string, fixedMargin: number}} o.options  defaults filled in
 * @param {number|null} [o.highestBandwidthBps]  needed when a session runs `fixed`
 * @param {() => string} [o.token]      the pair token (split)
 * @returns {{carrier: string, reliableCc: string, unreliableCc: string, fixedRateKbps: number|null,
 *   sessions: {role: 'both'|'reliable'|'unreliable', url: string}[]}}
 *   sessions in the order they are opened (a split's B names A's token, so A comes first)
 */
function planCarriers({ baseUrl, options, highestBandwidthBps = null, token = newPairToken }) {
  const { carrier, cc, fixedMargin } = options;
  const unreliableCc = carrier === 'split' ? 'fixed' : cc;
  const usesFixed = cc === 'fixed' || unreliableCc === 'fixed';
  const rate = usesFixed ? fixedRateKbps(highestBandwidthBps, fixedMargin) : null;
  const ccParams = (name) => (name === 'fixed' ? { cc: name, rateKbps: rate } : { cc: name });
  const plan = { carrier, reliableCc: cc, unreliableCc, fixedRateKbps: rate };
  if (carrier === 'single') return { ...plan, sessions: [{ role: 'both', url: sessionUrl(baseUrl, ccParams(cc)) }] };
  if (carrier !== 'split') throw new RangeError(`unknown WebTransport carrier ${JSON.stringify(carrier)}`);
  const t = token();
  if (!/^[0-9a-f]{16}$/.test(t)) throw new RangeError(`a pair token is 16 lowercase hex characters, got ${JSON.stringify(t)}`);
  return {
    ...plan,
    sessions: [
      { role: 'reliable', url: sessionUrl(baseUrl, { ...ccParams(cc), pairToken: t }) },
      { role: 'unreliable', url: sessionUrl(baseUrl, { ...ccParams('fixed'), pairWith: t }) },
    ],
  };
}

/** The plan in one line for the page and the report: "split: reliable cubic, datagrams fixed at 4800 kbit/s, not TCP-friendly (...)". */
function describePlan(plan) {
  const at = (name) => (name === 'fixed' ? `fixed at ${plan.fixedRateKbps} kbit/s, ${FIXED_NOTE}` : name);
  if (plan.carrier === 'single') return `single session: ${at(plan.reliableCc)}`;
  return `split: reliable ${at(plan.reliableCc)}, datagrams ${at(plan.unreliableCc)}`;
}

module.exports = { planCarriers, describePlan, fixedRateKbps, newPairToken, MIN_RATE_KBPS, MAX_RATE_KBPS };
