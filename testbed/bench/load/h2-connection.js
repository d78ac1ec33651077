'use strict';
// A player's HTTP/2 connection: one node:http2 session over TLS (the origin's self-signed
// certificate as the trusted CA), every request a stream on it. A session that fails is
// replaced on the next request, as a browser would open a new connection.
const http2 = require('node:http2');

/**
 * @param {string} baseUrl  https://127.0.0.1:PORT
 * @param {{ca: Buffer|string, onBytes: (n: number) => void}} o
 */
function openH2Connection(baseUrl, { ca, onBytes }) {
  let session = null;
  const currentSession = () => {
    if (session && !session.closed && !session.destroyed) return session;
    const s = http2.connect(baseUrl, { ca });
    // Errors reach the streams; without a listener an 'error' event would throw.
    s.on('error', () => {});
    s.on('goaway', () => s.close());
    session = s;
    return s;
  };
  return {
    fetch(path, { timeoutMs }) {
      return new Promise((resolve, reject) => {
        const started = performance.now();
        let ttfbMs = null;
        let status = null;
        let bytes = 0;
        let stream;
        let settled = false;
        const fail = (err) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (stream && !stream.destroyed) stream.close(http2.constants.NGHTTP2_CANCEL);
          reject(err);
        };
        const timer = setTimeout(() => {
          // A stalled stream may mean a stalled session: start afresh next time.
          if (session) session.destroy();
          fail(new Error(`no complete response within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        try {
          stream = currentSession().request({ ':path': path });
        } catch (err) {
          fail(err);
          return;
        }
        stream.on('response', (headers) => {
          ttfbMs = performance.now() - started;
          status = headers[':status'];
        });
        stream.on('data', (d) => {
          bytes += d.length;
          onBytes(d.length);
        });
        stream.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (status === null) reject(new Error('stream ended without a response'));
          else resolve({ status, bytes, ttfbMs, totalMs: performance.now() - started });
        });
        stream.on('error', fail);
        stream.on('close', () => {
          if (!settled) fail(new Error(`stream closed (code ${stream.rstCode}) before the response ended`));
        });
      });
    },
    close() {
      if (session) session.destroy();
    },
  };
}

module.exports = { openH2Connection };
