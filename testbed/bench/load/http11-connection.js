'use strict';
// A player's HTTP/1.1 connection: node:http with a keep-alive Agent limited to one socket, as
// a player fetching one thing at a time uses one connection.
const http = require('node:http');

/**
 * @param {string} baseUrl  http://127.0.0.1:PORT
 * @param {{onBytes: (n: number) => void}} hooks  every received body chunk's size, as it arrives
 * @returns {{fetch: (path: string, o: {timeoutMs: number}) => Promise<{status: number, bytes: number, ttfbMs: number, totalMs: number}>, close: () => void}}
 */
function openHttp11Connection(baseUrl, { onBytes }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    fetch(path, { timeoutMs }) {
      return new Promise((resolve, reject) => {
        const started = performance.now();
        let ttfbMs = null;
        let bytes = 0;
        const req = http.get(`${baseUrl}${path}`, { agent }, (res) => {
          ttfbMs = performance.now() - started;
          res.on('data', (d) => {
            bytes += d.length;
            onBytes(d.length);
          });
          res.on('end', () => {
            clearTimeout(timer);
            resolve({ status: res.statusCode, bytes, ttfbMs, totalMs: performance.now() - started });
          });
          res.on('error', fail);
          res.on('aborted', () => fail(new Error('response aborted')));
        });
        function fail(err) {
          clearTimeout(timer);
          req.destroy();
          reject(err);
        }
        const timer = setTimeout(() => fail(new Error(`no complete response within ${timeoutMs / 1000} s`)), timeoutMs);
        req.on('error', fail);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

module.exports = { openHttp11Connection };
