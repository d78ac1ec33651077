'use strict';
// The transports a playback can use, built from the origin's listener URLs (GET /api/info).
// A new transport registers here and nowhere else.
const { HttpFetchTransport } = require('./http-fetch-transport');

const TRANSPORTS = {
  http11: {
    label: 'HTTP/1.1 (keep-alive)',
    create: (urls) => new HttpFetchTransport({ name: 'http11', label: 'HTTP/1.1', baseUrl: urls.http11, expectedProtocols: ['http/1.1'] }),
  },
  http10: {
    label: 'HTTP/1.0-style (connection per request)',
    // Chromium reports the HTTP/1.x framing, not the connection policy; that each request had
    // its own TCP connection shows in the origin's request log (one connection id each).
    create: (urls) => new HttpFetchTransport({ name: 'http10', label: 'HTTP/1.0-style', baseUrl: urls.http10, expectedProtocols: ['http/1.1', 'http/1.0'] }),
  },
  h2: {
    label: 'HTTP/2 (TLS)',
    create: (urls) => new HttpFetchTransport({ name: 'h2', label: 'HTTP/2', baseUrl: urls.h2, expectedProtocols: ['h2'] }),
  },
};

function createTransport(name, urls) {
  const entry = TRANSPORTS[name];
  if (!entry) throw new Error(`unknown transport "${name}" (known: ${Object.keys(TRANSPORTS).join(', ')})`);
  if (!urls || !urls[name]) throw new Error(`the origin did not say where its ${name} listener is`);
  return entry.create(urls);
}

module.exports = { TRANSPORTS, createTransport };
