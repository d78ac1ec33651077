'use strict';
// Brings the origin to its steady state before its file descriptors and memory are taken as
// the baseline: every listener answered once, the WebSocket server loaded, and one
// DataChannel session opened, used and closed (libdatachannel starts its threads and their
// eventfds with the first peer and keeps them).
const http = require('node:http');
const http2 = require('node:http2');
const WebSocket = require('ws');
const { openFdspSession } = require('./fdsp-session');

function httpStatus(url, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve(`error: ${err.message}`));
  });
}

function h2Status(url, path, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const session = http2.connect(url, { rejectUnauthorized: false });
    const timer = setTimeout(() => {
      session.destroy();
      resolve('error: timeout');
    }, timeoutMs);
    session.on('error', (err) => {
      clearTimeout(timer);
      resolve(`error: ${err.message}`);
    });
    const req = session.request({ ':path': path });
    req.on('response', (h) => {
      clearTimeout(timer);
      req.resume();
      req.on('end', () => {
        session.close();
        resolve(h[':status']);
      });
    });
    req.on('error', () => {});
    req.end();
  });
}

/** /healthz on every listener; resolves with e.g. {http11: 200, http10: 200, h2: 200}. */
async function healthOfEveryListener(urls, timeoutMs = 2000) {
  const [http11, http10, h2] = await Promise.all([
    httpStatus(`${urls.http11}/healthz`, timeoutMs),
    httpStatus(`${urls.http10}/healthz`, timeoutMs),
    h2Status(urls.h2, '/healthz', timeoutMs),
  ]);
  return { http11, http10, h2 };
}

async function warmUp(urls, tree) {
  const health = await healthOfEveryListener(urls, 5000);
  if (Object.values(health).some((s) => s !== 200)) throw new Error(`the origin is not healthy before fuzzing: ${JSON.stringify(health)}`);
  await new Promise((resolve) => {
    const ws = new WebSocket(urls.fdsp);
    ws.on('open', () => ws.send('{'));
    ws.on('close', resolve);
    ws.on('error', resolve);
  });
  let session = null;
  for (let attempt = 1; !session; attempt += 1) {
    try {
      session = await openFdspSession(urls.fdsp, { localAddress: '127.0.0.1' });
    } catch (err) {
      // ICE/DTLS on a loaded machine fails now and then; the fdsp-frames batch retries too.
      if (attempt >= 3) throw new Error(`warm-up: no DataChannel session in 3 attempts: ${err.message}`);
    }
  }
  try {
    await session.request(`/content/${tree.smallPath}`);
  } finally {
    await session.close();
  }
}

module.exports = { warmUp, healthOfEveryListener };
