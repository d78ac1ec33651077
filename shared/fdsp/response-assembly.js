'use strict';
// One FDSP response being put back together, and the one rule for when it is done, which the
// player's transport and the Node client both follow. Pure: no channel, no timer, no clock;
// whoever drives it passes the time in (`now`, ms on one monotonic clock such as
// performance.now()) and arms a timer for `wakeAt` (shared/fdsp/wake-timer.js).
//
// The frames of a response (shared/fdsp/frames.js): HEAD, then DATA on either channel, then
// END, all reliable and ordered except the unreliable DATA, which may come in any order,
// twice, not at all, or before its HEAD (kept until the HEAD says where it goes). ERROR ends
// the response wherever it comes. Missing bytes stay zero in place (segment-assembler.js), so
// the container keeps its layout and the decoder conceals the damage.
//
// Done when every reliable byte is in (they always arrive; until then nothing is decided) and
//   - every unreliable chunk is in ("complete"), or
//   - the playout deadline has passed ("deadline": only reliable bytes were worth waiting
//     for; the client then CANCELs so the origin stops sending), or
//   - END has come and no frame of the response has arrived for the grace window ("end").
// END leaves the origin when its last unreliable chunk was handed to the channel, but that
// chunk may still wait in SCTP's send buffer, so END often arrives first; while chunks keep
// coming they are not lost yet. The window is twice the longest gap between this response's
// DATA frames so far (SCTP sends in bursts, one per round trip on a long link), at least
// GRACE_AFTER_END_MS and at most MAX_GRACE_MS, unless the caller fixes it (graceMs).
// When two of these have passed by the time the response is looked at, the earlier one is
// its reason, so a late timer does not change the accounting.
//
// Progressive (paper 000's playout; the caller asks for it): a segment whose HEAD lists several
// movie fragments goes to the decoder fragment by fragment, each at its own deadline with
// whatever of its bytes are in (fragment-release.js has the rule; takeReleased() hands the bytes
// over, in order). Its "deadline" is then its last fragment's, and a chunk that comes after its
// fragment went is late: counted lost for playout (lateChunks), as the paper counts it. A
// segment of one fragment keeps the whole-segment rule above.
const { SegmentAssembler } = require('./segment-assembler');
const { fragmentsDue } = require('./fragment-release');

const GRACE_AFTER_END_MS = 60;
// A player that has not stalled (the Node client, the HTTP-less tests).
const NO_STALL = Object.freeze({ totalMs: 0, since: null });
const MAX_GRACE_MS = 1500;
// Room kept between "stop waiting" and the moment the segment is needed.
const DEADLINE_MARGIN_MS = 250;
// Unreliable chunks that overtake their HEAD are kept until it comes; a HEAD is one frame
// ahead of them on the other channel, so a few are normal and this many is a broken peer.
const MAX_EARLY_BYTES = 16 * 1024 * 1024;

/**
 * The playout deadline of a request made now: when what is buffered ahead of the segment has
 * played, less the margin. With less than the margin buffered the player is stalled or about
 * to be (or starting, or after a seek): the segment is late whatever happens, and paper 000
 * then moves every later deadline by the rebuffering time, so there is no deadline and
 * everything is waited for, up to END. (Cutting at once instead handed the decoder segments
 * of zeros: PLR 88 % at 2 % loss, and the buffer never grew.)
 * @param {number} bufferedSeconds
 * @returns {number|null} ms from now
 */
function playoutDeadlineMs(bufferedSeconds) {
  const ms = bufferedSeconds * 1000;
  return ms > DEADLINE_MARGIN_MS ? ms - DEADLINE_MARGIN_MS : null;
}

class ResponseAssembly {
  /**
   * @param {object} o
   * @param {number} o.startedAt           when the request was made
   * @param {number|null} [o.deadlineMs]   playout deadline, ms after startedAt (null: none)
   * @param {number|null} [o.graceMs]      a fixed grace after END instead of the gap rule
   * @param {boolean} [o.progressive]      hand a fragmented segment over fragment by fragment
   * @param {{totalMs: number, since: number|null}} [o.stall]  the player's stalls when the request
   *   was made: total stalled ms so far, and when the stall in progress began (null: none). A
   *   stall after the request moves every later fragment deadline by its length.
   */
  constructor({ startedAt, deadlineMs = null, graceMs = null, progressive = false, stall = NO_STALL }) {
    if (!Number.isFinite(startedAt)) throw new TypeError(`startedAt must be a time in ms, got ${startedAt}`);
    if (deadlineMs !== null && !(deadlineMs >= 0)) throw new RangeError(`deadlineMs must be >= 0 or null, got ${deadlineMs}`);
    if (graceMs !== null && !(graceMs >= 0)) throw new RangeError(`graceMs must be >= 0 or null, got ${graceMs}`);
    this.startedAt = startedAt;
    this.deadlineAt = deadlineMs === null ? null : startedAt + deadlineMs;
    this.graceMs = graceMs;
    this.assembler = null;
    this.early = [];
    this.earlyBytes = 0;
    this.end = null;
    this.firstFrameAt = null;
    this.headAt = null;
    this.lastFrameAt = null;
    this.lastDataAt = null;
    this.maxGap = 0;
    this.reliableDoneAt = null;
    this.progressive = Boolean(progressive);
    this.stallAtStart = stall.totalMs;
    this.stall = stall;
    this.stalledMs = 0;
    this.lastReleaseAt = null;
    // Progressive hand-over: fragments and bytes gone to the decoder, bytes waiting to be taken.
    this.released = 0;
    this.releasedBytes = 0;
    this.releaseQueue = [];
    this.lateChunks = 0;
    this.nextReleaseAt = null;
    /** null while open; then {done: response} or {failed: {code, message, status?}} */
    this.outcome = null;
  }

  /** Bytes placed so far (0 until the HEAD is in). */
  get loaded() {
    return this.assembler ? this.assembler.received.reliable + this.assembler.received.unreliable : 0;
  }

  /** The response's size, once the HEAD has said it. */
  get total() {
    return this.assembler ? this.assembler.head.totalBytes : null;
  }

  /** The grace window after END in force now, ms. */
  get graceWindowMs() {
    if (this.graceMs !== null) return this.graceMs;
    return Math.min(MAX_GRACE_MS, Math.max(GRACE_AFTER_END_MS, 2 * this.maxGap));
  }

  /**
   * When the response should be looked at again (tick) if no frame comes first: the earlier
   * of its deadline and the end of END's grace, once only those can end it. null: only a
   * frame can change anything (or it is settled).
   */
  get wakeAt() {
    if (this.outcome || !this.assembler || !this.assembler.reliableComplete) return null;
    const times = [this.fragmented ? this.nextReleaseAt : this.deadlineAt, this.graceEndsAt()].filter((t) => t !== null);
    return times.length ? Math.min(...times) : null;
  }

  graceEndsAt() {
    return this.end ? this.lastFrameAt + this.graceWindowMs : null;
  }

  /** Handed over fragment by fragment: progressive, and the HEAD listed more than one. */
  get fragmented() {
    return this.progressive && Boolean(this.assembler) && Array.isArray(this.assembler.head.fragments) && this.assembler.head.fragments.length > 1;
  }

  /**
   * The bytes released to the decoder since the last call, in order (Uint8Array copies; empty
   * when none). A fragmented response's rest comes with its outcome (done.releasedBytes says
   * where it starts).
   */
  takeReleased() {
    const out = this.releaseQueue;
    this.releaseQueue = [];
    return out;
  }

  /**
   * One decoded frame of this response (frames.decodeFrame's shape).
   * @param {'reliable'|'unreliable'} channel
   * @returns {object|null} the outcome when this frame settled the response, else null
   */
  receive(frame, channel, now, stall = this.stall) {
    if (this.outcome) return null;
    this.noteStall(stall);
    if (this.firstFrameAt === null) this.firstFrameAt = now;
    this.lastFrameAt = now;
    switch (frame.type) {
      case 'HEAD': return this.onHead(frame.payload, now);
      case 'DATA': return this.onData(frame.offset, frame.bytes, channel, now);
      case 'END': return this.onEnd(frame.payload, now);
      case 'ERROR': {
        const p = frame.payload;
        return this.fail('error-frame', String(p.message ?? ''), p.status);
      }
      default: return this.fail('protocol', `a server does not send ${frame.type}`);
    }
  }

  /** Time passed with no frame: a deadline or END's grace may have run out. */
  tick(now, stall = this.stall) {
    if (this.outcome) return null;
    this.noteStall(stall);
    return this.decide(now);
  }

  noteStall(stall) {
    this.stall = stall;
    this.stalledMs = Math.max(0, stall.totalMs - this.stallAtStart);
  }

  onHead(head, now) {
    if (this.assembler) return this.fail('protocol', 'a second HEAD for the same request');
    try {
      this.assembler = new SegmentAssembler(head);
    } catch (err) {
      return this.fail('bad-head', `bad HEAD: ${err.message}`);
    }
    this.headAt = now;
    const early = this.early;
    this.early = [];
    this.earlyBytes = 0;
    for (const [offset, bytes, channel] of early) {
      const failed = this.place(offset, bytes, channel);
      if (failed) return failed;
    }
    return this.decide(now);
  }

  onData(offset, bytes, channel, now) {
    if (this.lastDataAt !== null) this.maxGap = Math.max(this.maxGap, now - this.lastDataAt);
    this.lastDataAt = now;
    // Its fragment has gone to the decoder already: in place for the record, lost for playout.
    if (channel === 'unreliable' && offset < this.releasedBytes && this.assembler && !this.assembler.seen.has(`unreliable:${offset}`)) this.lateChunks += 1;
    if (!this.assembler) {
      // A frame is a view into its message: copy out what is kept past this call.
      this.early.push([offset, bytes.slice(), channel]);
      this.earlyBytes += bytes.length;
      if (this.earlyBytes > MAX_EARLY_BYTES) return this.fail('protocol', `more than ${MAX_EARLY_BYTES} bytes of DATA before the HEAD`);
      return null;
    }
    return this.place(offset, bytes, channel) || this.decide(now);
  }

  onEnd(payload, now) {
    this.end = payload;
    // END follows every reliable frame of its response on the ordered reliable channel, so a
    // reliable byte missing now will never come.
    if (!this.assembler) return this.fail('truncated', 'END before the HEAD');
    if (!this.assembler.reliableComplete) {
      return this.fail('truncated', `END after ${this.assembler.received.reliable} of ${this.assembler.head.reliableBytes} reliable bytes: the response is truncated`);
    }
    return this.decide(now);
  }

  /** @returns {object|null} the failure when the chunk does not fit the response */
  place(offset, bytes, channel) {
    try {
      this.assembler.add(offset, bytes, channel);
    } catch (err) {
      return this.fail('bad-data', err.message);
    }
    return null;
  }

  decide(now) {
    const a = this.assembler;
    if (!a || !a.reliableComplete) return null;
    if (this.reliableDoneAt === null) {
      this.reliableDoneAt = now;
      // Without a deadline the fragments count from now: only stalls from now on move them
      // (a stall before is already in this start time).
      if (this.deadlineAt === null) {
        this.stallAtStart = this.stall.totalMs;
        this.stalledMs = 0;
      }
    }
    if (a.unreliableComplete) return this.finish('complete', now);
    // Fragmented: the fragments due go now; the last one going is this response's deadline.
    let deadlineAt = this.deadlineAt;
    if (this.fragmented) deadlineAt = this.releaseDue(now) ? now : null;
    const passed = [['deadline', deadlineAt], ['end', this.graceEndsAt()]].filter(([, at]) => at !== null && now >= at);
    if (!passed.length) return null;
    passed.sort((x, y) => x[1] - y[1]);
    return this.finish(passed[0][0], now);
  }

  /** Queues the fragments due by `now`; true once every fragment has gone. */
  releaseDue(now) {
    const fragments = this.assembler.head.fragments;
    const due = fragmentsDue({
      fragments, released: this.released, deadlineAt: this.deadlineAt, reliableDoneAt: this.reliableDoneAt, complete: false, now,
      stalledMs: this.stalledMs, stalledSince: this.stall.since, lastReleaseAt: this.lastReleaseAt,
      // A deadline from the buffer level has the margin in already; counted from the reliable
      // part's arrival it has not: each fragment goes that long before it plays.
      marginMs: this.deadlineAt === null ? DEADLINE_MARGIN_MS : 0,
    });
    if (due.release) {
      this.lastReleaseAt = now;
      const end = fragments[this.released + due.release - 1][1];
      this.releaseQueue.push(this.assembler.bytes.slice(this.releasedBytes, end));
      this.released += due.release;
      this.releasedBytes = end;
    }
    this.nextReleaseAt = due.wakeAt;
    return this.released === fragments.length;
  }

  finish(finishedBy, now) {
    const r = this.assembler.finish();
    // Chunks that came after their fragment went are lost for playout (paper 000's PLR).
    if (this.lateChunks) {
      r.lostChunks += this.lateChunks;
      r.plr = r.packets ? r.lostChunks / r.packets : 0; // unreliableLossRatio stays the channel's own
    }
    this.outcome = {
      done: {
        finishedBy,
        head: this.assembler.head,
        end: this.end,
        ...r,
        startedAt: this.startedAt,
        firstFrameAt: this.firstFrameAt,
        headAt: this.headAt,
        lastDataAt: this.lastDataAt,
        reliableDoneAt: this.reliableDoneAt,
        doneAt: now,
        // Fragmented: bytes already handed over (the rest starts here), fragments, late chunks.
        releasedBytes: this.releasedBytes,
        releasedFragments: this.released,
        lateChunks: this.lateChunks,
        stalledMs: this.stalledMs,
        deadlineAt: this.deadlineAt,
        // Reliable data that finished after the deadline: the reliable part alone was too much
        // for the network in time (dynamic BP steps down on it).
        reliableLate: this.deadlineAt !== null && this.reliableDoneAt > this.deadlineAt,
      },
    };
    return this.outcome;
  }

  fail(code, message, status) {
    this.outcome = { failed: { code, message, ...(status === undefined ? {} : { status }) } };
    return this.outcome;
  }
}

module.exports = { ResponseAssembly, playoutDeadlineMs, NO_STALL, GRACE_AFTER_END_MS, MAX_GRACE_MS, DEADLINE_MARGIN_MS, MAX_EARLY_BYTES };
