'use strict';
// The HTTP/3 listener's Node half: an HTTP/1.1 server on a private unix socket, reached only by
// quic-origin, which forwards every HTTP/3 request to it. It is the HTTP/1.1 listener's app
// (the same route table, Range, CORS, hostile-path refusals and request log), except that a
// request's connection info comes from the x-lab-* headers quic-origin sets (and strips from
// what clients send): the log then shows protocol h3, the QUIC connection and stream, and the
// client's address, not the unix socket's.
const { createHttp1Server } = require('./http1-app');

/**
 * @param {object} o
 * @param {Function} o.router
 * @param {object} o.log
 * @param {string} o.listener   name in logs ('h3')
 * @param {() => number|null} o.port   the listener's UDP port (known once quic-origin is up)
 * @returns {import('node:http').Server} not yet listening
 */
function createH3Backend({ router, log, listener, port }) {
  const requestInfo = (req) => {
    const stream = Number(req.headers['x-lab-stream']);
    return {
      protocol: 'h3',
      listener,
      port: port(),
      connectionId: String(req.headers['x-lab-connection'] || `${listener}-unknown`),
      streamId: Number.isInteger(stream) ? stream : null,
      peer: req.headers['x-lab-peer'] ? String(req.headers['x-lab-peer']) : undefined,
    };
  };
  return createHttp1Server({ router, log, listener, closeEachConnection: false, requestInfo });
}

module.exports = { createH3Backend };
