'use strict';
// Starts the HTTP/3 + WebTransport listener (h3.js): the HTTP/3 backend and the FDSP bridge on
// unix sockets in a private directory (0700: only this user's processes can reach sockets
// whose x-lab-* headers and hellos are trusted), then quic-origin on the UDP port, pointed at
// both. close() ends all three and removes the directory.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createH3Backend } = require('./h3-backend');
const { createBridgeServer } = require('../webtransport/bridge-server');
const { spawnQuicOrigin, QUIC_ORIGIN_BINARY } = require('./quic-process');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');
const { removeLeftoverTempDirs } = require('../../shared/leftover-temp-dirs');

const CONGESTION_CONTROLS = ['cubic', 'newreno', 'bbr', 'fixed'];

// The socket directory is named after the origin's PID (makeLabTempDir), so an origin killed
// before close() (SIGKILL: the runner's fault tests, a crash) leaves a directory the next origin
// recognises and removes, by the same rule as `npm run cleanup`.
/** Removes socket directories of origins that are no longer running; returns how many. */
function removeStaleSocketDirs(tmp = os.tmpdir()) {
  return removeLeftoverTempDirs({ dir: tmp, kind: 'quic' }).removed.length;
}

function listenUnix(server, file) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server) {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * @param {object} ctx  see the `start` contract in origin/listeners/index.js
 * @returns {Promise<{port: number, pid: number, close: () => Promise<void>}|{unavailable: string}>}
 */
async function startQuicListener(ctx) {
  if (!fs.existsSync(QUIC_ORIGIN_BINARY)) {
    return { unavailable: `the QUIC server is not built (${path.relative(process.cwd(), QUIC_ORIGIN_BINARY) || QUIC_ORIGIN_BINARY} is missing; \`npm run setup\` builds it with Rust's cargo)` };
  }
  removeStaleSocketDirs();
  const dir = makeLabTempDir('quic');
  let port = null;
  const backend = createH3Backend({ router: ctx.router, log: ctx.log, listener: ctx.name, port: () => port });
  const sockets = new Set();
  backend.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  const bridge = createBridgeServer({ contentDir: ctx.contentDir, contentCache: ctx.contentCache, log: (entry) => ctx.log.record(entry), listener: ctx.name });
  let child = null;
  const close = async () => {
    if (child) await child.close();
    bridge.close();
    for (const s of sockets) s.destroy();
    await Promise.all([closeServer(backend), closeServer(bridge.server)]);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const backendPath = path.join(dir, 'h3.sock');
    const bridgePath = path.join(dir, 'fdsp.sock');
    await listenUnix(backend, backendPath);
    await listenUnix(bridge.server, bridgePath);
    const host = ctx.host.includes(':') ? `[${ctx.host}]` : ctx.host;
    child = await spawnQuicOrigin({
      listen: `${host}:${ctx.port}`,
      certFile: ctx.cert.certFile,
      keyFile: ctx.cert.keyFile,
      backendPath,
      bridgePath,
      congestionControl: ctx.options.h3CongestionControl,
      fixedRateKbps: ctx.options.fixedRateKbps,
      // The other listeners serve on: say so where the person running the origin looks.
      onExit: (why) => process.stderr.write(`origin: the QUIC server (HTTP/3, WebTransport) ${why}; the other listeners serve on\n`),
    });
  } catch (err) {
    await close();
    if (/EADDRINUSE|in use/i.test(err.message)) throw new Error(`UDP port ${ctx.port} on ${ctx.host} is in use (h3 listener); pass --h3-port N, or 0 for any free port`);
    throw err;
  }
  port = child.port;
  return { port, pid: child.pid, exited: child.exited, close };
}

module.exports = { startQuicListener, removeStaleSocketDirs, CONGESTION_CONTROLS };
