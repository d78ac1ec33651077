'use strict';
// HTTP/1.0-style: the HTTP/1.1 app with a fresh TCP connection per request (handshake and slow
// start included), what paper 003 measured as HTTP/1.0.
const { createHttp1Server } = require('./http1-app');

module.exports = {
  name: 'http10',
  label: 'HTTP/1.0-style',
  description: 'HTTP/1.0-style (a new TCP connection per request)',
  scheme: 'http',
  port: { option: 'http10Port', flag: '--http10-port', default: 8081 },
  urlKey: 'http10',
  pageTransport: 'http10',
  upgrades: true,
  create: ({ name, router, log }) => createHttp1Server({ router, log, listener: name, closeEachConnection: true }),
};
