'use strict';
// A player's DataChannel (FDSP) connection: node-datachannel as the browser side, with the
// same frames as the player's transport (testbed/datachannel/node-fdsp-client.js). The origin
// allows 4 sessions per client address, so each player signals from its own loopback address
// 127.0.0.N and gathers ICE there too.
const { connectFdsp } = require('../../datachannel/node-fdsp-client');

/**
 * @param {string} signalingUrl  ws://127.0.0.1:PORT/fdsp
 * @param {{localAddress: string, onBytes: (n: number) => void, onSetupRetry: (message: string) => void}} o
 */
function openDataChannelConnection(signalingUrl, { localAddress, onBytes, onSetupRetry }) {
  let client = null;
  let connecting = null;
  const drop = () => {
    if (client) client.close();
    client = null;
  };
  // connectFdsp retries node-datachannel's setup flake and reports each retry here.
  const setUp = () => connectFdsp(signalingUrl, { bindAddress: localAddress, localAddress, onSetupRetry });
  const current = async () => {
    if (client && !client.closed && client.reliable.isOpen()) return client;
    drop();
    // One setup at a time, shared by whoever asks.
    connecting = connecting || setUp().finally(() => {
      connecting = null;
    });
    client = await connecting;
    return client;
  };
  return {
    async fetch(path, { timeoutMs }) {
      const started = performance.now();
      let timer;
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no complete response within ${timeoutMs / 1000} s`)), timeoutMs);
      });
      try {
        // BP 100 (the player's default); no playout deadline, so the origin skips nothing.
        const r = await Promise.race([current().then((c) => c.fetch(path, { bp: 100 })), timeout]);
        const bytes = r.bytesPerChannel.reliable + r.bytesPerChannel.unreliable;
        onBytes(bytes);
        const totalMs = performance.now() - started;
        // From this request's start like the HTTP players' TTFB, (re)connecting included.
        const ttfbMs = totalMs - (r.seconds - r.ttfbSeconds) * 1000;
        return { status: r.head.status, bytes, ttfbMs, totalMs, lostChunks: r.lostChunks };
      } catch (err) {
        // An ERROR frame (err.status) is an answer on a working session; anything else, a
        // failed or stalled session, is replaced on the next request.
        if (err.status === undefined) drop();
        throw err;
      } finally {
        clearTimeout(timer);
      }
    },
    close: drop,
  };
}

module.exports = { openDataChannelConnection };
