'use strict';
// HTTP/1.0-style: a new TCP connection per request (the origin's connection-per-request listener).
const { HttpFetchTransport } = require('../http-fetch-transport');

module.exports = {
  name: 'http10',
  label: 'HTTP/1.0-style (connection per request)',
  // Chromium reports the HTTP/1.x framing, not the connection policy; that each request had
  // its own TCP connection shows in the origin's request log (one connection id each).
  create: (url) => new HttpFetchTransport({ name: 'http10', label: 'HTTP/1.0-style', baseUrl: url, expectedProtocols: ['http/1.1', 'http/1.0'] }),
};
