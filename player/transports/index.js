'use strict';
// The transports a playback can use, built from the origin's listener URLs (GET /api/info).
// A new transport registers here and nowhere else.
const { HttpFetchTransport } = require('./http-fetch-transport');
const { DataChannelTransport } = require('./datachannel-transport');

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
  datachannel: {
    label: 'DataChannel (FDSP: critical data reliable, the rest unreliable)',
    urlKey: 'fdsp',
    // options.bp: Bitstream Prioritization 0-100; options.bufferLevel(): seconds buffered
    create: (urls, options = {}) => new DataChannelTransport({ signalingUrl: urls.fdsp, bp: options.bp, bufferLevel: options.bufferLevel }),
  },
};

function createTransport(name, urls, options) {
  const entry = TRANSPORTS[name];
  if (!entry) throw new Error(`unknown transport "${name}" (known: ${Object.keys(TRANSPORTS).join(', ')})`);
  const key = entry.urlKey || name;
  if (!urls || !urls[key]) throw new Error(`the origin did not say where its ${name} endpoint is`);
  return entry.create(urls, options);
}

module.exports = { TRANSPORTS, createTransport };
