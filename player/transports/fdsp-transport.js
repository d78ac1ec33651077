'use strict';
// The player's side of FDSP (paper 000) as dash.js sees a transport, whatever carries it:
// the origin sends each media segment's critical bytes (container, parameter sets, slice
// headers, BP % of I-slice data) reliably and the rest unreliably. The responses are put
// back together, accounted and settled by the FDSP client core (shared/fdsp/client-core.js;
// when a response is done: shared/fdsp/response-assembly.js). What is here: the BP (live,
// and dynamic with bp-controller.js), each request's playout deadline from the buffer level,
// the timer the core asks for, and the dash.js loader's callbacks. A segment the origin sends
// in several movie fragments goes to dash.js fragment by fragment, each at its own deadline
// (paper 000's playout; the core's 'data' events), as progress events that carry bytes, which
// dash.js appends at once (docs/platform-notes.md); the response then ends with the rest only.
//
// A carrier is a subclass with one method, openSession({onMessage, onClose}) -> Promise<{send,
// close}>: the DataChannel pair (datachannel-transport.js) and WebTransport
// (webtransport-transport.js). It may add accountingExtras() -> fields for every response.
//
// Same interface as the HTTP transports (transport.js); plus setBp(n) (live BP) and stats().
const { FdspClientCore } = require('../../shared/fdsp/client-core');
const frames = require('../../shared/fdsp/frames');
const { playoutDeadlineMs, NO_STALL } = require('../../shared/fdsp/response-assembly');
const { WakeTimer } = require('../../shared/fdsp/wake-timer');
const bpOption = require('./bp-option');
const { nextBp, parseAutoBp } = require('./bp-controller');

const BP_WHERE = { whole: 'bp (Bitstream Prioritization)', part: 'bp', item: (quoted) => `bp ${quoted}` };

/** The BP option by its one parser (bp-option.js): a number 0-100 or "auto..." text. */
function parseBp(raw) {
  const problems = [];
  const value = bpOption.parse(raw, BP_WHERE, problems);
  if (problems.length) throw new RangeError(problems.join('; '));
  return value;
}

class FdspTransport {
  /**
   * @param {object} o
   * @param {string} o.name, o.label      the transport's id and what messages call it
   * @param {string} o.protocol           what each response's accounting names as its protocol
   * @param {number|string} [o.bp]        Bitstream Prioritization, 0-100 (default 100), or
   *                                      "auto" / "auto:MIN-MAX" for dynamic BP (bp-controller.js)
   * @param {string} [o.mode]           'fdsp' (default) or 'udp-only' (paper 000's baseline)
   * @param {() => number} [o.bufferLevel]  seconds of media buffered (for playout deadlines)
   * @param {() => {totalMs: number, since: number|null}} [o.stallState]  the player's stalls: total
   *   ms so far and the one in progress (a stall moves the later fragment deadlines by its length;
   *   during one, the next fragment goes at once)
   */
  constructor(o) {
    this.name = o.name;
    this.label = o.label;
    this.protocol = o.protocol;
    this.bufferLevel = o.bufferLevel || (() => 0);
    this.stallState = o.stallState || (() => NO_STALL);
    // The carrier's pace for the unreliable part (DataChannel), sent with every request; undefined: none asked.
    this.paceBps = o.paceBps;
    // 'fdsp' or paper 000's 'udp-only' baseline (fdsp-mode-option.js).
    this.mode = o.mode ?? 'fdsp';
    this.bpHistory = [];
    const bp = parseBp(o.bp ?? bpOption.default);
    this.autoBp = typeof bp === 'string' ? parseAutoBp(bp) : null;
    if (this.mode === 'udp-only' && this.autoBp) throw new RangeError(`${o.label}: mode udp-only sends no I-slice data reliably, so a dynamic BP ("${o.bp}") has nothing to move: give a fixed BP or mode fdsp`);
    this.setBp(this.autoBp ? Math.round((this.autoBp.minBp + this.autoBp.maxBp) / 2) : bp);
    this.core = new FdspClientCore();
    this.timer = new WakeTimer(() => this.handle(this.core.tick(performance.now(), this.stallState())));
    this.requests = new Map(); // requestId -> what load() was given
    this.session = null;
    this.connecting = null;
    this.reportedStall = false; // what the current session's origin was last told
  }

  /**
   * The carrier: opens one session and resolves once frames can be sent.
   * @param {{onMessage: (data: Uint8Array|ArrayBuffer, channel: 'reliable'|'unreliable') => void, onClose: (why: string) => void}} handlers
   * @returns {Promise<{send: (frame: Uint8Array) => void, close: () => void}>}
   */
  openSession() {
    throw new Error(`${this.label}: openSession() is the carrier's (a subclass of FdspTransport)`);
  }

  /** Fields the carrier adds to every response's accounting (none here). */
  accountingExtras() {
    return {};
  }

  /**
   * The player began or stopped stalling: the fragment it waits for may be due now, and the
   * origin hears of it (STALL), so its chunk deadlines move with the stall as these do.
   */
  stallChanged() {
    const stalled = this.stallState().since !== null;
    if (this.session && stalled !== this.reportedStall) {
      this.reportedStall = stalled;
      this.send(frames.encodeStall(stalled));
    }
    this.handle(this.core.tick(performance.now(), this.stallState()));
  }

  /** A fixed BP for the next requests (the page's slider; dynamic BP's steps). */
  setBp(bp) {
    const n = parseBp(bp);
    if (typeof n !== 'number') throw new RangeError(`setBp takes a BP of 0-100; dynamic BP is setAutoBp({minBp, maxBp}), got ${JSON.stringify(bp)}`);
    this.bp = n;
    this.bpHistory.push([Math.round(performance.now()), n]);
    if (this.bpHistory.length > 1000) this.bpHistory.shift();
  }

  /** Dynamic BP on (within [minBp, maxBp]) or off (the BP stays where it is). */
  setAutoBp(range) {
    this.autoBp = range ? { minBp: range.minBp ?? 0, maxBp: range.maxBp ?? 100 } : null;
  }

  stats() {
    return { ...this.core.stats(), bp: this.bp, autoBp: this.autoBp, bpHistory: this.bpHistory.slice() };
  }

  connect() {
    if (!this.connecting) {
      let session = null;
      const connecting = this.openSession({
        onMessage: (data, channel) => this.handle(this.core.receive(data, channel, performance.now(), this.stallState())),
        // Only the current session's end tears down (an older one's late close must not).
        onClose: (why) => { if (session && session === this.session) this.teardown(why); },
      }).then((s) => {
        session = s;
        if (this.connecting === connecting) this.session = s;
        else s.close(); // superseded meanwhile
        return s;
      }, (err) => {
        if (this.connecting === connecting) this.connecting = null; // the next request tries again
        throw err;
      });
      this.connecting = connecting;
    }
    return this.connecting;
  }

  /** The session ended: every open request fails, the next one connects again. */
  teardown(why) {
    this.session = null;
    this.connecting = null;
    this.reportedStall = false;
    this.handle(this.core.failAll(`${this.label}: ${why}`));
  }

  send(frame) {
    if (this.session) this.session.send(frame);
  }

  /** What the core says happened, to dash.js's callbacks; then the timer it asks for. */
  handle(events) {
    for (const e of events) {
      const req = this.requests.get(e.requestId);
      if (!req) continue;
      if (e.kind === 'progress') this.progress(req, e);
      else if (e.kind === 'data') this.release(req, e);
      else if (e.kind === 'done') this.complete(req, e);
      else if (e.kind === 'failed') this.fail(req, e.error);
    }
    this.timer.arm(this.core.nextWakeAt());
  }

  progress(req, { loaded, total }) {
    // dash.js estimates throughput from progress events; a few per response are enough.
    if (loaded - req.lastProgress > total / 8 || loaded === total) {
      req.lastProgress = loaded;
      req.onProgress({ loaded, total, lengthComputable: true });
    }
  }

  /** Fragments due now: to dash.js, which appends them (whole moof+mdat pairs, zero-filled). */
  release(req, { bytes }) {
    req.releasedBytes += bytes.length;
    req.onProgress({ data: bytes.buffer, loaded: req.releasedBytes, lengthComputable: false, noTrace: true });
  }

  complete(req, { requestId, response: r, cancel }) {
    this.requests.delete(requestId);
    if (cancel) this.send(cancel);
    const accounting = {
      transport: this.name, protocol: this.protocol, requestStart: r.startedAt, firstByte: r.firstFrameAt, lastByte: r.lastDataAt ?? r.doneAt, bp: req.bp,
      // When the reliable part was in: what playback can start on (paper 000), ms like requestStart.
      reliableDoneAt: r.reliableDoneAt,
      // Bytes that arrived (what throughput and overhead are about), not the zero-filled size.
      bytes: r.bytesPerChannel.reliable + r.bytesPerChannel.unreliable, reliableBytes: r.bytesPerChannel.reliable, unreliableBytes: r.bytesPerChannel.unreliable,
      unreliableChunks: r.unreliableChunks, packets: r.packets, lostChunks: r.lostChunks, lateChunks: 0, plr: r.plr, unreliableLossRatio: r.unreliableLossRatio,
      stoppedAtDeadline: r.finishedBy === 'deadline', finishedBy: r.finishedBy,
      // Fragmented segments: fragments handed to dash.js on their own deadline, chunks that came
      // after theirs went (lost for playout, in lostChunks too).
      ...(r.head.fragments ? { fragments: r.head.fragments.length, fragmentsOnDeadline: r.releasedFragments, lateAfterFragment: r.lateChunks } : {}),
      ...this.accountingExtras(),
    };
    // Dynamic BP learns from media segments (the ones with an unreliable part).
    if (this.autoBp && r.unreliableChunks + r.bytesPerChannel.reliable > 0 && r.head.unreliableBytes > 0) {
      const next = nextBp(this.bp, { plr: r.plr, reliableLate: r.reliableLate }, this.autoBp);
      accounting.bpNext = next.bp;
      accounting.bpReason = next.reason;
      if (next.bp !== this.bp) this.setBp(next.bp);
    }
    req.onComplete({
      url: req.request.url, status: r.head.status, statusText: 'OK', headers: { 'content-type': r.head.contentType || '' },
      data: req.request.responseType === 'text' ? new TextDecoder().decode(r.bytes) : r.bytes.buffer, accounting,
      // What dash.js has not had yet, when fragments went ahead (the whole is `data`, for the record).
      ...(req.releasedBytes ? { appendData: r.bytes.slice(req.releasedBytes).buffer } : {}),
    });
  }

  fail(req, error) {
    this.requests.delete(req.requestId);
    // A closed session's reason already names the transport; an ERROR frame has a status.
    const message = error.code === 'closed' ? error.message : `${this.label}: ${req.path}: ${error.status === undefined ? '' : `${error.status} `}${error.message}`;
    req.onError(Object.assign(new Error(message), error.status === undefined ? {} : { status: error.status }));
  }

  load(request, { onProgress = () => {}, onComplete, onError }) {
    const url = new URL(request.url, location.href);
    const range = request.range ? [request.range.start, request.range.end ?? 0xffffffff] : null;
    let requestId;
    let frame;
    try {
      ({ requestId, frame } = this.core.request({ url: url.pathname + url.search, range, bp: this.bp, deadlineMs: playoutDeadlineMs(this.bufferLevel()), progressive: request.responseType === 'arraybuffer', paceBps: this.paceBps, udpOnly: this.mode === 'udp-only' }, performance.now(), this.stallState()));
    } catch (err) {
      onError(err);
      return { abort: () => {} };
    }
    const req = { requestId, request, path: url.pathname, bp: this.bp, lastProgress: 0, releasedBytes: 0, onProgress, onComplete, onError };
    this.requests.set(requestId, req);
    this.timer.arm(this.core.nextWakeAt());
    this.connect().then((s) => {
      if (this.requests.has(requestId)) s.send(frame);
    }, (err) => {
      if (!this.requests.has(requestId)) return;
      this.core.cancel(requestId);
      this.requests.delete(requestId);
      onError(err);
    });
    return {
      abort: () => {
        if (!this.requests.delete(requestId)) return;
        const cancel = this.core.cancel(requestId);
        if (cancel) this.send(cancel);
        this.timer.arm(this.core.nextWakeAt());
      },
    };
  }
}

module.exports = { FdspTransport, parseBp };
