'use strict';
// One WebTransport session from the browser to the origin's QUIC server (origin/quic, path
// /fdsp): FDSP frames on one bidirectional stream, each as `[u32 BE length][frame]` both ways
// (shared/fdsp/stream-messages.js puts them back together across reads), and each datagram
// the server sends one unreliable DATA frame. It only moves messages: what they mean is the
// transport's (fdsp-transport.js) and its core's (shared/fdsp/client-core.js).
//
// The origin's certificate is self-signed; serverCertificateHashes pins it by its SHA-256
// (GET /api/info certSha256Hex), which Chromium accepts for an ECDSA certificate valid less
// than 14 days (origin/tls-certificate.js makes one such).
const { encodeStreamMessage, StreamMessageReader } = require('../../shared/fdsp/stream-messages');

const CONNECT_TIMEOUT_MS = 15000;
// Datagrams the browser keeps for the page between two reads. Chromium's default queue holds
// 1 and drops the rest; a segment's chunks arrive in bursts faster than one read each.
const INCOMING_DATAGRAM_QUEUE = 4096;

/** "a1b2..." -> its bytes (serverCertificateHashes takes a BufferSource). */
function hexToBytes(hex) {
  if (typeof hex !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(hex)) throw new TypeError(`a certificate hash must be hex text, got ${JSON.stringify(hex)}`);
  return Uint8Array.from(hex.match(/../g), (h) => parseInt(h, 16));
}

/** A WebTransportError's or close info's words. */
function describeClose(x) {
  if (!x) return 'closed';
  if (x instanceof Error) return x.message || x.name;
  return `closed${x.closeCode === undefined ? '' : ` (code ${x.closeCode})`}${x.reason ? `: ${x.reason}` : ''}`;
}

function raiseDatagramQueue(datagrams) {
  // Both names: the property was renamed (incomingMaxBufferedDatagrams); setting one a build
  // lacks does nothing.
  for (const key of ['incomingHighWaterMark', 'incomingMaxBufferedDatagrams']) {
    try {
      if (key in datagrams) datagrams[key] = INCOMING_DATAGRAM_QUEUE;
    } catch { /* read-only in this build */ }
  }
}

/** Reads a stream to its end, handing each chunk on; resolves with why it ended. */
async function drain(readable, onChunk) {
  const reader = readable.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 'ended';
      onChunk(value);
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * @param {string} url   https://HOST:PORT/fdsp?cc=... (webtransport-carriers.js)
 * @param {object} o
 * @param {string} o.label            the transport's name in error messages
 * @param {string} o.certSha256Hex    the origin certificate's SHA-256 (GET /api/info)
 * @param {boolean} o.stream          open the bidirectional stream (the reliable frames both
 *                                    ways); a split carrier's datagram-only session does not
 * @param {(data: Uint8Array, channel: 'reliable'|'unreliable') => void} o.onMessage
 * @param {(why: string) => void} o.onClose   the session ended after it opened (once)
 * @returns {Promise<{send: (frame: Uint8Array) => void, close: () => void}>} once the session
 *   (and its stream) is open
 */
async function openWebTransportSession(url, { label, certSha256Hex, stream, onMessage, onClose }) {
  if (typeof WebTransport === 'undefined') {
    throw new Error(`${label}: this page has no WebTransport (it needs a secure context: https, loopback, or Chromium's --unsafely-treat-insecure-origin-as-secure for this page's origin)`);
  }
  const wt = new WebTransport(url, {
    serverCertificateHashes: [{ algorithm: 'sha-256', value: hexToBytes(certSha256Hex) }],
    // Datagrams are the unreliable half of FDSP: a session without them (HTTP/2 fallback) is useless.
    requireUnreliable: true,
  });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    try { wt.close({ closeCode: 0, reason: 'player closed the session' }); } catch { /* closing anyway */ }
  };
  // The constructor's promises reject on their own; nobody may be listening yet.
  wt.closed.catch(() => {});
  let writer = null;
  let bidi = null;
  let timer;
  try {
    await Promise.race([
      wt.ready,
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`did not open within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS); }),
    ]);
    if (stream) {
      bidi = await wt.createBidirectionalStream();
      writer = bidi.writable.getWriter();
    }
  } catch (err) {
    close();
    throw new Error(`${label}: cannot open a WebTransport session to ${url}: ${describeClose(err)}`);
  } finally {
    clearTimeout(timer);
  }
  const ended = (why) => {
    if (closed) return;
    close();
    onClose(why);
  };
  wt.closed.then((info) => ended(`the session closed: ${describeClose(info)}`), (err) => ended(`the session failed: ${describeClose(err)}`));
  raiseDatagramQueue(wt.datagrams);
  drain(wt.datagrams.readable, (d) => onMessage(d, 'unreliable'))
    .then(() => ended('the datagram stream ended'), (err) => ended(`datagrams: ${describeClose(err)}`));
  if (bidi) {
    const messages = new StreamMessageReader();
    drain(bidi.readable, (chunk) => {
      for (const m of messages.push(chunk)) onMessage(m, 'reliable');
    }).then(() => ended('the origin ended the stream'), (err) => ended(`the stream failed: ${describeClose(err)}`));
  }
  return {
    send(frame) {
      if (!writer) throw new Error(`${label}: this session has no stream to send on`);
      // One write per message, so messages never interleave; a failed write ends the session.
      writer.write(encodeStreamMessage(frame)).catch((err) => ended(`a write failed: ${describeClose(err)}`));
    },
    close,
  };
}

module.exports = { openWebTransportSession, hexToBytes, CONNECT_TIMEOUT_MS };
