'use strict';
// HTTP/1.1 with keep-alive (Express): the listener the page is usually loaded from.
const { createHttp1Server } = require('./http1-app');

module.exports = {
  name: 'http11',
  label: 'HTTP/1.1',
  description: 'HTTP/1.1 (keep-alive)',
  scheme: 'http',
  port: { option: 'http11Port', flag: '--http11-port', default: 8080 },
  urlKey: 'http11',
  pageTransport: 'http11',
  upgrades: true,
  create: ({ name, router, log }) => createHttp1Server({ router, log, listener: name, closeEachConnection: false }),
};
