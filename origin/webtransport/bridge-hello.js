'use strict';
// The first message quic-origin sends on each bridge connection of a WebTransport session
// (origin/quic/src/bridge.rs writes it): which half of which session this connection is, who
// the client is, the CONNECT path (with the carrier options the page chose), the connection's
// congestion control and the largest FDSP frame one datagram can carry.
const { readPairParams } = require('../../shared/fdsp/pair-token');

const KINDS = ['reliable', 'unreliable'];
const CONGESTION_CONTROLS = ['cubic', 'newreno', 'bbr', 'fixed'];

class HelloError extends Error {}

/**
 * @param {Uint8Array} bytes  the message
 * @returns {{kind: string, session: string, peer: string, path: string, cc: string, rateKbps: number|null,
 *   maxDatagramBytes: number, pairToken: string|null, pairWith: string|null}}
 */
function parseHello(bytes) {
  let h;
  try {
    h = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new HelloError('the first bridge message is not JSON');
  }
  if (!h || typeof h !== 'object') throw new HelloError('the hello is not an object');
  if (!KINDS.includes(h.kind)) throw new HelloError(`hello.kind must be ${KINDS.join(' or ')}`);
  if (typeof h.session !== 'string' || !/^wt-\d+$/.test(h.session)) throw new HelloError('hello.session must look like wt-N');
  if (typeof h.path !== 'string' || !h.path.startsWith('/')) throw new HelloError('hello.path must be the CONNECT path');
  if (!CONGESTION_CONTROLS.includes(h.cc)) throw new HelloError(`hello.cc must be one of ${CONGESTION_CONTROLS.join(', ')}`);
  if (!(Number.isInteger(h.maxDatagramBytes) && h.maxDatagramBytes >= 64)) throw new HelloError('hello.maxDatagramBytes must be an integer of at least 64');
  const query = new URL(h.path, 'https://origin.invalid').searchParams;
  let pairToken;
  let pairWith;
  try {
    ({ pairToken, pairWith } = readPairParams(query));
  } catch (err) {
    throw new HelloError(err.message);
  }
  return {
    kind: h.kind,
    session: h.session,
    peer: typeof h.peer === 'string' ? h.peer : null,
    path: h.path,
    cc: h.cc,
    rateKbps: Number.isFinite(h.rateKbps) ? h.rateKbps : null,
    maxDatagramBytes: h.maxDatagramBytes,
    pairToken,
    pairWith,
  };
}

module.exports = { parseHello, HelloError };
