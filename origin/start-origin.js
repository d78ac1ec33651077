'use strict';
// Starts every origin listener in the registry (origin/listeners/index.js: HTTP/1.1, the
// HTTP/1.0-style one, HTTP/2 over TLS, and the DataChannel signaling attached to the HTTP/1.x
// ones) on one set of routes, and publishes their URLs under each entry's urlKey.
const path = require('node:path');
const { createRouter } = require('./routes');
const { FileCache } = require('./file-cache');
const { createRequestLog } = require('./request-log');
const { ensureCertificate } = require('./tls-certificate');
const registry = require('./listeners');
const { routeUpgrades } = require('./listeners/upgrade-routes');

const REPO = path.resolve(__dirname, '..');
// Each listener's port default is its registry entry's (port.default), under its port.option.
const DEFAULTS = {
  host: '127.0.0.1',
  contentDir: path.join(REPO, 'content'),
  playerDir: path.join(REPO, 'dist', 'player'),
  dataDir: path.join(REPO, 'data'),
  cacheMegabytes: 256,
  // The WebRTC stack of FDSP DataChannel sessions (origin/datachannel/stacks/).
  webrtcStack: 'node-datachannel',
};

function listen(server, port, host, entry) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') reject(new Error(`port ${port} on ${host} is in use (${entry.name} listener); pass ${entry.port.flag} N, or 0 for any free port`));
      else if (err.code === 'EACCES') reject(new Error(`not allowed to listen on port ${port} (${entry.name} listener); use a port above 1023`));
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
 * @param {object} [options]  see DEFAULTS; each listener's port under its registry port.option
 *   (http11Port, http10Port, h2Port, ...); plus logFile (NDJSON path) and log (entry => void)
 * @returns {Promise<{urls: {http11: string, http10: string, h2: string, fdsp: string}, spkiSha256: string,
 *   certSha256: Buffer, certSha256Hex: string, certFile: string, logFile: string|null,
 *   flushLog: () => Promise<void>, close: () => Promise<void>}>}
 *   urls: one per registry entry, under its urlKey, with the real ports (port 0 = any free port).
 */
async function startOrigin(options = {}) {
  const o = { ...DEFAULTS, ...options };
  const cert = ensureCertificate(o.dataDir);
  const log = createRequestLog({ file: o.logFile, sink: o.log });
  const urls = {};
  // One in-memory copy of the content for every way it leaves: HTTP listeners and FDSP sessions.
  const contentCache = new FileCache({ maxBytes: o.cacheMegabytes * 1024 * 1024 });
  const router = createRouter({
    contentDir: o.contentDir,
    playerDir: o.playerDir,
    info: () => ({ urls, spkiSha256: cert.spkiSha256, certSha256Hex: cert.certSha256Hex, linkState: Boolean(o.linkStateFile), webrtcStack: o.webrtcStack }),
    linkStateFile: o.linkStateFile || null,
    contentCache,
  });

  // Listeners the origin listens with (create) and those that bind their own port (start).
  const listeners = registry.listeners().filter((e) => e.create).map((entry) => ({ entry, server: entry.create({ name: entry.name, router, log, cert }) }));
  const selfStarting = registry.listeners().filter((e) => e.start);
  const startedOwn = [];
  const unavailable = {};
  const childPids = {};
  const attachments = registry.attachments().map((entry) => ({ entry, endpoint: entry.create({ contentDir: o.contentDir, host: o.host, log, contentCache, webrtcStack: o.webrtcStack }) }));
  const onUpgrade = routeUpgrades(attachments.map((a) => ({ path: a.entry.path, handleUpgrade: a.endpoint.handleUpgrade })));
  for (const { entry, server } of listeners) if (entry.upgrades) server.on('upgrade', onUpgrade);
  // Everything open, so close() can end it at once instead of waiting on idle keep-alives.
  // Raw TCP sockets of every listener (a TLS one's too: a socket stuck before or in the
  // handshake has no session yet and would hold close() up to the 120 s handshake timeout),
  // and the sessions of those that have them (HTTP/2).
  const sockets = new Set();
  const sessions = new Set();
  for (const { server } of listeners) {
    server.on('connection', (s) => {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    server.on('session', (s) => {
      sessions.add(s);
      s.once('close', () => sessions.delete(s));
    });
  }

  const started = [];
  const close = async () => {
    // Stop accepting first, then end what is open: server.close() alone would wait for idle
    // keep-alive sockets and HTTP/2 sessions to time out.
    const closing = started.map((srv) => new Promise((resolve) => srv.close(() => resolve())));
    started.length = 0;
    closing.push(...startedOwn.splice(0).map((h) => h.close()));
    for (const { endpoint } of attachments) endpoint.close();
    for (const s of sessions) s.destroy();
    for (const s of sockets) s.destroy();
    await Promise.all(closing);
    await log.close();
  };
  try {
    for (const { entry, server } of listeners) {
      await listen(server, o[entry.port.option] ?? entry.port.default, o.host, entry);
      started.push(server);
      urls[entry.urlKey] = `${entry.scheme}://${urlHost(o.host)}:${server.address().port}`;
    }
    // An attachment is reached on the first listener that takes upgrades.
    const carrier = listeners.find((l) => l.entry.upgrades);
    for (const { entry } of carrier ? attachments : []) {
      urls[entry.urlKey] = `${urls[carrier.entry.urlKey].replace(/^http/, 'ws')}${entry.path}`;
    }
    for (const entry of selfStarting) {
      const options = Object.fromEntries((entry.options || []).map((opt) => [opt.option, o[opt.option] ?? opt.default]));
      // A caller that names no port for it (tests written before it existed, which pass 0 for
      // the others) gets any free one; the CLI passes the entry's default.
      const handle = await entry.start({ name: entry.name, router, log, cert, host: o.host, port: o[entry.port.option] ?? 0, options, contentDir: o.contentDir, contentCache });
      if (handle.unavailable) {
        unavailable[entry.name] = handle.unavailable;
        continue;
      }
      startedOwn.push(handle);
      if (handle.pid) childPids[entry.name] = handle.pid;
      const base = `${entry.scheme}://${urlHost(o.host)}:${handle.port}`;
      // urlSuffix: a listener on several ports lists them after its first (the HTTP/1.1 pool).
      urls[entry.urlKey] = `${base}${handle.urlSuffix || ''}`;
      for (const [key, p] of Object.entries(entry.extraUrls || {})) urls[key] = `${base}${p}`;
    }
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
    // Listeners left out, and why (the QUIC one when quic-origin is not built).
    unavailable,
    // Processes the listeners started (the QUIC server), by listener name.
    childPids,
    close,
  };
}

module.exports = { startOrigin, DEFAULTS };
