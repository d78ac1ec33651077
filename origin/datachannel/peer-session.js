'use strict';
// One player's WebRTC session: the WebSocket that signals it, one peer connection (the origin's
// WebRTC stack, stacks/: node-datachannel by default, or @roamhq/wrtc) and two pre-negotiated
// channels: id 0 reliable and ordered, id 1 unordered with no retransmissions. The browser
// offers and the origin answers. Everything the session holds is freed on close, whoever closes.
// The signaling messages and the channels are defined with the clients' in
// shared/fdsp/signaling.js. A session opened with ?pairWith=T (carriesFor: the session that
// asked with T) is a second association: once its unreliable channel is open, the asker's
// responses send their unreliable part through it, under its own SCTP congestion control;
// either one closing closes both.
const { encode, parseSignal } = require('../../shared/fdsp/signaling');
const { ChannelPump } = require('./channel-pump');
const { FdspResponder } = require('./fdsp-responder');
const { closeReason } = require('./close-reason');
const { ClientFrames } = require('../fdsp-client-frames');
const { createIdleTimer, fdspSessionBusy } = require('../session-idle-timer');
const { getStack } = require('./stacks');

const CONNECT_TIMEOUT_MS = 15000;

class PeerSession {
  /**
   * @param {object} o
   * @param {import('ws').WebSocket} o.ws
   * @param {string} o.contentDir
   * @param {import('../file-cache').FileCache} [o.contentCache]
   * @param {string} [o.bindAddress]  the address ICE gathers on (the origin's own)
   * @param {number} o.id
   * @param {(entry: object) => void} [o.log]
   * @param {import('./fdsp-responder').PriorityMaps} [o.maps]
   * @param {number} [o.idleTimeoutMs]
   * @param {() => void} [o.onClose]
   * @param {PeerSession} [o.carriesFor]  the session whose unreliable part this one carries
   * @param {string} [o.webrtcStack]  stacks/index.js name (default node-datachannel)
   */
  constructor(o) {
    this.o = o;
    this.closed = false;
    this.idleTimeoutMs = o.idleTimeoutMs || 60000;
    this.peer = getStack(o.webrtcStack).openPeer({
      id: o.id,
      bindAddress: o.bindAddress,
      onLocalSignal: (text) => this.signal(text),
      onFailed: (why) => this.close(why),
    });
    try {
      this.setUp(o);
    } catch (err) {
      this.peer.close(); // nothing else holds it yet
      throw err;
    }
  }

  setUp(o) {
    this.reliable = this.peer.channels.reliable;
    this.unreliable = this.peer.channels.unreliable;
    // The unreliable pump keeps less in the channel's buffer: what waits there cannot be
    // retransmitted if SCTP has to abandon it, and it delays END behind it.
    this.pumps = {
      reliable: new ChannelPump(this.reliable.pumpable, { onError: (err) => this.close(`sending on the reliable channel failed: ${err.message}`) }),
      unreliable: new ChannelPump(this.unreliable.pumpable, { highWaterBytes: 64 * 1024, lowWaterBytes: 16 * 1024, onError: (err) => this.close(`sending on the unreliable channel failed: ${err.message}`) }),
    };
    this.carrier = null; // the second association carrying this one's unreliable part
    this.responder = new FdspResponder({
      contentDir: o.contentDir, cache: o.contentCache, reliable: this.pumps.reliable, unreliable: this.pumps.unreliable, log: o.log, peerId: `dc-${o.id}`, maps: o.maps, onSettled: () => this.touch(),
      // Which connection sent the unreliable part: this one until a second association took over.
      logFields: () => ({ unreliableVia: this.unreliableVia }),
    });
    this.unreliableVia = `dc-${o.id}`;
    if (o.carriesFor) {
      const asker = o.carriesFor;
      asker.carrier = this;
      this.unreliable.onOpen(() => this.guarded('pairing', () => {
        if (this.closed || asker.closed) return;
        asker.responder.o.unreliable = this.pumps.unreliable;
        asker.unreliableVia = `dc-${o.id}`;
      }));
    }
    this.clientFrames = new ClientFrames({ responder: this.responder, reliable: this.pumps.reliable, endSession: (why) => this.close(why) });

    this.reliable.onMessage((msg) => this.guarded('frame', () => this.onFrame(msg)));
    this.unreliable.onMessage(() => this.guarded('frame', () => this.clientFrames.onUnreliable()));
    this.reliable.onClosed(() => this.close('reliable channel closed'));
    this.connectTimer = setTimeout(() => { if (!this.reliable.isOpen()) this.close('the DataChannels did not open in time'); }, CONNECT_TIMEOUT_MS);
    this.touch();

    o.ws.on('message', (data, isBinary) => this.guarded('signaling', () => this.onSignal(data, isBinary)));
    o.ws.on('close', () => this.close('signaling closed'));
    o.ws.on('error', () => this.close('signaling failed'));
  }

  /**
   * Runs a handler of client input. Whatever a client sends must end at most its own session:
   * an exception escaping an event handler here would end the process, and every player's
   * session and listener with it.
   */
  guarded(what, fn) {
    try {
      fn();
    } catch (err) {
      process.stderr.write(`origin: DataChannel session ${this.o.id}: unexpected error handling ${what}: ${err.stack || err.message}\n`);
      try {
        this.close(`internal error handling ${what}`);
      } catch { /* closing is best effort here */ }
    }
  }

  signal(text) {
    if (!this.closed && this.o.ws.readyState === 1) this.o.ws.send(text);
  }

  /** A client frame came: the idle count starts again (session-idle-timer.js: never while sending). */
  touch() {
    // A second association never idles on its own: it lives while the first does (whose close closes it).
    const busy = () => fdspSessionBusy(this.responder, this.pumps) || Boolean(this.o.carriesFor && !this.o.carriesFor.closed);
    if (!this.idle) this.idle = createIdleTimer({ timeoutMs: this.idleTimeoutMs, busy, onIdle: () => this.close(`idle for ${this.idleTimeoutMs / 1000} s`) });
    this.idle.touch();
    // The second association gets no requests of its own: it lives as long as the first is used.
    if (this.carrier) this.carrier.touch();
  }

  onSignal(data, isBinary) {
    if (this.closed) return;
    try {
      const msg = parseSignal(data, { from: 'client', isBinary });
      if (msg.type === 'offer') {
        if (this.gotOffer) throw new Error('one offer per session');
        this.gotOffer = true;
        // A stack that answers asynchronously fails the session the same way on a bad offer.
        Promise.resolve(this.peer.acceptOffer(msg.sdp)).catch((err) => this.refuse(err));
      } else { // a candidate, the only other message a client sends
        if (!this.gotOffer) throw new Error('candidate before offer');
        if (msg.candidate) Promise.resolve(this.peer.addCandidate(msg.candidate, msg.mid)).catch((err) => this.refuse(err));
      }
    } catch (err) {
      this.refuse(err);
    }
  }

  refuse(err) {
    if (this.closed) return;
    this.signal(encode.error(err.message));
    this.close(`bad signaling: ${err.message}`);
  }

  onFrame(msg) {
    if (this.closed) return;
    this.touch();
    this.clientFrames.onFrame(typeof msg === 'string' ? msg : new Uint8Array(msg.buffer || msg, msg.byteOffset || 0, msg.byteLength));
  }

  close(why) {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = why;
    if (this.idle) this.idle.stop();
    clearTimeout(this.connectTimer);
    this.responder.close();
    this.pumps.reliable.close();
    this.pumps.unreliable.close();
    this.peer.close();
    if (this.o.ws.readyState === 0 || this.o.ws.readyState === 1) {
      try {
        this.o.ws.close(1000, closeReason(why));
      } catch {
        this.o.ws.terminate(); // the reason cannot break the close
      }
    }
    if (this.o.onClose) this.o.onClose(why);
    // A pair ends together.
    if (this.carrier) this.carrier.close(`the first association closed: ${why}`);
    if (this.o.carriesFor) this.o.carriesFor.close(`the second association closed: ${why}`);
  }
}

module.exports = { PeerSession };
