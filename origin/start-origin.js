'use strict';
// Starts the origin's three listeners on one set of routes:
//   http11  HTTP/1.1 with keep-alive (Express)
//   http10  HTTP/1.0-style: a fresh TCP connection per request (paper 003's baseline)
//   h2      HTTP/2 over TLS
const path = require('node:path');
const { createRouter } = require('./routes');
const { createRequestLog } = require('./request-log');
const { createHttp1Server } = require('./http1-app');
const { createHttp2Server } = require('./http2-server');
const { ensureCertificate } = require('./tls-certificate');
const { createSignalingServer } = require('./datachannel/signaling-server');

const REPO = path.resolve(__dirname, '..');
const DEFAULTS = {
  host: '127.0.0.1',
  http11Port: 8080,
  http10Port: 8081,
  h2Port: 8443,
  contentDir: path.join(REPO, 'content'),
  playerDir: path.join(REPO, 'dist', 'player'),
  dataDir: path.join(REPO, 'data'),
  cacheMegabytes: 256,
};

const PORT_OPTION = { http11: '--http11-port', http10: '--http10-port', h2: '--h2-port' };

function listen(server, port, host, name) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') reject(new Error(`port ${port} on ${host} is in use (${name} listener); pass ${PORT_OPTION[name]} N, or 0 for any free port`));
      else if (err.code === 'EACCES') reject(new Error(`not allowed to listen on port ${port} (${name} listener); use a port above 1023`));
      else if (err.code === 'EADDRNOTAVAIL') reject(new Error(`cannot bind ${host}: no such local address (--host)`));
      else reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function urlHost(host) {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * @param {object} [options]  see DEFAULTS; plus logFile (NDJSON path) and log (entry => void)
 * @returns {Promise<{urls: {http11: string, http10: string, h2: string}, spkiSha256: string,
 *   certSha256: Buffer, certSha256Hex: string, certFile: string, logFile: string|null,
 *   flushLog: () => Promise<void>, close: () => Promise<void>}>}
 *   urls carry the real ports (port 0 in the options = any free port).
 */
async function startOrigin(options = {}) {
  const o = { ...DEFAULTS, ...options };
  const cert = ensureCertificate(o.dataDir);
  const log = createRequestLog({ file: o.logFile, sink: o.log });
  const urls = {};
  const router = createRouter({
    contentDir: o.contentDir,
    playerDir: o.playerDir,
    info: () => ({ urls, spkiSha256: cert.spkiSha256, certSha256Hex: cert.certSha256Hex }),
    cacheBytes: o.cacheMegabytes * 1024 * 1024,
  });

  const servers = {
    http11: createHttp1Server({ router, log, listener: 'http11', closeEachConnection: false }),
    http10: createHttp1Server({ router, log, listener: 'http10', closeEachConnection: true }),
    h2: createHttp2Server({ router, log, key: cert.key, cert: cert.cert }),
  };
  // DataChannel sessions are set up over a WebSocket on the HTTP/1.x listeners (the h2
  // listener speaks HTTP/2 only, and WebSocket over HTTP/2 needs RFC 8441, which ws lacks).
  const signaling = createSignalingServer({
    contentDir: o.contentDir,
    // ICE gathers on the address we serve on; a wildcard means "let libdatachannel choose".
    bindAddress: ['0.0.0.0', '::', ''].includes(o.host) ? undefined : o.host,
    log: (entry) => log.record(entry),
  });
  servers.http11.on('upgrade', signaling.handleUpgrade);
  servers.http10.on('upgrade', signaling.handleUpgrade);
  // Everything open, so close() can end it at once instead of waiting on idle keep-alives.
  const sockets = new Set();
  const sessions = new Set();
  // The h2 listener's raw TCP sockets too: one stuck before or in the TLS handshake has no
  // session yet and would hold close() up to the 120 s handshake timeout.
  for (const name of ['http11', 'http10', 'h2']) {
    servers[name].on('connection', (s) => {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
  }
  servers.h2.on('session', (s) => {
    sessions.add(s);
    s.once('close', () => sessions.delete(s));
  });

  const started = [];
  const close = async () => {
    // Stop accepting first, then end what is open: server.close() alone would wait for idle
    // keep-alive sockets and HTTP/2 sessions to time out.
    const closing = started.map((srv) => new Promise((resolve) => srv.close(() => resolve())));
    started.length = 0;
    signaling.close();
    for (const s of sessions) s.destroy();
    for (const s of sockets) s.destroy();
    await Promise.all(closing);
    await log.close();
  };
  try {
    for (const [name, port] of [['http11', o.http11Port], ['http10', o.http10Port], ['h2', o.h2Port]]) {
      await listen(servers[name], port, o.host, name);
      started.push(servers[name]);
      const scheme = name === 'h2' ? 'https' : 'http';
      urls[name] = `${scheme}://${urlHost(o.host)}:${servers[name].address().port}`;
    }
    urls.fdsp = `${urls.http11.replace(/^http/, 'ws')}${signaling.path}`;
  } catch (err) {
    await close();
    throw err;
  }
  return {
    urls,
    spkiSha256: cert.spkiSha256,
    certSha256: cert.certSha256,
    certSha256Hex: cert.certSha256Hex,
    certFile: cert.certFile,
    logFile: log.file,
    flushLog: () => log.flush(),
    close,
  };
}

module.exports = { startOrigin, DEFAULTS };
