'use strict';
// The HTTP/1.x listeners: an Express app that hands every request to the shared router.
// The HTTP/1.0-style listener is the same app with "Connection: close" on every response, so
// each request costs a fresh TCP connection (handshake and slow start included), which is
// what paper 003 measured as HTTP/1.0.
const http = require('node:http');
const express = require('express');
const { logResponse } = require('./request-log');

/**
 * @param {object} opts { router, log, listener: 'http11'|'http10', closeEachConnection: boolean }
 * @returns {import('node:http').Server} not yet listening
 */
function createHttp1Server({ router, log, listener, closeEachConnection }) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag'); // the file handler sets its own, identical on every listener
  let nextConnection = 1;
  const server = http.createServer(app);
  server.on('connection', (socket) => {
    socket.labConnectionId = `${listener}-${nextConnection++}`;
  });
  app.use((req, res) => {
    const protocol = `http/${req.httpVersion}`;
    if (closeEachConnection) res.setHeader('Connection', 'close');
    const info = { protocol, listener, port: server.address().port, connectionId: req.socket.labConnectionId, streamId: null };
    logResponse(log, req, res, info);
    router(req, res, info);
  });
  // A request the parser cannot read never reaches Express: answer it and drop the socket.
  server.on('clientError', (err, socket) => {
    if (socket.writable && !socket.destroyed) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  // Sessions must not linger past close(): keep-alive sockets idle at most this long.
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 10000;
  server.requestTimeout = 30000;
  return server;
}

module.exports = { createHttp1Server };
