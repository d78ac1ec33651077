'use strict';
// A player's DataChannel (FDSP) connection: node-datachannel as the browser side, with the
// same frames as the player's transport (testbed/datachannel/node-fdsp-client.js). The origin
// allows 4 sessions per client address, so each player signals from its own loopback address
// 127.0.0.N and gathers ICE there too.
const { connectFdsp } = require('../../datachannel/node-fdsp-client');

// node-datachannel as the offering side now and then fails a setup at once (the peer
// connection "failed" ~10 ms after gathering, before the origin's answer is in; about 1 in 50
// on loopback): a client-side flake, not the origin's. A setup is tried this often before the
// request fails; every retry is reported (onSetupRetry), none is hidden.
const SETUP_ATTEMPTS = 3;

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
  const setUp = async () => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await connectFdsp(signalingUrl, { bindAddress: localAddress, localAddress });
      } catch (err) {
        // Only that flake is retried; a refusal by the origin (429, 503) or a timeout is an error.
        if (attempt >= SETUP_ATTEMPTS || !/^the peer connection failed before/.test(err.message)) throw err;
        onSetupRetry(err.message);
      }
    }
  };
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
