'use strict';
// The origin's WebRTC peer on @roamhq/wrtc (the maintained node-webrtc, libwebrtc's own stack):
// the project design's named WebRTC package, offered beside node-datachannel (issue 16 item 3).
// Its quirks, measured on these machines (docs/platform-notes.md): `bufferedamountlow` never
// fires, so the pump's wake-up is polled (only while data waits in the channel); a channel whose peer went away never closes by itself
// and its sockets leak until pc.close(), so close() closes everything explicitly; a message over
// 262144 bytes silently closes the channel (the lab's frames stay far below).
const { CHANNELS, webRtcChannelInit, encode } = require('../../../shared/fdsp/signaling');

// How often a waiting pump looks at bufferedAmount (the event it would wait for never comes).
const POLL_MS = 5;
let wrtc = null;

/** One channel as the session wants it. */
function channel(dc, timers) {
  let low = 0;
  let poll = null;
  const stopPoll = () => {
    if (poll) clearInterval(poll);
    poll = null;
  };
  timers.add(stopPoll);
  let onLow = null;
  // Polled only while the channel holds more than the low mark (the pump waits then), until it
  // drains below it or the channel closes.
  const startPoll = () => {
    if (poll || !onLow) return;
    poll = setInterval(() => {
      if (dc.readyState === 'closed') stopPoll();
      else if (dc.bufferedAmount <= low) {
        stopPoll();
        onLow();
      }
    }, POLL_MS);
  };
  return {
    pumpable: {
      send: (frame) => {
        dc.send(frame);
        if (dc.bufferedAmount > low) startPoll();
      },
      bufferedAmount: () => dc.bufferedAmount,
      setBufferedAmountLowThreshold: (n) => { low = n; },
      onBufferedAmountLow: (cb) => { onLow = cb; },
    },
    onMessage: (cb) => { dc.onmessage = (e) => cb(typeof e.data === 'string' ? e.data : Buffer.from(e.data)); },
    onOpen: (cb) => { dc.onopen = cb; },
    onClosed: (cb) => { dc.onclose = cb; },
    isOpen: () => dc.readyState === 'open',
    close: () => dc.close(),
  };
}

/**
 * @param {{id: number, bindAddress?: string, onLocalSignal: (text: string) => void, onFailed: (why: string) => void}} o
 *   bindAddress: not offered by this stack (ICE gathers on every interface of the namespace)
 */
/** Loads the native module (at the origin's start: a missing binary fails it there, not at the first player). */
function load() {
  if (!wrtc) wrtc = require('@roamhq/wrtc');
  return wrtc;
}

function openPeer({ onLocalSignal, onFailed }) {
  load();
  const pc = new wrtc.RTCPeerConnection({ iceServers: [] });
  const reliable = pc.createDataChannel(CHANNELS.reliable.label, webRtcChannelInit(CHANNELS.reliable));
  const unreliable = pc.createDataChannel(CHANNELS.unreliable.label, webRtcChannelInit(CHANNELS.unreliable));
  for (const dc of [reliable, unreliable]) dc.binaryType = 'arraybuffer';
  const timers = new Set();
  let closed = false;
  pc.onicecandidate = (e) => {
    if (e.candidate && e.candidate.candidate) onLocalSignal(encode.candidate(e.candidate.candidate, e.candidate.sdpMid));
  };
  pc.onconnectionstatechange = () => {
    if (pc.connectionState === 'failed' || pc.connectionState === 'closed') onFailed(`peer connection ${pc.connectionState}`);
  };
  return {
    channels: { reliable: channel(reliable, timers), unreliable: channel(unreliable, timers) },
    async acceptOffer(sdp) {
      await pc.setRemoteDescription({ type: 'offer', sdp });
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      if (!closed) onLocalSignal(encode.description('answer', pc.localDescription.sdp));
    },
    addCandidate: (candidate, mid) => pc.addIceCandidate({ candidate, sdpMid: mid }),
    close() {
      closed = true;
      for (const stop of timers) stop();
      for (const c of [reliable, unreliable]) {
        try { c.close(); } catch { /* already closed */ }
      }
      try { pc.close(); } catch { /* already closed */ }
    },
  };
}

module.exports = { name: 'wrtc', label: '@roamhq/wrtc (node-webrtc, libwebrtc)', load, openPeer };
