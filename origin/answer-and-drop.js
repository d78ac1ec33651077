'use strict';
// The last words to a client whose connection is being refused (a request the HTTP parser
// cannot read, an upgrade the signaling endpoint turns down): a raw HTTP response on the
// socket, then the socket is gone.

// How long a refused client gets to read its response and close before the socket is destroyed.
// Not at once: closing a socket with unread input sends a RST, which can discard the response
// from the client's receive buffer before it reads it (the lingering-close problem).
const LINGER_MS = 1000;

/**
 * Writes a last response, half-closes, and releases the descriptor LINGER_MS later whatever the
 * client does. end() alone only half-closes: a client that never closes its own half kept the
 * server's socket in FIN-WAIT-2 for good (1,000 such clients held 1,000 descriptors), which
 * defeats the very header timeout that sent the 408.
 */
function answerAndDrop(socket, response) {
  socket.end(response);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** An upgrade (WebSocket) request turned down: a plain-text HTTP status, then the socket goes. */
function refuseUpgrade(socket, status, text) {
  answerAndDrop(socket, `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
}

module.exports = { answerAndDrop, refuseUpgrade, LINGER_MS };
