'use strict';
// What every abusive client shares: a loop that (re)connects until the abuse phase ends, with
// a pause between attempts, so a server that drops it is not answered by a connect storm.
const { setTimeout: sleep } = require('node:timers/promises');

const RECONNECT_PAUSE_MS = 1000;

/**
 * @param {object} o
 * @param {number} o.until             Date.now() time to stop
 * @param {AbortSignal} o.signal
 * @param {(session: {signal: AbortSignal}) => Promise<void>} o.connectOnce
 *   one connection's life: resolves when the server (or the end of the phase) ended it
 * @param {{errors: Record<string, number>}} o.stats
 */
async function untilPhaseEnds({ until, signal, connectOnce, stats, pauseMs = RECONNECT_PAUSE_MS }) {
  while (Date.now() < until && !signal.aborted) {
    try {
      await connectOnce();
    } catch (err) {
      const key = err.code || err.message;
      stats.errors[key] = (stats.errors[key] || 0) + 1;
    }
    if (Date.now() < until && !signal.aborted) await sleep(Math.min(pauseMs, until - Date.now()), undefined, { signal }).catch(() => {});
  }
}

/** Resolves when the socket closes or the signal aborts (then the socket is destroyed). */
function socketLife(socket, signal) {
  return new Promise((resolve) => {
    const end = () => {
      signal.removeEventListener('abort', end);
      socket.destroy();
      resolve();
    };
    socket.once('close', end);
    if (signal.aborted) end();
    else signal.addEventListener('abort', end);
  });
}

module.exports = { untilPhaseEnds, socketLife };
