'use strict';
// HTTP/3 and WebTransport over QUIC. Node has no QUIC, so the port belongs to quic-origin (Rust,
// origin/quic/, built by scripts/setup.sh): it proxies HTTP/3 requests to a private HTTP/1.1
// backend on a unix socket (the same routes and request log as every other listener, logged as
// protocol h3) and bridges WebTransport /fdsp sessions to the same FDSP responder the
// DataChannel sessions use (origin/webtransport/). The sender's congestion control is chosen per
// QUIC connection; `fixed` sends at a set rate whatever the loss: not TCP-friendly, for emulated
// links only.
const { startQuicListener, CONGESTION_CONTROLS } = require('./quic-listener');

function congestionControl(text) {
  if (!CONGESTION_CONTROLS.includes(text)) throw new Error(`must be one of ${CONGESTION_CONTROLS.join(', ')}, got "${text}"`);
  return text;
}

function rateKbps(text) {
  const n = /^\d{1,7}$/.test(String(text)) ? Number(text) : NaN;
  if (!(n >= 100 && n <= 1000000)) throw new Error(`must be a rate in kbit/s, 100-1000000, got "${text}"`);
  return n;
}

module.exports = {
  name: 'h3',
  label: 'HTTP/3 (QUIC)',
  description: 'HTTP/3 and WebTransport (FDSP) over QUIC, UDP (quic-origin)',
  scheme: 'https',
  port: { option: 'h3Port', flag: '--h3-port', default: 8444 },
  urlKey: 'h3',
  extraUrls: { webtransport: '/fdsp' },
  pageTransport: 'h3',
  options: [
    {
      option: 'h3CongestionControl',
      flag: '--h3-cc',
      default: 'cubic',
      help: `congestion control of HTTP/3 connections: ${CONGESTION_CONTROLS.join(', ')} (default cubic; fixed is not TCP-friendly: emulated links only)`,
      parse: congestionControl,
    },
    {
      option: 'fixedRateKbps',
      flag: '--fixed-rate-kbps',
      default: 10000,
      help: 'rate of the fixed controller when a WebTransport URL names none (default 10000)',
      parse: rateKbps,
    },
  ],
  start: (ctx) => startQuicListener(ctx),
};
