'use strict';
// HTTP/2 over TLS: the origin's h2 listener.
const { HttpFetchTransport } = require('../http-fetch-transport');

module.exports = {
  name: 'h2',
  label: 'HTTP/2 (TLS)',
  create: (url) => new HttpFetchTransport({ name: 'h2', label: 'HTTP/2', baseUrl: url, expectedProtocols: ['h2'] }),
};
