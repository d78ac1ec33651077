'use strict';
// The FDSP bridge: the unix socket quic-origin connects to twice per WebTransport session (the
// reliable and the unreliable half, each announced by its hello). It pairs the halves into a
// WebTransportSession, pairs split carriers (?pairWith=T) with the session that asked for one
// (?pairToken=T), and bounds how many sessions and half-open halves it holds.
const net = require('node:net');
const { BridgeConnection } = require('./bridge-connection');
const { WebTransportSession, CarrierSession } = require('./webtransport-session');
const { PriorityMaps } = require('../datachannel/fdsp-responder');

const HALF_TIMEOUT_MS = 5000;

/**
 * @param {object} o
 * @param {string} o.contentDir
 * @param {object} [o.contentCache]
 * @param {(entry: object) => void} [o.log]
 * @param {string} o.listener          name in the request log
 * @param {number} [o.maxSessions]     default 64
 * @param {number} [o.idleTimeoutMs]   default 60 s
 */
function createBridgeServer(o) {
  const maxSessions = o.maxSessions ?? 64;
  const maps = new PriorityMaps(o.contentDir);
  const halves = new Map(); // session id -> {conn, timer}
  const sessions = new Map(); // session id -> WebTransportSession | CarrierSession
  const askers = new Map(); // pairToken -> WebTransportSession
  const warn = (why) => process.stderr.write(`origin: WebTransport bridge: ${why}\n`);

  const start = (id, reliable, unreliable) => {
    if (sessions.size >= maxSessions) {
      warn(`session ${id} refused: ${maxSessions} sessions are open`);
      reliable.destroy();
      unreliable.destroy();
      return;
    }
    const { pairToken, pairWith } = reliable.hello;
    if (pairWith) {
      const asker = askers.get(pairWith);
      if (!asker || asker.carrier) {
        warn(`session ${id} refused: pairWith ${pairWith} names no session waiting for a datagram carrier`);
        reliable.destroy();
        unreliable.destroy();
        return;
      }
      const carrier = new CarrierSession({ id, reliable, unreliable, onClose: () => {
        sessions.delete(id);
        if (asker.carrier === carrier) asker.detachCarrier();
      } });
      sessions.set(id, carrier);
      asker.attachCarrier(carrier);
      return;
    }
    if (pairToken && askers.has(pairToken)) {
      warn(`session ${id} refused: pairToken ${pairToken} is already in use`);
      reliable.destroy();
      unreliable.destroy();
      return;
    }
    const session = new WebTransportSession({
      id, reliable, unreliable, contentDir: o.contentDir, contentCache: o.contentCache, maps, log: o.log, listener: o.listener, idleTimeoutMs: o.idleTimeoutMs,
      onClose: () => {
        sessions.delete(id);
        if (pairToken && askers.get(pairToken) === session) askers.delete(pairToken);
      },
    });
    sessions.set(id, session);
    if (pairToken) askers.set(pairToken, session);
  };

  const onHello = (conn) => {
    const { session: id, kind } = conn.hello;
    if (sessions.has(id)) return conn.fail(`session ${id} already has both halves`, warn);
    const other = halves.get(id);
    if (!other) {
      const timer = setTimeout(() => {
        halves.delete(id);
        conn.fail(`session ${id}: its other half did not connect within ${HALF_TIMEOUT_MS / 1000} s`, warn);
      }, HALF_TIMEOUT_MS);
      halves.set(id, { conn, timer });
      conn.onClose = () => {
        if (halves.get(id) && halves.get(id).conn === conn) {
          clearTimeout(timer);
          halves.delete(id);
        }
      };
      return undefined;
    }
    clearTimeout(other.timer);
    halves.delete(id);
    if (other.conn.hello.kind === kind) {
      other.conn.fail(`session ${id}: two ${kind} halves`, warn);
      return conn.fail(`session ${id}: two ${kind} halves`, warn);
    }
    if (other.conn.closed) return conn.destroy();
    const [reliable, unreliable] = kind === 'reliable' ? [conn, other.conn] : [other.conn, conn];
    start(id, reliable, unreliable);
    return undefined;
  };

  const server = net.createServer((socket) => {
    // Bad bridge traffic is quic-origin's bug, not a client's: said on stderr, the pair dropped.
    // eslint-disable-next-line no-new
    new BridgeConnection(socket, { onHello, onBroken: warn });
  });
  server.on('error', (err) => warn(err.message));

  return {
    server,
    get sessions() {
      return sessions.size;
    },
    close() {
      for (const s of [...sessions.values()]) s.close('origin closing');
      for (const { conn, timer } of halves.values()) {
        clearTimeout(timer);
        conn.destroy();
      }
      halves.clear();
    },
  };
}

module.exports = { createBridgeServer };
