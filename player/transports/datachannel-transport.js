'use strict';
// FDSP over a WebRTC DataChannel pair (paper 000): the origin sends each media segment's
// critical bytes on a reliable ordered channel and the rest on an unordered channel with no
// retransmissions (origin/datachannel/). Everything FDSP is fdsp-transport.js's (the client
// core, BP, deadlines, accounting); this carrier only opens the session:
// fdsp-browser-session.js (WebSocket signaling + RTCPeerConnection).
const { FdspTransport } = require('./fdsp-transport');
const { openFdspBrowserSession } = require('./fdsp-browser-session');

class DataChannelTransport extends FdspTransport {
  /**
   * @param {object} o
   * @param {string} o.signalingUrl      ws://host:port/fdsp (GET /api/info urls.fdsp)
   * @param {number|string} [o.bp]       Bitstream Prioritization (fdsp-transport.js)
   * @param {() => number} [o.bufferLevel]  seconds of media buffered (for playout deadlines)
   * @param {() => object} [o.stallState]  the player's stalls (fdsp-transport.js)
   * @param {number|null} [o.paceBps]    the unreliable channel's rate, asked of the origin with
   *   every request (pace-option.js); null: unpaced
   */
  constructor(o) {
    super({ name: 'datachannel', label: 'DataChannel (FDSP)', protocol: 'datachannel', bp: o.bp, bufferLevel: o.bufferLevel, stallState: o.stallState, paceBps: o.paceBps });
    this.signalingUrl = o.signalingUrl;
  }

  openSession(handlers) {
    return openFdspBrowserSession(this.signalingUrl, { label: this.label, ...handlers });
  }
}

module.exports = { DataChannelTransport };
