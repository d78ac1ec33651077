'use strict';
// The origin's WebRTC peer on node-datachannel (libdatachannel): the default stack. The
// browser offers and this side answers (as offerer it sometimes failed DTLS under CPU load;
// docs/platform-notes.md). Pre-negotiated channels, ids 0 and 1 (shared/fdsp/signaling.js).
const nodeDataChannel = require('node-datachannel');
const { CHANNELS, nodeDataChannelInit, encode } = require('../../../shared/fdsp/signaling');
const { parseSctpSettings } = require('./sctp-settings');

// SCTP's own send buffer. libdatachannel raises usrsctp's to 1 MiB for throughput, but
// bufferedAmount() does not count what sits there, so the pumps kept it full: on a lossy
// link where SCTP carried ~0.5 Mbit/s, each segment's chunks queued ~16 s behind older ones
// and arrived after their deadline (PLR 88 % from 2 % loss). The buffer also holds the data in
// flight, so it must stay above the bandwidth-delay product the lab emulates.
const SCTP_SEND_BUFFER_BYTES = Number(process.env.LAB_SCTP_SEND_BUFFER_BYTES) || 256 * 1024;
// LAB_SCTP="KEY=VALUE,..." sets any of libdatachannel's SCTP settings and the peer's mtu, for
// `npm run bench:datachannel -- --sctp ...`; read by load(), so a bad value fails the origin's
// start with the reason.
let sctpMtu;

/** Applies the SCTP settings once, when the origin starts, before any peer connection exists. */
function load() {
  if (sctpMtu !== undefined) return nodeDataChannel;
  let overrides;
  try {
    overrides = parseSctpSettings(process.env.LAB_SCTP);
  } catch (err) {
    throw new Error(`LAB_SCTP: ${err.message}`);
  }
  const { mtu, ...settings } = overrides;
  nodeDataChannel.setSctpSettings({ sendBufferSize: SCTP_SEND_BUFFER_BYTES, ...settings });
  sctpMtu = mtu ?? null;
  return nodeDataChannel;
}

/** One channel as the session wants it. */
function channel(dc) {
  return {
    pumpable: {
      send: (frame) => dc.sendMessageBinary(frame),
      bufferedAmount: () => dc.bufferedAmount(),
      setBufferedAmountLowThreshold: (n) => dc.setBufferedAmountLowThreshold(n),
      onBufferedAmountLow: (cb) => dc.onBufferedAmountLow(cb),
    },
    onMessage: (cb) => dc.onMessage(cb),
    onOpen: (cb) => dc.onOpen(cb),
    onClosed: (cb) => dc.onClosed(cb),
    isOpen: () => dc.isOpen(),
    close: () => dc.close(),
  };
}

/**
 * @param {{id: number, bindAddress?: string, onLocalSignal: (text: string) => void, onFailed: (why: string) => void}} o
 */
function openPeer({ id, bindAddress, onLocalSignal, onFailed }) {
  // No auto-negotiation: creating the channels would otherwise make this side offer too.
  const pc = new nodeDataChannel.PeerConnection(`lab-peer-${id}`, { iceServers: [], ...(bindAddress ? { bindAddress } : {}), maxMessageSize: 256 * 1024, ...(load() && sctpMtu ? { mtu: sctpMtu } : {}), disableAutoNegotiation: true });
  const reliable = pc.createDataChannel(CHANNELS.reliable.label, nodeDataChannelInit(CHANNELS.reliable));
  const unreliable = pc.createDataChannel(CHANNELS.unreliable.label, nodeDataChannelInit(CHANNELS.unreliable));
  pc.onLocalDescription((sdp, type) => onLocalSignal(encode.description(type, sdp)));
  pc.onLocalCandidate((candidate, mid) => onLocalSignal(encode.candidate(candidate, mid)));
  pc.onStateChange((state) => {
    if (state === 'failed' || state === 'closed') onFailed(`peer connection ${state}`);
  });
  return {
    channels: { reliable: channel(reliable), unreliable: channel(unreliable) },
    acceptOffer(sdp) {
      pc.setRemoteDescription(sdp, 'offer');
      pc.setLocalDescription('answer');
    },
    addCandidate: (candidate, mid) => pc.addRemoteCandidate(candidate, mid),
    close() {
      for (const c of [reliable, unreliable]) {
        try { c.close(); } catch { /* already closed */ }
      }
      try { pc.close(); } catch { /* already closed */ }
    },
  };
}

module.exports = { name: 'node-datachannel', label: 'node-datachannel (libdatachannel)', load, openPeer };
