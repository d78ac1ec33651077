'use strict';
// HTTP/2 over TLS (ALPN "h2" only, no HTTP/1.1 fallback), with the origin's self-signed certificate.
const { createHttp2Server } = require('./http2-server');

module.exports = {
  name: 'h2',
  label: 'HTTP/2 (TLS)',
  description: 'HTTP/2 over TLS',
  scheme: 'https',
  port: { option: 'h2Port', flag: '--h2-port', default: 8443 },
  urlKey: 'h2',
  pageTransport: 'h2',
  // WebSocket over HTTP/2 needs RFC 8441 (extended CONNECT), which ws lacks.
  upgrades: false,
  create: ({ name, router, log, cert }) => createHttp2Server({ router, log, key: cert.key, cert: cert.cert, listener: name }),
};
