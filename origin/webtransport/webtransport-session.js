'use strict';
// One player's FDSP session over WebTransport, as quic-origin bridges it: the reliable half (the
// session's bidirectional stream: REQUEST/CANCEL in, HEAD/DATA/END/ERROR out) and the unreliable
// half (datagrams out, one DATA frame each) are two bridge connections. The same FdspResponder
// and client-frame checks as a DataChannel session answer it (origin/datachannel/,
// origin/fdsp-client-frames.js); only the carrier differs, and the request log says which, with
// the congestion control of the connection that carried each part.
//
// Carrier `split` (paper 000's TCP + uncontrolled UDP): the page opens this session with
// ?pairToken=T and a second one with ?pairWith=T&cc=fixed; the second one's datagram half then
// carries this session's datagrams (pairing is the bridge server's job, attachCarrier() here).
const { ChannelPump } = require('../datachannel/channel-pump');
const { FdspResponder, UNRELIABLE_CHUNK_BYTES } = require('../datachannel/fdsp-responder');
const { HEADER_BYTES } = require('../../shared/fdsp/frames');
const { ClientFrames } = require('../fdsp-client-frames');
const { socketChannel, switchableChannel } = require('./socket-channel');
const { createIdleTimer, fdspSessionBusy } = require('../session-idle-timer');

const PAIR_TIMEOUT_MS = 5000;

class WebTransportSession {
  /**
   * @param {object} o
   * @param {string} o.id                 the bridge's session id (wt-N)
   * @param {import('./bridge-connection').BridgeConnection} o.reliable, o.unreliable
   * @param {string} o.contentDir
   * @param {object} [o.contentCache]
   * @param {object} [o.maps]
   * @param {(entry: object) => void} [o.log]
   * @param {string} o.listener
   * @param {number} [o.idleTimeoutMs]
   * @param {(why: string) => void} o.onClose
   */
  constructor(o) {
    this.o = o;
    this.id = o.id;
    this.closed = false;
    this.hello = o.reliable.hello;
    this.idleTimeoutMs = o.idleTimeoutMs || 60000;
    this.ownDatagrams = { channel: socketChannel(o.unreliable.socket), socket: o.unreliable.socket, cc: o.unreliable.hello.cc, session: this.id };
    this.datagrams = switchableChannel();
    this.pumps = {
      reliable: new ChannelPump(socketChannel(o.reliable.socket), { onError: (err) => this.close(`sending on the stream failed: ${err.message}`) }),
      // Kept short for the reason the DataChannel's is: what waits here arrives late.
      unreliable: new ChannelPump(this.datagrams, { highWaterBytes: 64 * 1024, lowWaterBytes: 16 * 1024, onError: (err) => this.close(`sending datagrams failed: ${err.message}`) }),
    };
    const maxDatagramFrame = Math.min(o.reliable.hello.maxDatagramBytes, o.unreliable.hello.maxDatagramBytes);
    this.responder = new FdspResponder({
      contentDir: o.contentDir,
      cache: o.contentCache,
      maps: o.maps,
      reliable: this.pumps.reliable,
      unreliable: this.pumps.unreliable,
      log: o.log,
      peerId: this.id,
      protocol: 'webtransport',
      listener: o.listener,
      onSettled: () => this.touch(),
      // One DATA frame per datagram: its payload must leave room for the frame header.
      chunkBytes: Math.min(UNRELIABLE_CHUNK_BYTES, maxDatagramFrame - HEADER_BYTES),
      logFields: () => ({
        peer: this.hello.peer,
        carrier: this.datagrams.target && this.datagrams.target.session !== this.id ? 'split' : 'single',
        reliableCc: this.hello.cc,
        unreliableCc: this.datagrams.target ? this.datagrams.target.cc : null,
      }),
    });
    this.clientFrames = new ClientFrames({ responder: this.responder, reliable: this.pumps.reliable, endSession: (why) => this.close(why) });

    if (this.hello.pairToken) {
      // Datagrams wait for the carrier session; if it never comes, this session's own carry them.
      this.pairTimer = setTimeout(() => {
        if (!this.datagrams.target && !this.closed) {
          process.stderr.write(`origin: WebTransport ${this.id}: no carrier session paired within ${PAIR_TIMEOUT_MS / 1000} s; its own datagrams carry the unreliable part\n`);
          this.datagrams.setTarget(this.ownDatagrams);
        }
      }, PAIR_TIMEOUT_MS);
    } else this.datagrams.setTarget(this.ownDatagrams);

    o.reliable.onClose = () => this.close('the stream or session closed');
    o.unreliable.onClose = () => this.close('the session closed');
    o.reliable.listen((m) => this.guarded(() => {
      this.touch();
      this.clientFrames.onFrame(m);
    }));
    o.unreliable.listen(() => this.guarded(() => this.clientFrames.onUnreliable()));
    this.touch();
  }

  /** The split carrier's datagram session arrived (bridge-server.js paired it). */
  attachCarrier(carrier) {
    clearTimeout(this.pairTimer);
    this.carrier = carrier;
    this.datagrams.setTarget({ channel: socketChannel(carrier.unreliable.socket), socket: carrier.unreliable.socket, cc: carrier.unreliable.hello.cc, session: carrier.id });
  }

  /** The carrier session ended first: datagrams go on this session's own connection again. */
  detachCarrier() {
    this.carrier = null;
    if (!this.closed) this.datagrams.setTarget(this.ownDatagrams);
  }

  guarded(fn) {
    try {
      fn();
    } catch (err) {
      process.stderr.write(`origin: WebTransport ${this.id}: unexpected error: ${err.stack || err.message}\n`);
      this.close('internal error');
    }
  }

  /** A client frame came: the idle count starts again (session-idle-timer.js: never while sending). */
  touch() {
    if (!this.idle) this.idle = createIdleTimer({ timeoutMs: this.idleTimeoutMs, busy: () => fdspSessionBusy(this.responder, this.pumps), onIdle: () => this.close(`idle for ${this.idleTimeoutMs / 1000} s`) });
    this.idle.touch();
  }

  close(why) {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = why;
    if (this.idle) this.idle.stop();
    clearTimeout(this.pairTimer);
    this.responder.close();
    this.pumps.reliable.close();
    this.pumps.unreliable.close();
    // Closing the bridge connections is how quic-origin learns to close the session.
    this.o.reliable.destroy();
    this.o.unreliable.destroy();
    if (this.carrier) this.carrier.close('the session it carried datagrams for closed');
    this.o.onClose(why);
  }
}

/**
 * The second session of a split carrier: its datagram half carries the paired session's
 * datagrams; a client sends nothing on it (what it sends is counted, and ends it past a limit).
 */
class CarrierSession {
  constructor({ id, reliable, unreliable, onClose }) {
    this.id = id;
    this.reliable = reliable;
    this.unreliable = unreliable;
    this.closed = false;
    this.unexpected = 0;
    this.onClose = onClose;
    reliable.onClose = () => this.close('the session closed');
    unreliable.onClose = () => this.close('the session closed');
    const count = () => {
      this.unexpected += 1;
      if (this.unexpected > 10) this.close('a datagram carrier session received more than 10 messages (clients send nothing on it)');
    };
    reliable.listen(count);
    unreliable.listen(count);
  }

  close(why) {
    if (this.closed) return;
    this.closed = true;
    this.reliable.destroy();
    this.unreliable.destroy();
    this.onClose(why);
  }
}

module.exports = { WebTransportSession, CarrierSession, PAIR_TIMEOUT_MS };
