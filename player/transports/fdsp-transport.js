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
const { FdspClientCore, KEEP_FINISHED } = require('../../shared/fdsp/client-core');
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
   * @param {(url: string) => string|null} [o.nextSegmentUrl]  the segment after this one in the
   *   same representation (the content's index), or null: for substream overlapping (below)
   */
  constructor(o) {
    this.name = o.name;
    this.label = o.label;
    this.protocol = o.protocol;
    this.bufferLevel = o.bufferLevel || (() => 0);
    this.stallState = o.stallState || (() => NO_STALL);
    // The pace for the unreliable part (pace-option.js), sent with every request; undefined: none asked.
    this.paceBps = o.paceBps;
    // The receive window asked of the origin (bytes; null: none, no ACKs sent).
    this.windowBytes = o.windowBytes ?? null;
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
    // The accounting of responses already handed over (the newest few), which chunks that come
    // after them still count into ('late' events): the segment log reads it again.
    this.handedOver = new Map(); // requestId -> accounting
    this.nextSegmentUrl = o.nextSegmentUrl || (() => null);
    // Paper 000's substream overlapping: "the TCP packets for the next substream are sent at the
    // same time as the UDP packets for the current substream". dash.js asks for segment N+1 only
    // once N is handed over, and a fragmented N is handed over as its last fragment plays, so
    // N+1's reliable part came after N had played out: a stall at every segment boundary (every
    // FDSP cell of paper000-fdsp, 2026-11-26). So when N starts to play, this asks for N+1
    // itself (its deadline: N's end), and dash.js's request for it takes that response over.
    this.prefetched = null; // {href, requestId, bp, events: [] (what came before dash.js asked)}
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
    this.prefetched = null; // dash.js's own request for it goes on the next session
    this.handle(this.core.failAll(`${this.label}: ${why}`));
  }

  send(frame) {
    if (this.session) this.session.send(frame);
  }

  /** What the core says happened, to dash.js's callbacks; then the timer it asks for. */
  handle(events) {
    for (const e of events) {
      if (e.kind === 'ack') {
        this.send(e.frame);
        continue;
      }
      if (e.kind === 'late' && this.handedOver.has(e.requestId)) {
        this.handedOver.get(e.requestId).lateChunks += 1;
        continue;
      }
      const req = this.requests.get(e.requestId);
      if (!req) {
        if (this.prefetched && e.requestId === this.prefetched.requestId) this.keepForLater(e);
        continue;
      }
      if (req.pending) {
        req.pending.push(e); // after what came before dash.js asked, in order
        continue;
      }
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
    if (req.firstReleaseAt === null) {
      req.firstReleaseAt = performance.now();
      this.prefetchNext(req);
    }
  }

  /** Segment N began to play: ask for N+1 now, due when N ends (paper 000's substream overlapping). */
  prefetchNext(req) {
    if (this.prefetched || req.request.range || !this.session) return;
    const durationMs = (req.request.durationSeconds || 0) * 1000;
    const next = durationMs > 0 ? this.nextSegmentUrl(req.request.url) : null;
    if (!next) return;
    const url = new URL(next, location.href);
    const now = performance.now();
    const { requestId, frame } = this.request(url, { range: null, deadlineMs: playoutDeadlineMs((req.firstReleaseAt + durationMs - now) / 1000), progressive: true }, now);
    this.prefetched = { href: url.href, requestId, bp: this.bp, events: [] };
    this.send(frame);
  }

  /** A REQUEST with this session's BP, pace and mode: dash.js's, or a prefetch. */
  request(url, { range, deadlineMs, progressive }, now) {
    return this.core.request({ url: url.pathname + url.search, range, bp: this.bp, deadlineMs, progressive, paceBps: this.paceBps, udpOnly: this.mode === 'udp-only', ...(this.windowBytes === null ? {} : { windowBytes: this.windowBytes }) }, now, this.stallState());
  }

  /** An event of the prefetched response before dash.js asked for it: kept, replayed when it does. */
  keepForLater(e) {
    // Stopped at its deadline already: the origin stops now, not when dash.js asks.
    if (e.kind === 'done' && e.cancel) {
      this.send(e.cancel);
      this.prefetched.events.push({ ...e, cancel: null });
    } else this.prefetched.events.push(e);
  }

  /** Not the segment dash.js wants (another rung, a seek): the origin stops sending it. */
  dropPrefetched() {
    const p = this.prefetched;
    this.prefetched = null;
    const cancel = this.core.cancel(p.requestId);
    if (cancel) this.send(cancel);
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
      unreliableChunks: r.unreliableChunks, packets: r.packets, lostChunks: r.lostChunks, plr: r.plr, unreliableLossRatio: r.unreliableLossRatio,
      // Of lostChunks, those that came after all, once the response was handed over (counted
      // on by 'late' events): after END's grace they are the deadline's part, not the network's.
      lateChunks: 0,
      stoppedAtDeadline: r.finishedBy === 'deadline', finishedBy: r.finishedBy,
      // Chunks the origin never sent because their turn came after their deadline (its END
      // says how many): in lostChunks, but the deadline's part, not the network's.
      ...(r.end && Number.isInteger(r.end.unreliableSkipped) ? { originSkipped: r.end.unreliableSkipped } : {}),
      // Asked for before dash.js did (substream overlapping): requestStart is that earlier moment.
      ...(req.prefetched ? { prefetched: true } : {}),
      // Fragmented segments: fragments handed to dash.js on their own deadline, chunks that came
      // after theirs went (lost for playout, in lostChunks too).
      ...(r.head.fragments ? { fragments: r.head.fragments.length, fragmentsOnDeadline: r.releasedFragments, lateAfterFragment: r.lateChunks } : {}),
      ...this.accountingExtras(),
    };
    this.handedOver.set(requestId, accounting);
    // As many as the core remembers finished responses for (their late chunks are counted here).
    if (this.handedOver.size > KEEP_FINISHED) this.handedOver.delete(this.handedOver.keys().next().value);
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
    if (this.prefetched) {
      if (!range && this.prefetched.href === url.href && this.prefetched.bp === this.bp) return this.adopt(request, { onProgress, onComplete, onError });
      this.dropPrefetched();
    }
    let requestId;
    let frame;
    try {
      ({ requestId, frame } = this.request(url, { range, deadlineMs: playoutDeadlineMs(this.bufferLevel()), progressive: request.responseType === 'arraybuffer' }, performance.now()));
    } catch (err) {
      onError(err);
      return { abort: () => {} };
    }
    const req = { requestId, request, path: url.pathname, bp: this.bp, lastProgress: 0, releasedBytes: 0, firstReleaseAt: null, onProgress, onComplete, onError };
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
    return { abort: () => this.abort(requestId) };
  }

  /** dash.js asks for the segment already asked for: that response is this request's, what came of it so far at once. */
  adopt(request, { onProgress, onComplete, onError }) {
    const p = this.prefetched;
    this.prefetched = null;
    const url = new URL(request.url, location.href);
    const req = { requestId: p.requestId, request, path: url.pathname, bp: p.bp, lastProgress: 0, releasedBytes: 0, firstReleaseAt: null, prefetched: true, pending: p.events, onProgress, onComplete, onError };
    this.requests.set(p.requestId, req);
    // After load() has returned, as for any response (dash.js wires its handlers up first);
    // what comes meanwhile waits behind what came before.
    setTimeout(() => {
      const events = req.pending;
      req.pending = null;
      if (this.requests.get(p.requestId) === req) this.handle(events);
    }, 0);
    return { abort: () => this.abort(p.requestId) };
  }

  abort(requestId) {
    if (!this.requests.delete(requestId)) return;
    const cancel = this.core.cancel(requestId);
    if (cancel) this.send(cancel);
    this.timer.arm(this.core.nextWakeAt());
  }
}

module.exports = { FdspTransport, parseBp };
