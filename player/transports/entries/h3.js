'use strict';
// HTTP/3 over QUIC: the origin's QUIC server (origin/quic), which hands each request to the same
// routes as every other listener. Chromium speaks HTTP/3 to it only when told to (it learns of
// h3 from Alt-Svc otherwise, and never for a self-signed certificate), so the launcher passes
// the flags below; a response that came over anything else is an error (http-fetch-transport.js).
const { HttpFetchTransport } = require('../http-fetch-transport');

/**
 * Chromium's flags for HTTP/3 to this origin: QUIC on, forced for the h3 listener's host:port
 * (the IP literal the player uses), and the origin's self-signed certificate accepted by its
 * public key hash.
 * @param {{urls: {h3: string}, spkiSha256: string}} info  the origin's ready line or GET /api/info
 */
function chromiumArgs(info) {
  if (!info.spkiSha256) throw new Error('the origin did not say its certificate\'s SPKI hash (spkiSha256), which Chromium needs for HTTP/3');
  return ['--enable-quic', `--origin-to-force-quic-on=${new URL(info.urls.h3).host}`, `--ignore-certificate-errors-spki-list=${info.spkiSha256}`];
}

module.exports = {
  name: 'h3',
  label: 'HTTP/3 (QUIC)',
  ipProtocol: 'udp',
  create: (url) => new HttpFetchTransport({ name: 'h3', label: 'HTTP/3', baseUrl: url, expectedProtocols: ['h3'] }),
  chromiumArgs,
};
