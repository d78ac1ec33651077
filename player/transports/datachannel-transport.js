'use strict';
// FDSP over a WebRTC DataChannel pair (paper 000): the origin sends each media segment's
// critical bytes on a reliable ordered channel and the rest on an unordered channel with no
// retransmissions (origin/datachannel/). Everything FDSP is fdsp-transport.js's (the client
// core, BP, deadlines, accounting); this carrier only opens the session:
// fdsp-browser-session.js (WebSocket signaling + RTCPeerConnection).
const { FdspTransport } = require('./fdsp-transport');
const { openFdspBrowserSession } = require('./fdsp-browser-session');
const { newPairToken, sessionUrl } = require('../../shared/fdsp/pair-token');
const receiveBufferOption = require('./receive-buffer-option');

class DataChannelTransport extends FdspTransport {
  /**
   * @param {object} o
   * @param {string} o.signalingUrl      ws://host:port/fdsp (GET /api/info urls.fdsp)
   * @param {number|string} [o.bp]       Bitstream Prioritization (fdsp-transport.js)
   * @param {() => number} [o.bufferLevel]  seconds of media buffered (for playout deadlines)
   * @param {() => object} [o.stallState]  the player's stalls (fdsp-transport.js)
   * @param {(url: string) => string|null} [o.nextSegmentUrl]  substream overlapping (fdsp-transport.js)
   * @param {number} [o.associations]  1: both channels on one peer connection; 2: the unreliable
   *   part on a second one (associations-option.js)
   * @param {number|null} [o.paceBps]    the unreliable channel's rate, asked of the origin with
   *   every request (pace-option.js); null: unpaced
   * @param {number|null} [o.windowBytes]  the receive window asked of the origin (window-option.js); null: none
   * @param {string} [o.receiveBuffer]   'video' (default): a receive-only video
   *   transceiver on each peer connection, so Chromium's socket gets video's buffer; 'chromium': none (receive-buffer-option.js)
   */
  constructor(o) {
    super({ name: 'datachannel', label: 'DataChannel (FDSP)', protocol: 'datachannel', bp: o.bp, mode: o.mode, bufferLevel: o.bufferLevel, stallState: o.stallState, paceBps: o.paceBps, windowBytes: o.windowBytes, nextSegmentUrl: o.nextSegmentUrl });
    this.signalingUrl = o.signalingUrl;
    this.associations = o.associations ?? 1;
    this.receiveBuffer = o.receiveBuffer ?? receiveBufferOption.default;
    // Each peer connection the transport opens gets the transceiver (both of a pair).
    this.videoTransceiver = this.receiveBuffer === 'video';
  }

  openSession(handlers) {
    if (this.associations !== 2) return openFdspBrowserSession(this.signalingUrl, { label: this.label, videoTransceiver: this.videoTransceiver, ...handlers });
    return this.openPair(handlers);
  }

  /**
   * Two peer connections: A (?pairToken=T) carries the requests and the reliable frames, B
   * (?pairWith=T) the unreliable frames of A's responses, each under its own SCTP congestion
   * control. Frames are taken from every channel of both (the origin moves A's unreliable part
   * to B once B's channel is open), and either one ending ends both.
   */
  async openPair({ onMessage, onClose }) {
    const token = newPairToken();
    let a = null;
    let b = null;
    let ended = false;
    let open = false; // onClose only for a pair that was handed out
    let endedWhileOpening = null;
    const end = (why) => {
      if (ended) return;
      ended = true;
      if (a) a.close();
      if (b) b.close();
      if (open) onClose(why);
      else endedWhileOpening = why;
    };
    a = await openFdspBrowserSession(sessionUrl(this.signalingUrl, { pairToken: token }), { label: this.label, videoTransceiver: this.videoTransceiver, onMessage, onClose: (why) => end(why) });
    try {
      b = await openFdspBrowserSession(sessionUrl(this.signalingUrl, { pairWith: token }), { label: `${this.label} (second association)`, videoTransceiver: this.videoTransceiver, onMessage, onClose: (why) => end(`second association: ${why}`) });
    } catch (err) {
      ended = true;
      a.close();
      throw err;
    }
    if (endedWhileOpening !== null) {
      a.close();
      b.close();
      throw new Error(`${this.label}: the first association ended while the second opened: ${endedWhileOpening}`);
    }
    open = true;
    return {
      send: (frame) => a.send(frame),
      close: () => {
        ended = true;
        a.close();
        b.close();
      },
    };
  }
}

module.exports = { DataChannelTransport };
