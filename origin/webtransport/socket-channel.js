'use strict';
// One bridge connection (a unix socket to quic-origin) as origin/datachannel/channel-pump.js
// wants a channel: each frame goes out as one [u32 len][frame] message; what the socket has not
// yet handed to the kernel is the buffered amount, and 'drain' is the low-water event. Behind
// the socket quic-origin reads the unreliable connection only when it can send a datagram, so
// this is where datagrams wait, and the pump sees the carrier's pace as backpressure.
const { encodeStreamMessage } = require('../../shared/fdsp/stream-messages');

/** @param {import('node:net').Socket} socket */
function socketChannel(socket) {
  return {
    send: (frame) => {
      if (socket.destroyed) throw new Error('the bridge connection is closed');
      socket.write(encodeStreamMessage(frame));
    },
    bufferedAmount: () => socket.writableLength,
    setBufferedAmountLowThreshold: () => {}, // 'drain' fires when the socket's buffer is empty
    onBufferedAmountLow: (cb) => socket.on('drain', cb),
  };
}

/**
 * A channel whose target is set later, and can change: the split carrier's datagrams go on a
 * second WebTransport session that connects after the first. Until a target is set, it reports
 * itself full, so the pump holds the frames.
 */
function switchableChannel() {
  let target = null;
  const lowCallbacks = [];
  return {
    send: (frame) => {
      if (!target) throw new Error('no carrier for datagrams yet');
      target.channel.send(frame);
    },
    bufferedAmount: () => (target ? target.channel.bufferedAmount() : Infinity),
    setBufferedAmountLowThreshold: () => {},
    onBufferedAmountLow: (cb) => lowCallbacks.push(cb),
    /** @param {{channel: object, socket: import('node:net').Socket, cc: string}|null} next */
    setTarget(next) {
      target = next;
      if (next) {
        next.socket.on('drain', () => { if (target === next) lowCallbacks.forEach((cb) => cb()); });
        lowCallbacks.forEach((cb) => cb());
      }
    },
    get target() {
      return target;
    },
  };
}

module.exports = { socketChannel, switchableChannel };
