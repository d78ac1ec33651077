'use strict';
// What a client may send in an FDSP session, whatever carries it (a DataChannel pair, a
// WebTransport session): REQUEST, CANCEL, STALL and ACK, decoded and checked here, answered by the
// session's FdspResponder. Anything else, a malformed frame, or a request over the limits is a strike,
// answered with an ERROR frame; more than MAX_BAD_FRAMES strikes and the session is ended.
const { decodeFrame, encodeError, FrameError } = require('../shared/fdsp/frames');
const { RequestRateLimit } = require('./datachannel/request-rate-limit');
const { MAX_OPEN_REQUESTS } = require('./datachannel/fdsp-responder');

const MAX_BAD_FRAMES = 10;

class ClientFrames {
  /**
   * @param {object} o
   * @param {import('./datachannel/fdsp-responder').FdspResponder} o.responder
   * @param {import('./datachannel/channel-pump').ChannelPump} o.reliable  where ERROR frames go
   * @param {(why: string) => void} o.endSession  too many strikes
   */
  constructor(o) {
    this.o = o;
    this.badFrames = 0;
    this.requestRate = new RequestRateLimit();
  }

  /** One message from the client's reliable side (Uint8Array). */
  onFrame(bytes) {
    let frame;
    try {
      frame = decodeFrame(bytes);
    } catch (err) {
      if (err instanceof FrameError) return this.strike(0, err);
      throw err;
    }
    const { responder } = this.o;
    if (frame.type === 'REQUEST') {
      // Refusals for too many requests are strikes too: a flood of well-formed REQUESTs was
      // otherwise answered 429 by 429 for as long as the client kept sending.
      if (responder.openRequests >= MAX_OPEN_REQUESTS) return this.strike(frame.requestId, new FrameError('too-many-open', `at most ${MAX_OPEN_REQUESTS} requests may be open at once`), 429);
      if (!this.requestRate.take()) return this.strike(frame.requestId, new FrameError('rate', `more than ${this.requestRate.perSecond} requests a second (bursts of ${this.requestRate.burst})`), 429);
      responder.handle(frame.requestId, frame.payload);
    } else if (frame.type === 'CANCEL') responder.cancel(frame.requestId);
    else if (frame.type === 'STALL') responder.stalled(frame.payload.stalled);
    // Not rate-limited: one ACK per few frames received is the protocol (unknown ones do nothing).
    else if (frame.type === 'ACK') responder.acked(frame.requestId, frame.offset);
    else this.strike(frame.requestId, new FrameError('unexpected', `a client does not send ${frame.type}`));
    return undefined;
  }

  /** Anything on the unreliable side: clients only receive there. */
  onUnreliable() {
    this.strike(0, new FrameError('wrong-channel', 'requests go on the reliable channel'));
  }

  /** A malformed or refused frame: answered with an ERROR frame; too many and the session is closed. */
  strike(requestId, err, status = 400) {
    this.badFrames += 1;
    this.o.reliable.push(requestId, encodeError(requestId, status, `${err.code}: ${err.message}`));
    if (this.badFrames > MAX_BAD_FRAMES) this.o.endSession(`more than ${MAX_BAD_FRAMES} malformed or refused frames`);
  }
}

module.exports = { ClientFrames, MAX_BAD_FRAMES };
