'use strict';
// One FDSP session from the browser: WebSocket signaling with the origin (the browser offers,
// the origin answers; shared/fdsp/signaling.js) and an RTCPeerConnection with the two
// pre-negotiated channels. It only moves messages: what they mean is the transport's
// (datachannel-transport.js) and its core's (shared/fdsp/client-core.js).
const { CHANNELS, webRtcChannelInit, encode, parseSignal } = require('../../shared/fdsp/signaling');

const CONNECT_TIMEOUT_MS = 15000;

/**
 * @param {string} signalingUrl  ws://host:port/fdsp
 * @param {object} o
 * @param {string} o.label         the transport's name in error messages
 * @param {boolean} [o.videoTransceiver]  add a receive-only video transceiver that carries
 *   nothing, so that WebRTC sizes the bundled UDP socket for video (receive-buffer-option.js)
 * @param {(data: ArrayBuffer, channel: 'reliable'|'unreliable') => void} o.onMessage
 * @param {(why: string) => void} o.onClose   the session ended after it opened (once)
 * @returns {Promise<{send: (frame: Uint8Array) => void, close: () => void}>} once both channels are open
 */
async function openFdspBrowserSession(signalingUrl, { label, videoTransceiver = false, onMessage, onClose }) {
  const ws = new WebSocket(signalingUrl);
  const pc = new RTCPeerConnection({ iceServers: [] });
  const reliable = pc.createDataChannel(CHANNELS.reliable.label, webRtcChannelInit(CHANNELS.reliable));
  const unreliable = pc.createDataChannel(CHANNELS.unreliable.label, webRtcChannelInit(CHANNELS.unreliable));
  for (const ch of [reliable, unreliable]) ch.binaryType = 'arraybuffer';
  if (videoTransceiver) pc.addTransceiver('video', { direction: 'recvonly' });
  let closed = false;
  const close = () => {
    closed = true;
    try { reliable.close(); unreliable.close(); pc.close(); ws.close(); } catch { /* closing anyway */ }
  };
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${label}: the DataChannels did not open within ${CONNECT_TIMEOUT_MS / 1000} s (signaling ${signalingUrl})`)), CONNECT_TIMEOUT_MS);
      const settle = (fn, arg) => { clearTimeout(timer); fn(arg); };
      let opened = 0;
      const onOpen = () => {
        opened += 1;
        if (opened === 2) settle(resolve);
      };
      reliable.onopen = onOpen;
      unreliable.onopen = onOpen;
      ws.onerror = () => settle(reject, new Error(`${label}: cannot reach the signaling endpoint ${signalingUrl}`));
      // The origin refused or ended the session before the channels opened (replaced once open).
      ws.onclose = (e) => settle(reject, new Error(`${label}: the origin closed the signaling before the DataChannels opened${e && e.reason ? `: ${e.reason}` : ''}`));
      ws.onmessage = async (e) => {
        try {
          const msg = parseSignal(e.data, { from: 'origin', isBinary: typeof e.data !== 'string' });
          if (msg.type === 'answer') await pc.setRemoteDescription({ type: 'answer', sdp: msg.sdp });
          else if (msg.type === 'candidate' && msg.candidate) await pc.addIceCandidate({ candidate: msg.candidate, sdpMid: msg.mid });
          else if (msg.type === 'error') settle(reject, new Error(`${label}: the origin refused the session: ${msg.message}`));
        } catch (err) {
          settle(reject, err);
        }
      };
      pc.onicecandidate = (e) => {
        if (e.candidate && ws.readyState === 1) ws.send(encode.candidate(e.candidate.candidate, e.candidate.sdpMid));
      };
      ws.onopen = async () => {
        try {
          const offer = await pc.createOffer();
          await pc.setLocalDescription(offer);
          ws.send(encode.description('offer', offer.sdp));
        } catch (err) {
          settle(reject, err);
        }
      };
    });
  } catch (err) {
    close();
    throw err;
  }
  const ended = (why) => {
    if (closed) return;
    close();
    onClose(why);
  };
  ws.onclose = () => ended('signaling closed');
  reliable.onclose = () => ended('reliable channel closed');
  reliable.onmessage = (e) => onMessage(e.data, 'reliable');
  unreliable.onmessage = (e) => onMessage(e.data, 'unreliable');
  return {
    send: (frame) => reliable.send(frame),
    close,
  };
}

module.exports = { openFdspBrowserSession, CONNECT_TIMEOUT_MS };
