'use strict';
// HTTP/1.1 with keep-alive: the origin's Express listener.
const { HttpFetchTransport } = require('../http-fetch-transport');

module.exports = {
  name: 'http11',
  label: 'HTTP/1.1 (keep-alive)',
  create: (url) => new HttpFetchTransport({ name: 'http11', label: 'HTTP/1.1', baseUrl: url, expectedProtocols: ['http/1.1'] }),
};
