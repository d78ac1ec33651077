'use strict';
// A receive window for one FDSP session (the client's REQUEST windowBytes): at most that many
// DATA bytes, both channels together, sent and not yet acknowledged by the client's ACK frames.
//
// Why: on plain loopback nothing between the origin and Chromium limits the rate, and
// Chromium's UDP socket (a 64 KiB receive buffer) dropped datagrams even with the unreliable
// channel paced (README, "The unreliable channel's pace"). The pace bounds the average; only the
// receiver's acknowledgements bound what can land while it is not reading (SCTP's own receive
// window does not: Chromium's SCTP advertises megabytes). Measured (2026-11-26): it did not
// remove those drops, even at 17 KiB; they come in a session's first seconds. Kept as an option
// to show that, and for links where the origin must not outrun the player.
//
// An ACK names the DATA frame that arrived last: that frame and every one sent before it count
// as gone (arrived, or lost: an unreliable chunk never comes back, so waiting for it would close
// the window for good). When no ACK comes for a while (everything in flight lost, or the client
// stopped reading), the window opens again after `quietMs` (twice the acknowledgement delay
// seen, at least MIN_QUIET_MS), doubled at each reopening without an ACK between, as TCP backs
// off its retransmission timer: a receiver that is not reading (Chromium's network process
// stalled at startup, measured on loopback) then gets a window or two more, not one per
// MIN_QUIET_MS; and the window never stops a session for good.
// Pure: the caller gives the time.

const MIN_QUIET_MS = 100;
const MAX_QUIET_MS = 2000;

class InFlightWindow {
  constructor() {
    this.limit = null; // bytes, or null: no window
    this.sentTotal = 0; // DATA bytes sent since the window was set
    this.ackedTotal = 0; // of those, the bytes counted gone
    this.pending = new Map(); // "requestId:offset" -> {total: sentTotal after it, at: ms}
    this.delayMs = null; // smoothed acknowledgement delay
    this.lastProgressAt = 0; // last send that found the window empty, or last ACK that moved it
    this.reopens = 0; // reopenings without an ACK since the last one
  }

  /** Sets (bytes) or removes (null) the window; what is in flight is forgotten either way. */
  setLimit(bytes) {
    if (bytes !== null && !(Number.isInteger(bytes) && bytes > 0)) throw new RangeError(`a window is a whole number of bytes > 0 or null, got ${bytes}`);
    if (bytes === this.limit) return;
    this.limit = bytes;
    this.sentTotal = 0;
    this.ackedTotal = 0;
    this.pending.clear();
  }

  get inFlight() {
    return this.sentTotal - this.ackedTotal;
  }

  /** How long without an ACK before what is in flight counts as gone (ms). */
  get quietMs() {
    const base = this.delayMs === null ? MAX_QUIET_MS / 2 : Math.max(MIN_QUIET_MS, 2 * this.delayMs);
    return Math.min(MAX_QUIET_MS, base * 2 ** this.reopens);
  }

  /**
   * May a frame of `bytes` go now? Always when nothing is in flight (a frame larger than the
   * window still goes, alone), and when the client has been quiet for quietMs.
   */
  allows(bytes, now) {
    if (this.limit === null || this.inFlight === 0 || this.inFlight + bytes <= this.limit) return true;
    if (now - this.lastProgressAt >= this.quietMs) {
      this.forgetInFlight();
      return true;
    }
    return false;
  }

  /** When allows() may turn true without an ACK (ms), or null. */
  reopensAt() {
    return this.limit === null || this.inFlight === 0 ? null : this.lastProgressAt + this.quietMs;
  }

  /** A DATA frame (its request id and offset) of `bytes` went out. */
  sent(requestId, offset, bytes, now) {
    if (this.limit === null) return;
    if (this.inFlight === 0) this.lastProgressAt = now;
    this.sentTotal += bytes;
    this.pending.set(`${requestId}:${offset}`, { total: this.sentTotal, at: now });
  }

  /**
   * The client's ACK: that frame and all sent before it are gone. An ACK for a frame not in
   * flight (already counted, never sent, a peer's garbage) changes nothing.
   * @returns {boolean} whether the window opened
   */
  acked(requestId, offset, now) {
    const hit = this.pending.get(`${requestId}:${offset}`);
    if (!hit || hit.total <= this.ackedTotal) return false;
    const delay = now - hit.at;
    this.delayMs = this.delayMs === null ? delay : 0.875 * this.delayMs + 0.125 * delay;
    this.ackedTotal = hit.total;
    this.lastProgressAt = now;
    this.reopens = 0;
    // The map is in send order: drop what this ACK covered.
    for (const [key, v] of this.pending) {
      if (v.total > this.ackedTotal) break;
      this.pending.delete(key);
    }
    return true;
  }

  forgetInFlight() {
    this.ackedTotal = this.sentTotal;
    this.pending.clear();
    this.reopens += 1;
  }
}

module.exports = { InFlightWindow, MIN_QUIET_MS, MAX_QUIET_MS };
