'use strict';
// Feeds one DataChannel from a queue without ever building an unbounded send buffer: frames
// go out while the channel's bufferedAmount is under a high-water mark, and the pump waits for
// the channel's "buffered amount low" event to go on. For the unreliable channel this paces
// the sender to what SCTP's congestion control accepts (issue 5), so chunks are lost on the
// network, not dropped in a local queue.
//
// The channel is anything with send(Uint8Array), bufferedAmount() and onBufferedAmountLow(cb)
// (origin/datachannel/peer-session.js adapts node-datachannel's DataChannel to it).

class ChannelPump {
  /**
   * @param {object} channel
   * @param {{highWaterBytes?: number, lowWaterBytes?: number, onError?: (err: Error) => void}} [o]
   *   onError: the channel refused a frame (it closed under us); the pump has stopped
   */
  constructor(channel, { highWaterBytes = 256 * 1024, lowWaterBytes = 64 * 1024, onError = null } = {}) {
    this.channel = channel;
    this.high = highWaterBytes;
    this.onError = onError;
    this.queue = []; // {frame, requestId, onSent, expiresAt, onSkipped} or {marker: () => void, requestId}
    this.closed = false;
    this.pumping = false;
    channel.setBufferedAmountLowThreshold(lowWaterBytes);
    channel.onBufferedAmountLow(() => this.pump());
  }

  /**
   * Queues a frame; onSent runs when it has been handed to the channel. A frame still queued
   * at expiresAt (performance.now() ms) is skipped and onSkipped runs instead.
   */
  push(requestId, frame, onSent, { expiresAt = null, onSkipped = null } = {}) {
    if (this.closed) return;
    this.queue.push({ requestId, frame, onSent, expiresAt, onSkipped });
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
        if (next.expiresAt !== null && performance.now() > next.expiresAt) {
          this.queue.shift();
          if (next.onSkipped) next.onSkipped();
          continue;
        }
        if (this.channel.bufferedAmount() >= this.high) break; // onBufferedAmountLow resumes
        this.queue.shift();
        this.channel.send(next.frame);
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
  }
}

module.exports = { ChannelPump };
