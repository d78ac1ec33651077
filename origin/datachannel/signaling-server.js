'use strict';
// The WebSocket endpoint (/fdsp) where players set up their DataChannel sessions, attached to
// the origin's HTTP/1.x listeners. Bounded: at most maxPeers sessions per origin and
// maxPeersPerClient per client address; a refused upgrade gets an HTTP status, not a hang.
// A player with two associations opens two sessions: /fdsp?pairToken=T, then /fdsp?pairWith=T,
// whose unreliable channel then carries the first one's unreliable part (peer-session.js).
const { WebSocketServer } = require('ws');
const { PeerSession } = require('./peer-session');
const { PriorityMaps } = require('./fdsp-responder');
const { refuseUpgrade } = require('../answer-and-drop');
const { readPairParams } = require('../../shared/fdsp/pair-token');
const { getStack } = require('./stacks');

const PATH = '/fdsp';

/**
 * @param {object} o
 * @param {string} o.contentDir
 * @param {import('../file-cache').FileCache} [o.contentCache]  the HTTP listeners' copy of the content
 * @param {string} [o.bindAddress]   where ICE gathers (the origin's host, when it is one address)
 * @param {(entry: object) => void} [o.log]
 * @param {number} [o.maxPeers]      default 32
 * @param {number} [o.maxPeersPerClient]  default 4
 * @param {number} [o.idleTimeoutMs] default 60 s
 * @param {string} [o.webrtcStack]   stacks/index.js name (default node-datachannel)
 */
function createSignalingServer(o) {
  // An unknown name or a stack whose native module cannot load fails the origin's start, not the first player.
  const stack = getStack(o.webrtcStack);
  try {
    stack.load();
  } catch (err) {
    throw new Error(`the WebRTC stack ${stack.name} cannot load: ${err.message}`);
  }
  const maxPeers = o.maxPeers ?? 32;
  const maxPerClient = o.maxPeersPerClient ?? 4;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const maps = new PriorityMaps(o.contentDir);
  const sessions = new Set();
  const perClient = new Map();
  const askers = new Map(); // pairToken -> the session that asked
  let nextId = 1;

  /**
   * For upgrade requests to PATH: origin/listeners/upgrade-routes.js has matched the path and
   * answers every other one, so only the session limits are checked here.
   */
  function handleUpgrade(req, socket, head) {
    const client = socket.remoteAddress;
    if (sessions.size >= maxPeers) return refuseUpgrade(socket, 503, 'Service Unavailable: too many DataChannel sessions');
    if ((perClient.get(client) || 0) >= maxPerClient) return refuseUpgrade(socket, 429, 'Too Many Requests: too many DataChannel sessions from this address');
    let pair;
    try {
      pair = readPairParams(new URL(req.url, 'http://origin.invalid').searchParams);
    } catch (err) {
      return refuseUpgrade(socket, 400, `Bad Request: ${err.message}`);
    }
    if (pair.pairToken && askers.has(pair.pairToken)) return refuseUpgrade(socket, 409, 'Conflict: that pairToken is already in use');
    const asker = pair.pairWith ? askers.get(pair.pairWith) : null;
    if (pair.pairWith && !asker) return refuseUpgrade(socket, 404, 'Not Found: no DataChannel session waits for that pairWith');
    // The asker's own address only: a token seen elsewhere does not let another client in.
    if (asker && asker.clientAddress !== client) return refuseUpgrade(socket, 404, 'Not Found: no DataChannel session waits for that pairWith');
    if (asker && asker.carrier) return refuseUpgrade(socket, 409, 'Conflict: that session already has its second association');
    wss.handleUpgrade(req, socket, head, (ws) => {
      let session;
      try {
        session = new PeerSession({
          ws,
          contentDir: o.contentDir,
          contentCache: o.contentCache,
          bindAddress: o.bindAddress,
          id: nextId++,
          log: o.log,
          maps,
          idleTimeoutMs: o.idleTimeoutMs,
          carriesFor: asker,
          webrtcStack: o.webrtcStack,
          onClose: () => {
            sessions.delete(session);
            if (pair.pairToken && askers.get(pair.pairToken) === session) askers.delete(pair.pairToken);
            const n = (perClient.get(client) || 1) - 1;
            if (n > 0) perClient.set(client, n);
            else perClient.delete(client);
          },
        });
      } catch (err) {
        // Whatever fails here ends this one session, never the origin (an exception out of the
        // upgrade handler would end every listener).
        process.stderr.write(`origin: DataChannel session refused: ${err.message}\n`);
        try { ws.close(1011, 'the origin could not open a WebRTC peer'); } catch { ws.terminate(); }
        return;
      }
      perClient.set(client, (perClient.get(client) || 0) + 1);
      session.clientAddress = client;
      if (pair.pairToken) askers.set(pair.pairToken, session);
      sessions.add(session);
    });
    return undefined;
  }

  return {
    path: PATH,
    handleUpgrade,
    get sessions() {
      return sessions.size;
    },
    close() {
      for (const s of [...sessions]) s.close('origin closing');
      wss.close();
    },
  };
}

module.exports = { createSignalingServer, PATH };
