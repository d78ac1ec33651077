'use strict';
// How an FDSP session is set up, defined once for the origin (origin/datachannel/peer-session.js)
// and its clients (the player's transport, the Node client): the signaling messages on the
// WebSocket (/fdsp on the origin's HTTP/1.x listeners) and the two DataChannels both ends
// create pre-negotiated, so no in-band channel setup has to be trusted.
//
// Signaling, JSON text messages, one object each, at most 64 KiB:
//   client -> origin  {type: "offer", sdp} then {type: "candidate", candidate, mid} ...
//   origin -> client  {type: "answer", sdp}, {type: "candidate", candidate, mid} ...,
//                     {type: "error", message} (then the origin closes the socket)
// The client offers and the origin answers: as offerer node-datachannel sometimes failed DTLS
// under CPU load, as answerer it did not (docs/platform-notes.md). An empty candidate string
// is the end of candidates; mid defaults to "0" (one bundled m-line).

const MAX_SIGNAL_BYTES = 64 * 1024;

/** The two channels: ids 0 and 1, negotiated out of band by both ends alike. */
const CHANNELS = Object.freeze({
  reliable: Object.freeze({ label: 'fdsp-reliable', id: 0, ordered: true, maxRetransmits: null }),
  unreliable: Object.freeze({ label: 'fdsp-unreliable', id: 1, ordered: false, maxRetransmits: 0 }),
});

/** A channel's init as RTCPeerConnection.createDataChannel(label, init) takes it (browser). */
function webRtcChannelInit(c) {
  return { negotiated: true, id: c.id, ordered: c.ordered, ...(c.maxRetransmits === null ? {} : { maxRetransmits: c.maxRetransmits }) };
}

/** The same for node-datachannel's PeerConnection.createDataChannel(label, init). */
function nodeDataChannelInit(c) {
  return { negotiated: true, id: c.id, ...(c.ordered ? {} : { unordered: true }), ...(c.maxRetransmits === null ? {} : { maxRetransmits: c.maxRetransmits }) };
}

class SignalingError extends Error {}

const encode = {
  /** libdatachannel's onLocalDescription gives (sdp, 'Offer' | 'Answer'). */
  description: (type, sdp) => JSON.stringify({ type: String(type).toLowerCase(), sdp }),
  candidate: (candidate, mid) => JSON.stringify({ type: 'candidate', candidate, mid }),
  error: (message) => JSON.stringify({ type: 'error', message }),
};

function byteLength(data) {
  return typeof data === 'string' ? new TextEncoder().encode(data).length : data.length ?? data.byteLength;
}

// What each side may receive: type -> checks the message and returns its normal form.
const FROM = {
  client: {
    offer: (m) => description(m),
    candidate: (m) => candidate(m),
  },
  origin: {
    answer: (m) => description(m),
    candidate: (m) => candidate(m),
    error: (m) => ({ type: 'error', message: String(m.message ?? '') }),
  },
};

function description(m) {
  if (typeof m.sdp !== 'string') throw new SignalingError(`${m.type} needs an sdp string`);
  return { type: m.type, sdp: m.sdp };
}

function candidate(m) {
  if (typeof m.candidate !== 'string' || typeof (m.mid ?? '') !== 'string') throw new SignalingError('candidate needs candidate and mid strings');
  return { type: 'candidate', candidate: m.candidate, mid: m.mid || '0' };
}

/**
 * One signaling message as the receiving side may take it.
 * @param {string|Buffer|Uint8Array} data
 * @param {{from: 'client'|'origin', isBinary?: boolean}} o  who sent it
 * @returns {{type: string, sdp?: string, candidate?: string, mid?: string, message?: string}}
 * @throws {SignalingError} saying what is wrong with it
 */
function parseSignal(data, { from, isBinary = false }) {
  const kinds = FROM[from];
  if (!kinds) throw new TypeError(`from must be "client" or "origin", got ${from}`);
  if (isBinary) throw new SignalingError('signaling messages are JSON text');
  const bytes = byteLength(data);
  if (bytes > MAX_SIGNAL_BYTES) throw new SignalingError(`a signaling message of ${bytes} bytes is over ${MAX_SIGNAL_BYTES}`);
  let msg;
  try {
    msg = JSON.parse(String(data));
  } catch (err) {
    throw new SignalingError(err.message);
  }
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) throw new SignalingError('a signaling message is a JSON object');
  const check = Object.prototype.hasOwnProperty.call(kinds, msg.type) ? kinds[msg.type] : null;
  if (!check) throw new SignalingError(`unknown signaling message type ${JSON.stringify(msg.type)}`);
  return check(msg);
}

module.exports = { CHANNELS, webRtcChannelInit, nodeDataChannelInit, encode, parseSignal, SignalingError, MAX_SIGNAL_BYTES };
