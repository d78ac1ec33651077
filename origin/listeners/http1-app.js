'use strict';
// The HTTP/1.x listeners: an Express app that hands every request to the shared router.
// The HTTP/1.0-style listener is the same app with "Connection: close" on every response, so
// each request costs a fresh TCP connection (handshake and slow start included), which is
// what paper 003 measured as HTTP/1.0.
const http = require('node:http');
const express = require('express');
const { logResponse, logRejectedRequest } = require('../request-log');
const { answerAndDrop } = require('../answer-and-drop');
const { socketPeer } = require('./socket-peer');

// What the parser's complaint means for the client, as node:http's own default handler maps it.
const STATUS_FOR_CLIENT_ERROR = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

/** Segment and MPD requests (the content route), which need nothing Express adds. */
function isMediaRequest(url) {
  return typeof url === 'string' && url.startsWith('/content/');
}

/**
 * @param {object} opts
 * @param {Function} opts.router               the shared route table (routes.js)
 * @param {object} opts.log                    request log (request-log.js)
 * @param {'http11'|'http10'} opts.listener    name in logs and connection ids
 * @param {boolean} opts.closeEachConnection   HTTP/1.0-style: one request per TCP connection
 * @param {string} [opts.connectionIdPrefix]  connection ids are PREFIX-N (default the listener's
 *   name); the HTTP/1.1 pool, one listener on several ports, names each port's connections apart
 * @param {(req) => object} [opts.requestInfo]  the connection info of a request, when it is not
 *   this socket's: the HTTP/3 backend's requests come from quic-origin, which names the QUIC
 *   connection, stream and peer in x-lab-* headers (h3-backend.js)
 * @returns {import('node:http').Server} not yet listening
 */
function createHttp1Server({ router, log, listener, closeEachConnection, connectionIdPrefix = listener, requestInfo = null }) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag'); // the file handler sets its own, identical on every listener
  let nextConnection = 1;
  // Media bypasses Express: its routing and request/response decoration cost more per segment
  // than the route table needs (bench:origin), and every listener shares that table anyway.
  const handle = (req, res) => {
    // Node closes the socket after a response carrying "Connection: close", whatever the
    // client asked for; that is the whole HTTP/1.0-style policy.
    if (closeEachConnection) res.setHeader('Connection', 'close');
    const info = requestInfo ? requestInfo(req) : connectionInfo(req.socket, req.httpVersion);
    logResponse(log, req, res, info);
    router(req, res, info);
  };
  // headersTimeout and requestTimeout are only enforced when node checks its connections, by
  // default every 30 s: a slowloris client was held 28.6 s on average against a 10 s limit.
  const server = http.createServer({ connectionsCheckingInterval: 1000 }, (req, res) => (isMediaRequest(req.url) ? handle(req, res) : app(req, res)));
  server.on('connection', (socket) => {
    socket.labConnectionId = `${connectionIdPrefix}-${nextConnection++}`;
    socket.labPeer = socketPeer(socket);
  });
  let port = null; // known once listening; asked once, not per request
  const connectionInfo = (socket, httpVersion) => ({
    protocol: `http/${httpVersion}`,
    listener,
    port: port ?? (port = server.address().port),
    connectionId: socket.labConnectionId,
    streamId: null,
    peer: socket.labPeer,
  });
  app.use(handle);
  // A request the parser cannot read never reaches Express: answer it and drop the socket.
  server.on('clientError', (err, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable || socket.destroyed) {
      socket.destroy();
      return;
    }
    const [status, reason] = STATUS_FOR_CLIENT_ERROR[err.code] || [400, 'Bad Request'];
    logRejectedRequest(log, connectionInfo(socket, '1.1'), status);
    answerAndDrop(socket, `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  // Idle keep-alive connections end on their own after this; close() ends them at once.
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 10000;
  server.requestTimeout = 30000;
  return server;
}

module.exports = { createHttp1Server };
