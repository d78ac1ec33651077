'use strict';
// Feeds one DataChannel from a queue without ever building an unbounded send buffer: frames
// go out while the channel's bufferedAmount is under a high-water mark, and the pump waits for
// the channel's "buffered amount low" event to go on. For the unreliable channel this paces
// the sender to what SCTP's congestion control accepts (issue 5), so chunks are lost on the
// network, not dropped in a local queue.
//
// The channel is anything with send(Uint8Array), bufferedAmount() and onBufferedAmountLow(cb)
// (origin/datachannel/peer-session.js adapts node-datachannel's DataChannel to it).
//
// A pump may also hold a rate (setRate, a token bucket): the unreliable channel paced at what
// the client asks (its top bitrate x a margin), as paper 000's UDP substream was sent. Unpaced,
// the unreliable burst at a session's start overflowed a 100 KB bottleneck queue and SCTP took
// 20 s to recover the reliable channel's losses (README, "Playout per fragment").
//
// A frame may also be held by a receive window (push's `window`, in-flight-window.js, shared by
// a session's pumps): it waits until the client's ACKs let it go.

const PACE_BURST_MS = 10;

class ChannelPump {
  /**
   * @param {object} channel
   * @param {{highWaterBytes?: number, lowWaterBytes?: number, onError?: (err: Error) => void}} [o]
   *   onError: the channel refused a frame (it closed under us); the pump has stopped
   */
  constructor(channel, { highWaterBytes = 256 * 1024, lowWaterBytes = 64 * 1024, onError = null, now = () => performance.now(), timers = { set: setTimeout, clear: clearTimeout } } = {}) {
    this.channel = channel;
    this.high = highWaterBytes;
    this.onError = onError;
    this.now = now;
    this.timers = timers;
    this.rateBps = null;
    this.tokens = 0; // bytes that may go now (paced only)
    this.tokensAt = 0;
    this.wait = null; // the timer that resumes a paced pump
    this.queue = []; // {frame, requestId, onSent, expiresAt, onSkipped, clock} or {marker: () => void, requestId}
    this.closed = false;
    this.pumping = false;
    channel.setBufferedAmountLowThreshold(lowWaterBytes);
    channel.onBufferedAmountLow(() => this.pump());
  }

  /**
   * Queues a frame; onSent runs when it has been handed to the channel. A frame still queued
   * at expiresAt is skipped and onSkipped runs instead; expiresAt is in the time of `clock`
   * (default performance.now(); the responder's is the client's playout time, playout-clock.js).
   * window: the session's InFlightWindow, with dataOffset the DATA frame's offset (its ACK's key).
   */
  push(requestId, frame, onSent, { expiresAt = null, onSkipped = null, clock = null, window = null, dataOffset = 0 } = {}) {
    if (this.closed) return;
    this.queue.push({ requestId, frame, onSent, expiresAt, onSkipped, clock, window, dataOffset });
    this.pump();
  }

  /** Runs fn once everything queued before it has been handed to the channel. */
  mark(requestId, fn) {
    if (this.closed) return;
    this.queue.push({ requestId, marker: fn });
    this.pump();
  }

  /** Drops what is still queued for a request (cancelled, or past its deadline). Returns how many frames. */
  drop(requestId, { keepMarkers = true } = {}) {
    const before = this.queue.length;
    this.queue = this.queue.filter((x) => x.requestId !== requestId || (keepMarkers && x.marker));
    return before - this.queue.length;
  }

  /**
   * Paces what this pump sends to `bps` bits/s from now on (null: unpaced). A burst of
   * PACE_BURST_MS worth (at least two frames) may go at once.
   */
  setRate(bps) {
    if (bps !== null && !(Number.isFinite(bps) && bps > 0)) throw new RangeError(`a pace is a positive number of bits/s or null, got ${bps}`);
    if (bps === this.rateBps) return;
    this.rateBps = bps;
    this.tokens = 0;
    this.tokensAt = this.now();
    this.pump();
  }

  /** Fills the bucket up to now (never smaller than the next frame); returns its size in bytes. */
  refill(frameBytes = 0) {
    const t = this.now();
    const burst = Math.max(2 * 1200, frameBytes, (this.rateBps / 8) * (PACE_BURST_MS / 1000));
    this.tokens = Math.min(burst, this.tokens + ((t - this.tokensAt) * this.rateBps) / 8000);
    this.tokensAt = t;
    return this.tokens;
  }

  queuedFrames(requestId) {
    return this.queue.filter((x) => x.requestId === requestId && !x.marker).length;
  }

  pump() {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    try {
      while (this.queue.length && !this.closed) {
        const next = this.queue[0];
        if (next.marker) {
          this.queue.shift();
          next.marker();
          continue;
        }
        if (next.expiresAt !== null && (next.clock ? next.clock() : performance.now()) > next.expiresAt) {
          this.queue.shift();
          if (next.onSkipped) next.onSkipped();
          continue;
        }
        if (this.channel.bufferedAmount() >= this.high) break; // onBufferedAmountLow resumes
        if (next.window && !next.window.allows(next.frame.length, this.now())) {
          // An ACK resumes it (the responder pumps again), or the window's quiet time.
          const at = next.window.reopensAt();
          if (!this.wait && at !== null) this.wait = this.timers.set(() => { this.wait = null; this.pump(); }, Math.max(1, Math.ceil(at - this.now())));
          break;
        }
        if (this.rateBps !== null && this.refill(next.frame.length) < next.frame.length) {
          // Resume when the bucket holds this frame.
          const ms = Math.max(1, Math.ceil(((next.frame.length - this.tokens) * 8000) / this.rateBps));
          if (!this.wait) this.wait = this.timers.set(() => { this.wait = null; this.pump(); }, ms);
          break;
        }
        if (this.rateBps !== null) this.tokens -= next.frame.length;
        this.queue.shift();
        this.channel.send(next.frame);
        if (next.window) next.window.sent(next.requestId, next.dataOffset, next.frame.length, this.now());
        if (next.onSent) next.onSent();
      }
    } catch (err) {
      // A peer that drops mid-response closes the channel under a running pump: send() then
      // throws, and thrown out of node-datachannel's buffered-amount-low callback it aborted the
      // whole origin (SIGABRT, Napi::Error; the fuzzer's FDSP batch found it). The pump stops and
      // its owner ends the session.
      this.close();
      if (this.onError) this.onError(err);
    } finally {
      this.pumping = false;
    }
  }

  close() {
    this.closed = true;
    this.queue = [];
    if (this.wait) this.timers.clear(this.wait);
    this.wait = null;
  }
}

module.exports = { ChannelPump, PACE_BURST_MS };
