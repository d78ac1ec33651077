'use strict';
// The HTTP/2 listener (TLS, ALPN "h2" only): the shared router through node:http2's
// compatibility API. allowHTTP1 is off so that a client reaching this port gets h2 or nothing;
// a silent fallback to HTTP/1.1 would make every HTTP/2 measurement a lie.
const http2 = require('node:http2');
const { logResponse } = require('../request-log');

/**
 * @param {object} opts { router, log, key, cert, listener }; listener: the name in logs and
 *   connection ids (default 'h2')
 * @returns {import('node:http2').Http2SecureServer} not yet listening
 */
function createHttp2Server({ router, log, key, cert, listener = 'h2' }) {
  const server = http2.createSecureServer({ key, cert, allowHTTP1: false });
  let nextSession = 1;
  server.on('session', (session) => {
    session.labConnectionId = `${listener}-${nextSession++}`;
  });
  server.on('request', (req, res) => {
    const info = {
      protocol: 'h2',
      listener,
      port: server.address().port,
      connectionId: req.stream.session ? req.stream.session.labConnectionId : null,
      streamId: req.stream.id,
    };
    logResponse(log, req, res, info);
    router(req, res, info);
  });
  // Malformed frames and TLS garbage end the session, not the process.
  server.on('sessionError', () => {});
  server.on('tlsClientError', () => {});
  server.setTimeout(60000);
  return server;
}

module.exports = { createHttp2Server };
