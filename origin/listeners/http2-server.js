'use strict';
// The HTTP/2 listener (TLS, ALPN "h2" only): the shared router through node:http2's
// compatibility API. allowHTTP1 is off so that a client reaching this port gets h2 or nothing;
// a silent fallback to HTTP/1.1 would make every HTTP/2 measurement a lie.
const http2 = require('node:http2');
const { logResponse } = require('../request-log');
const { guardSession } = require('./h2-session-guard');
const { socketPeer } = require('./socket-peer');

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
    session.labPeer = socketPeer(session.socket);
    guardSession(session);
  });
  server.on('request', (req, res) => {
    const i = info(req);
    logResponse(log, req, res, i);
    router(req, res, i);
  });
  let port = null; // known once listening; asked once, not per request
  const info = (req) => ({
    protocol: 'h2',
    listener,
    port: port ?? (port = server.address().port),
    connectionId: req.stream.session ? req.stream.session.labConnectionId : null,
    streamId: req.stream.id,
    peer: req.stream.session ? req.stream.session.labPeer : undefined,
  });
  // Malformed frames and TLS garbage end the session, not the process.
  server.on('sessionError', () => {});
  server.on('tlsClientError', () => {});
  server.setTimeout(60000);
  return server;
}

module.exports = { createHttp2Server };
