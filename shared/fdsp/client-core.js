'use strict';
// The client side of one FDSP session, without the session: request ids, frames routed to
// their response (response-assembly.js holds the rule for when one is done), chunks that come
// after their response was handed over, and the session's accounting. The player's transport
// (player/transports/datachannel-transport.js) and the Node client
// (testbed/datachannel/node-fdsp-client.js) are thin adapters around it: they own the
// channels and the timer, pass every message and the time in, and act on what comes back.
// Pure: no channel, no timer, no clock.
//
// Each call returns what happened, as events in order:
//   {kind: 'progress', requestId, loaded, total}   more of a response's bytes are in
//   {kind: 'data', requestId, bytes}               a progressive response's fragments due now,
//                                                  in order, for the decoder (the rest comes
//                                                  with 'done': response.releasedBytes on)
//   {kind: 'done', requestId, response, cancel}    response: ResponseAssembly's; cancel: a
//                                                  CANCEL frame to send (stopped at its
//                                                  deadline: the origin stops sending), or null
//   {kind: 'failed', requestId, error}             error: {code, message, status?}; status is
//                                                  the origin's (ERROR frame) when it sent one
//   {kind: 'end', requestId, end}                  END of a response already done (it finished
//                                                  on its last chunk before END came)
//   {kind: 'late', requestId, finishedBy}          one of its chunks came after the response
//                                                  was handed over (zero-filled, in its
//                                                  lostChunks): after its deadline or END's grace
//   {kind: 'ack', frame}                           an ACK frame to send on the reliable channel
//                                                  (only while a receive window is asked for)
const frames = require('./frames');
const { ResponseAssembly, NO_STALL } = require('./response-assembly');

// Finished responses remembered for their late chunks; older ones are forgotten.
const KEEP_FINISHED = 64;
// Frames that belong to no open request (undecodable, or an ERROR for none) kept for a look.
const KEEP_STRAY = 1000;

class FdspClientCore {
  constructor() {
    this.responses = new Map(); // requestId -> ResponseAssembly, while open
    this.finished = new Map(); // requestId -> {finishedBy, end}
    this.nextId = 1;
    // The receive window asked of the origin (bytes, null: none): an ACK goes back each time a
    // quarter of it has come in (origin/datachannel/in-flight-window.js).
    this.windowBytes = null;
    this.unackedBytes = 0;
    this.acks = 0;
    this.totals = {
      requests: 0, reliableBytes: 0, unreliableBytes: 0, packets: 0, unreliableChunks: 0, lostChunks: 0, lateChunks: 0,
      // Late chunks by what ended their response: after the playout deadline they are expected;
      // after END's grace on a clean link they mean the grace was too short.
      lateChunksAfterDeadline: 0, lateChunksAfterEnd: 0,
      // Progressive responses: chunks that came after their fragment went to the decoder (lost
      // for playout, counted in lostChunks too), fragments handed over on their own deadline.
      lateChunksAfterRelease: 0, fragmentsReleased: 0,
      duplicates: 0, deadlineStops: 0,
      // Messages that were not frames of this protocol.
      errors: 0,
    };
    /** Decode errors (their messages) and ERROR payloads for no open request, oldest first. */
    this.errorsWithoutRequest = [];
  }

  /** Requests sent and not yet done, failed or cancelled. */
  get openRequests() {
    return this.responses.size;
  }

  /**
   * A new request.
   * @param {{url: string, range?: [number, number]|null, bp: number, deadlineMs?: number|null, graceMs?: number|null, progressive?: boolean}} req
   *   progressive: a fragmented segment goes to the decoder fragment by fragment ('data' events);
   *   paceBps: the unreliable part's rate asked of the origin (null: unpaced; absent: not asked);
   *   udpOnly: paper 000's UDP-only baseline (only container boxes reliable); windowBytes: the
   *   receive window asked of the origin from now on (null: none; absent: not asked)
   * @param {number} now
   * @param {{totalMs: number, since: number|null}} [stall]  the player's stalls: total ms so far,
   *   and when the one in progress began (progressive responses; response-assembly.js)
   * @returns {{requestId: number, frame: Uint8Array}} the REQUEST frame to send on the reliable channel
   */
  request({ url, range = null, bp, deadlineMs = null, graceMs = null, progressive = false, paceBps, udpOnly = false, windowBytes }, now, stall = NO_STALL) {
    const requestId = this.nextId;
    const frame = frames.encodeRequest(requestId, { url, range, bp, deadlineMs, paceBps, udpOnly, windowBytes });
    if (windowBytes !== undefined) this.windowBytes = windowBytes;
    this.nextId = (this.nextId % 0xfffffffe) + 1;
    this.responses.set(requestId, new ResponseAssembly({ startedAt: now, deadlineMs, graceMs, progressive, stall }));
    return { requestId, frame };
  }

  /**
   * One message from a channel.
   * @param {Uint8Array|ArrayBuffer} data
   * @param {'reliable'|'unreliable'} channel
   * @param {number} now
   * @param {{totalMs: number, since: number|null}} [stall]  the player's stalls (as for request())
   * @returns {object[]} events
   */
  receive(data, channel, now, stall) {
    let f;
    try {
      f = frames.decodeFrame(data);
    } catch (err) {
      if (!(err instanceof frames.FrameError)) throw err;
      this.totals.errors += 1;
      this.stray(err.message);
      return [];
    }
    const events = [];
    if (f.type === 'DATA') this.acknowledge(f, events);
    const r = this.responses.get(f.requestId);
    if (!r) return events.concat(this.afterSettled(f, channel));
    const before = r.loaded;
    const outcome = r.receive(f, channel, now, stall);
    if (r.loaded !== before) events.push({ kind: 'progress', requestId: f.requestId, loaded: r.loaded, total: r.total });
    this.released(f.requestId, r, events);
    if (outcome) events.push(this.settle(f.requestId, outcome));
    return events;
  }

  /** Time has passed: deadlines, fragments and END's grace that ran out act. */
  tick(now, stall) {
    const events = [];
    for (const [requestId, r] of [...this.responses]) {
      const outcome = r.tick(now, stall);
      this.released(requestId, r, events);
      if (outcome) events.push(this.settle(requestId, outcome));
    }
    return events;
  }

  /** Counts a DATA frame in; a quarter of the window in since the last ACK: ACK this one. */
  acknowledge(f, events) {
    if (this.windowBytes === null) return;
    this.unackedBytes += frames.HEADER_BYTES + f.bytes.length;
    if (this.unackedBytes < this.windowBytes / 4) return;
    this.unackedBytes = 0;
    this.acks += 1;
    events.push({ kind: 'ack', frame: frames.encodeAck(f.requestId, f.offset) });
  }

  released(requestId, r, events) {
    for (const bytes of r.takeReleased()) events.push({ kind: 'data', requestId, bytes });
  }

  /** When tick() should run next (ms, the clock `now` is on), or null: only a frame can settle anything. */
  nextWakeAt() {
    let at = null;
    for (const r of this.responses.values()) {
      const w = r.wakeAt;
      if (w !== null && (at === null || w < at)) at = w;
    }
    return at;
  }

  /**
   * The caller gave up on a request (aborted, or it could not be sent). Its later frames are
   * ignored, not counted late.
   * @returns {Uint8Array|null} the CANCEL frame to send when it was open, else null
   */
  cancel(requestId) {
    if (!this.responses.delete(requestId)) return null;
    return frames.encodeCancel(requestId);
  }

  /** The session is gone: every open request fails with this reason. */
  failAll(message, code = 'closed') {
    const events = [];
    for (const [requestId, r] of [...this.responses]) events.push(this.settle(requestId, r.fail(code, message)));
    return events;
  }

  /** The session's accounting: PLR over all packets (paper 000), the unreliable channel's own loss beside it. */
  stats() {
    const t = this.totals;
    const total = t.reliableBytes + t.unreliableBytes;
    return {
      ...t,
      plr: t.packets ? t.lostChunks / t.packets : 0,
      unreliableLossRatio: t.unreliableChunks ? t.lostChunks / t.unreliableChunks : 0,
      reliableShare: total ? t.reliableBytes / total : null,
      acks: this.acks,
    };
  }

  settle(requestId, outcome) {
    this.responses.delete(requestId);
    if (outcome.failed) return { kind: 'failed', requestId, error: outcome.failed };
    const r = outcome.done;
    const t = this.totals;
    t.requests += 1;
    t.reliableBytes += r.bytesPerChannel.reliable;
    t.unreliableBytes += r.bytesPerChannel.unreliable;
    t.unreliableChunks += r.unreliableChunks;
    t.packets += r.packets;
    t.lostChunks += r.lostChunks;
    t.duplicates += r.duplicates;
    t.lateChunksAfterRelease += r.lateChunks || 0;
    t.fragmentsReleased += r.releasedFragments || 0;
    if (r.finishedBy === 'deadline') t.deadlineStops += 1;
    this.finished.set(requestId, { finishedBy: r.finishedBy, end: r.end });
    if (this.finished.size > KEEP_FINISHED) this.finished.delete(this.finished.keys().next().value);
    return { kind: 'done', requestId, response: r, cancel: r.finishedBy === 'deadline' ? frames.encodeCancel(requestId) : null };
  }

  /** A frame for no open request: a chunk too late for its response, its END, or stray. */
  afterSettled(f, channel) {
    const done = this.finished.get(f.requestId);
    if (f.type === 'ERROR') {
      this.stray(f.payload);
      return [];
    }
    if (!done) return [];
    if (f.type === 'DATA' && channel === 'unreliable') {
      // Too late: the response was handed over with this chunk zero-filled.
      this.totals.lateChunks += 1;
      if (done.finishedBy === 'deadline') this.totals.lateChunksAfterDeadline += 1;
      else this.totals.lateChunksAfterEnd += 1;
      // Per response too: a chunk that came after END's grace was not the network's loss
      // (player/qoe/fdsp-media-loss.js), and only the response's own count can say whose.
      return [{ kind: 'late', requestId: f.requestId, finishedBy: done.finishedBy }];
    } else if (f.type === 'END' && !done.end) {
      done.end = f.payload;
      return [{ kind: 'end', requestId: f.requestId, end: f.payload }];
    }
    return [];
  }

  stray(what) {
    this.errorsWithoutRequest.push(what);
    if (this.errorsWithoutRequest.length > KEEP_STRAY) this.errorsWithoutRequest.shift();
  }
}

module.exports = { FdspClientCore, KEEP_FINISHED };
