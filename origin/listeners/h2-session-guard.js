'use strict';
// Per-session limits of the HTTP/2 listener against clients that hold the origin's resources
// without being players (found by npm run bench:load's abusive clients):
//  - A session whose client closed its side is destroyed at once. node:http2 left the socket in
//    CLOSE-WAIT until the 60 s idle timeout, and a rapid-reset client, cut off by node's own
//    GOAWAY after ~1,500 streams and reconnecting, piled up ~500 such descriptors.
//  - Rapid reset (CVE-2023-44487): a session whose client resets more than RESET_BUDGET streams
//    within RESET_WINDOW_MS before their responses ended gets a GOAWAY (ENHANCE_YOUR_CALM) and is
//    destroyed when its client leaves or GOAWAY_LINGER_MS later. A player resets a handful of
//    streams on a seek or a switch; an attacker thousands a second, each of which node would
//    still route, answer and log. Never session.close() here: see goAway() below.
//  - A session idle for IDLE_PROBE_MS gets one PING; one that does not answer within
//    PING_TIMEOUT_MS is destroyed. After a protocol error nghttp2 sends GOAWAY and the session is
//    dead, but node emits no event and keeps the socket for as long as the client does (the
//    fuzzer's h2 batch left ~20 such sockets per run). A live client answers at once; one PING per
//    idle period (17 bytes + TLS) is all it costs a player.
const http2 = require('node:http2');

// A player cancels a few streams at a seek or a quality switch (dash.js aborts what it no longer
// needs); 50 in 10 s is far above that. Each reset stream below the budget is still routed,
// answered and logged, and a rapid-reset client reconnects at once: at 200, bench:load's
// abusers cost the origin ~190 such streams per connection.
const RESET_BUDGET = 50;
const RESET_WINDOW_MS = 10000;
// How long a session told to go away may finish its streams before its socket is destroyed.
const GOAWAY_LINGER_MS = 1000;
const IDLE_PROBE_MS = 5000;
const PING_TIMEOUT_MS = 4000;

/** Applies the guard to one new session (the server's 'session' event). */
function guardSession(session) {
  const socket = session.socket;
  if (socket) {
    socket.once('end', () => {
      if (!session.destroyed) session.destroy();
    });
  }
  let resets = 0;
  let windowStart = Date.now();
  let openStreams = 0;
  let idleTimer = null;
  const probeWhenIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (session.destroyed || session.closed || openStreams > 0) return;
      const deadTimer = setTimeout(() => {
        if (!session.destroyed) session.destroy();
      }, PING_TIMEOUT_MS);
      deadTimer.unref();
      try {
        session.ping((err) => {
          clearTimeout(deadTimer);
          if (err && !session.destroyed) session.destroy();
        });
      } catch {
        clearTimeout(deadTimer);
        if (!session.destroyed) session.destroy();
      }
    }, IDLE_PROBE_MS);
    idleTimer.unref();
  };
  session.once('close', () => clearTimeout(idleTimer));
  probeWhenIdle();
  session.on('stream', (stream) => {
    openStreams += 1;
    clearTimeout(idleTimer);
    stream.once('close', () => {
      openStreams -= 1;
      if (openStreams === 0) probeWhenIdle();
      // rstCode: the client's RST_STREAM (or a reset by the session) before the response ended.
      if (stream.rstCode === undefined || stream.rstCode === http2.constants.NGHTTP2_NO_ERROR) return;
      const now = Date.now();
      if (now - windowStart > RESET_WINDOW_MS) {
        windowStart = now;
        resets = 0;
      }
      resets += 1;
      if (resets === RESET_BUDGET + 1) goAway(session, http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
    });
  });
}

// Why not session.close(): close() marks the session closed in JS, and node (v20.20.2) answers
// every request HEADERS that nghttp2 still delivers after that (the rest of a rapid-reset
// client's batch, parsed in the same nghttp2_session_mem_recv() call, or in a read before the
// GOAWAY is on the wire) with handle.rstStream(REFUSED_STREAM). For any code but CANCEL node's
// Http2Stream::SubmitRstStream() flushes at once: nghttp2_session_mem_send() re-entered from
// inside nghttp2_session_mem_recv(). That sends the pending GOAWAY, nghttp2 closes and frees the
// new stream (its id is above the GOAWAY's last stream id) while mem_recv is still working on
// it, and the heap is corrupted: bench:load's origin died of "malloc(): unsorted double linked
// list corrupted" / "corrupted double-linked list" in 3 of 4 runs of 90 s of rapid reset alone
// (NODE_DEBUG_NATIVE=HTTP2SESSION shows "submitting goaway", "Setting graceful close initiated
// flag", then for the next stream "sending rst_stream with code 7", "sending pending data",
// "stream N closed with code: 7", "Removing stream: N" inside the same receive).
// Without close() node never refuses a stream itself: a stream that arrives before the GOAWAY
// is sent is routed like any other, and once it is sent nghttp2 ignores new streams on its own.
// The GOAWAY is submitted from an immediate, not from the stream 'close' listener that counted
// the reset (that runs inside nghttp2's callbacks, mid-batch).
const goingAway = new WeakSet();

function goAway(session, code) {
  if (session.destroyed || session.closed || goingAway.has(session)) return;
  goingAway.add(session);
  setImmediate(() => {
    if (session.destroyed) return;
    try {
      session.goaway(code);
    } catch { /* already going */ }
  });
  setTimeout(() => {
    if (!session.destroyed) session.destroy();
  }, GOAWAY_LINGER_MS).unref();
}

module.exports = { guardSession, RESET_BUDGET, RESET_WINDOW_MS, IDLE_PROBE_MS, PING_TIMEOUT_MS };
