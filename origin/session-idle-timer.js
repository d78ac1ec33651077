'use strict';
// When an FDSP session (DataChannel or WebTransport) counts as idle: no frame from its client
// for timeoutMs AND nothing of its own still going out. A client sends one REQUEST per segment
// and then only listens, so "no client frame" alone ended sessions in the middle of a slow
// response: at RTT 250 ms with loss, paper 000's first 5 MB segment took ~56 s to send plus
// the SCTP buffer to drain, the session was closed as "idle for 60 s", the player's request
// failed and dash.js fetched the whole segment again (paper000-fdsp's RTT 250 cells: 42-60 %
// overhead, 14-15 requests over 4-5 connections). Expiring while busy re-arms the timer.

/**
 * @param {object} o
 * @param {number} o.timeoutMs
 * @param {() => boolean} o.busy    the session still has responses open or bytes queued
 * @param {() => void} o.onIdle
 * @returns {{touch: () => void, stop: () => void}} touch: a client frame came (starts the count again)
 */
function createIdleTimer({ timeoutMs, busy, onIdle }) {
  let timer = null;
  let stopped = false;
  const arm = () => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(() => {
      if (stopped) return;
      if (busy()) arm();
      else onIdle();
    }, timeoutMs);
    if (timer.unref) timer.unref();
  };
  return {
    touch: arm,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** A session is busy while its responder answers a request or its pumps or channels hold bytes. */
function fdspSessionBusy(responder, pumps) {
  if (responder.openRequests > 0) return true;
  return Object.values(pumps).some((p) => p.queue.length > 0 || p.channel.bufferedAmount() > 0);
}

module.exports = { createIdleTimer, fdspSessionBusy };
