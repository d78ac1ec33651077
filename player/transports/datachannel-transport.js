'use strict';
// FDSP over a WebRTC DataChannel pair (paper 000): the origin sends each media segment's
// critical bytes (container, parameter sets, slice headers, BP % of I-slice data) on a
// reliable ordered channel and the rest on an unordered channel with no retransmissions
// (origin/datachannel/). This side puts each response back together: it completes when every
// reliable byte is in and either every unreliable chunk is in, or the server has sent its
// last chunk (END) and a short grace has passed, or the segment's playout deadline says to
// stop waiting. Missing bytes stay zero in place (shared/fdsp/segment-assembler.js), so the
// container keeps its layout and the decoder conceals the damage.
//
// Same interface as the HTTP transports (transport.js); plus setBp(n) (live BP) and stats().
const frames = require('../../shared/fdsp/frames');
const { SegmentAssembler } = require('../../shared/fdsp/segment-assembler');
const { nextBp, parseAutoBp } = require('./bp-controller');

// END leaves the origin when its last unreliable chunk was handed to the channel, but that
// chunk may still wait in SCTP's send buffer, so END often arrives first. After END the
// response is done when no chunk of it has arrived for a while: while chunks keep coming they
// are not lost yet. "A while" is twice the longest gap between this response's chunks so far
// (SCTP sends in bursts, one per round trip on a long link), at least GRACE_AFTER_END_MS and
// at most MAX_GRACE_MS; the playout deadline cuts it short.
const GRACE_AFTER_END_MS = 60;
const MAX_GRACE_MS = 1500;
// Room kept between "stop waiting" and the moment the segment is needed.
const DEADLINE_MARGIN_MS = 250;
const CONNECT_TIMEOUT_MS = 15000;

class DataChannelTransport {
  /**
   * @param {object} o
   * @param {string} o.signalingUrl      ws://host:port/fdsp (GET /api/info urls.fdsp)
   * @param {number|string} [o.bp]       Bitstream Prioritization, 0-100 (default 100), or
   *                                      "auto" / "auto:MIN-MAX" for dynamic BP (bp-controller.js)
   * @param {() => number} [o.bufferLevel]  seconds of media buffered (for playout deadlines)
   */
  constructor(o) {
    this.name = 'datachannel';
    this.label = 'DataChannel (FDSP)';
    this.signalingUrl = o.signalingUrl;
    this.bufferLevel = o.bufferLevel || (() => 0);
    this.bpHistory = [];
    const auto = typeof o.bp === 'string' ? parseAutoBp(o.bp) : null;
    if (typeof o.bp === 'string' && !auto) throw new RangeError(`BP must be 0-100, "auto" or "auto:MIN-MAX", got "${o.bp}"`);
    this.autoBp = auto;
    this.setBp(auto ? Math.round((auto.minBp + auto.maxBp) / 2) : (o.bp ?? 100));
    this.connecting = null;
    this.pending = new Map();
    this.finished = new Map(); // requestId -> accounting of a finished response (late chunks)
    this.nextId = 1;
    this.totals = {
      requests: 0, reliableBytes: 0, unreliableBytes: 0, packets: 0, unreliableChunks: 0, lostChunks: 0, lateChunks: 0,
      // Late chunks by what ended their response: after the playout deadline they are expected;
      // after END's grace on a clean link they mean the grace was too short.
      lateChunksAfterDeadline: 0, lateChunksAfterEnd: 0,
      duplicates: 0, deadlineStops: 0, errors: 0,
    };
  }

  setBp(bp) {
    const n = Number(bp);
    if (!(n >= 0 && n <= 100)) throw new RangeError(`BP must be 0-100, got ${bp}`);
    this.bp = n;
    this.bpHistory.push([Math.round(performance.now()), n]);
    if (this.bpHistory.length > 1000) this.bpHistory.shift();
  }

  /** Dynamic BP on (within [minBp, maxBp]) or off (the BP stays where it is). */
  setAutoBp(range) {
    this.autoBp = range ? { minBp: range.minBp ?? 0, maxBp: range.maxBp ?? 100 } : null;
  }

  stats() {
    const t = this.totals;
    const total = t.reliableBytes + t.unreliableBytes;
    // PLR over all packets (paper 000); the unreliable channel's own loss beside it.
    return {
      ...t, bp: this.bp, autoBp: this.autoBp, bpHistory: this.bpHistory.slice(), plr: t.packets ? t.lostChunks / t.packets : 0,
      unreliableLossRatio: t.unreliableChunks ? t.lostChunks / t.unreliableChunks : 0, reliableShare: total ? t.reliableBytes / total : null,
    };
  }

  connect() {
    if (!this.connecting) {
      this.connecting = this.open().catch((err) => {
        this.connecting = null; // the next request tries again
        throw err;
      });
    }
    return this.connecting;
  }

  async open() {
    const ws = new WebSocket(this.signalingUrl);
    const pc = new RTCPeerConnection({ iceServers: [] });
    const reliable = pc.createDataChannel('fdsp-reliable', { negotiated: true, id: 0 });
    const unreliable = pc.createDataChannel('fdsp-unreliable', { negotiated: true, id: 1, ordered: false, maxRetransmits: 0 });
    for (const ch of [reliable, unreliable]) ch.binaryType = 'arraybuffer';
    const fail = (why) => {
      this.teardown(why);
    };
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.label}: the DataChannels did not open within ${CONNECT_TIMEOUT_MS / 1000} s (signaling ${this.signalingUrl})`)), CONNECT_TIMEOUT_MS);
      let opened = 0;
      const onOpen = () => {
        opened += 1;
        if (opened === 2) {
          clearTimeout(timer);
          resolve();
        }
      };
      reliable.onopen = onOpen;
      unreliable.onopen = onOpen;
      ws.onerror = () => { clearTimeout(timer); reject(new Error(`${this.label}: cannot reach the signaling endpoint ${this.signalingUrl}`)); };
      ws.onmessage = async (e) => {
        try {
          const msg = JSON.parse(e.data);
          if (msg.type === 'answer') await pc.setRemoteDescription({ type: 'answer', sdp: msg.sdp });
          else if (msg.type === 'candidate' && msg.candidate) await pc.addIceCandidate({ candidate: msg.candidate, sdpMid: msg.mid });
          else if (msg.type === 'error') reject(new Error(`${this.label}: the origin refused the session: ${msg.message}`));
        } catch (err) {
          reject(err);
        }
      };
      pc.onicecandidate = (e) => {
        if (e.candidate && ws.readyState === 1) ws.send(JSON.stringify({ type: 'candidate', candidate: e.candidate.candidate, mid: e.candidate.sdpMid }));
      };
      ws.onopen = async () => {
        try {
          const offer = await pc.createOffer();
          await pc.setLocalDescription(offer);
          ws.send(JSON.stringify({ type: 'offer', sdp: offer.sdp }));
        } catch (err) {
          reject(err);
        }
      };
    });
    ws.onclose = () => fail('signaling closed');
    reliable.onclose = () => fail('reliable channel closed');
    reliable.onmessage = (e) => this.onMessage(e.data, 'reliable');
    unreliable.onmessage = (e) => this.onMessage(e.data, 'unreliable');
    this.session = { ws, pc, reliable, unreliable };
    return this.session;
  }

  teardown(why) {
    const s = this.session;
    this.session = null;
    this.connecting = null;
    for (const [, p] of this.pending) p.fail(new Error(`${this.label}: ${why}`));
    this.pending.clear();
    if (s) {
      try { s.reliable.close(); s.unreliable.close(); s.pc.close(); s.ws.close(); } catch { /* closing anyway */ }
    }
  }

  onMessage(data, channel) {
    let f;
    try {
      f = frames.decodeFrame(data);
    } catch (err) {
      this.totals.errors += 1;
      return;
    }
    const p = this.pending.get(f.requestId);
    if (!p) {
      if (f.type === 'DATA' && channel === 'unreliable' && this.finished.has(f.requestId)) {
        // Too late: the response was already handed over with this chunk zero-filled.
        const a = this.finished.get(f.requestId);
        this.totals.lateChunks += 1;
        if (a.finishedBy === 'deadline') this.totals.lateChunksAfterDeadline += 1;
        else this.totals.lateChunksAfterEnd += 1;
        a.lateChunks += 1;
      }
      return;
    }
    p.onFrame(f, channel);
  }

  load(request, { onProgress = () => {}, onComplete, onError }) {
    const requestId = this.nextId;
    this.nextId = (this.nextId % 0xfffffffe) + 1;
    const accounting = {
      transport: this.name, protocol: 'datachannel', bytes: 0, requestStart: performance.now(), firstByte: null, lastByte: null,
      bp: this.bp, reliableBytes: 0, unreliableBytes: 0, unreliableChunks: 0, lostChunks: 0, lateChunks: 0, plr: 0, stoppedAtDeadline: false,
    };
    // The segment is needed when what is buffered ahead of it has played. With less than the
    // margin buffered the player is stalled or about to be (or starting, or after a seek):
    // the segment is late whatever happens, and paper 000 then moves every later deadline by
    // the rebuffering time, so everything is waited for, up to END. Cutting at once instead
    // handed the decoder segments of zeros (PLR 88 % at 2 % loss) and the buffer never grew.
    const buffered = this.bufferLevel();
    const deadlineMs = buffered * 1000 > DEADLINE_MARGIN_MS ? buffered * 1000 - DEADLINE_MARGIN_MS : null;
    let done = false;
    let assembler = null;
    let early = [];
    let ended = false;
    let graceTimer = null;
    let deadlineTimer = null;
    let deadlinePassed = false;
    let lastArrival = null;
    let maxGap = 0;
    let reliableDoneAt = null;
    const deadlineAt = deadlineMs === null ? null : accounting.requestStart + deadlineMs;
    let lastProgress = 0;
    const url = new URL(request.url, location.href);
    const range = request.range ? [request.range.start, request.range.end ?? 0xffffffff] : null;

    const cleanup = () => {
      done = true;
      clearTimeout(graceTimer);
      clearTimeout(deadlineTimer);
      this.pending.delete(requestId);
    };
    const finish = (why) => {
      if (done || !assembler || !assembler.reliableComplete) return;
      const r = assembler.finish();
      const head = assembler.head;
      cleanup();
      accounting.lastByte = accounting.lastByte ?? performance.now();
      Object.assign(accounting, {
        // Bytes that arrived (what throughput and overhead are about), not the zero-filled size.
        bytes: r.bytesPerChannel.reliable + r.bytesPerChannel.unreliable, reliableBytes: r.bytesPerChannel.reliable, unreliableBytes: r.bytesPerChannel.unreliable,
        unreliableChunks: r.unreliableChunks, packets: r.packets, lostChunks: r.lostChunks, plr: r.plr, unreliableLossRatio: r.unreliableLossRatio, stoppedAtDeadline: why === 'deadline', finishedBy: why,
      });
      const t = this.totals;
      t.requests += 1;
      t.reliableBytes += r.bytesPerChannel.reliable;
      t.unreliableBytes += r.bytesPerChannel.unreliable;
      t.unreliableChunks += r.unreliableChunks;
      t.packets += r.packets;
      t.lostChunks += r.lostChunks;
      t.duplicates += r.duplicates;
      if (why === 'deadline') {
        t.deadlineStops += 1;
        if (this.session) this.session.reliable.send(frames.encodeCancel(requestId));
      }
      // Dynamic BP learns from media segments (the ones with an unreliable part).
      if (this.autoBp && r.unreliableChunks + r.bytesPerChannel.reliable > 0 && head.unreliableBytes > 0) {
        const reliableLate = deadlineAt !== null && reliableDoneAt !== null && reliableDoneAt > deadlineAt;
        const next = nextBp(this.bp, { plr: r.plr, reliableLate }, this.autoBp);
        accounting.bpNext = next.bp;
        accounting.bpReason = next.reason;
        if (next.bp !== this.bp) this.setBp(next.bp);
      }
      this.finished.set(requestId, accounting);
      if (this.finished.size > 64) this.finished.delete(this.finished.keys().next().value);
      const status = head.status;
      onComplete({
        url: request.url, status, statusText: 'OK', headers: { 'content-type': head.contentType || '' },
        data: request.responseType === 'text' ? new TextDecoder().decode(r.bytes) : r.bytes.buffer, accounting,
      });
    };
    const fail = (err) => {
      if (done) return;
      cleanup();
      onError(err);
    };
    const check = () => {
      if (done || !assembler || !assembler.reliableComplete) return;
      if (reliableDoneAt === null) reliableDoneAt = performance.now();
      if (assembler.unreliableComplete) return finish('complete');
      if (deadlinePassed) return finish('deadline');
      if (ended) {
        clearTimeout(graceTimer);
        graceTimer = setTimeout(() => finish('end'), Math.min(MAX_GRACE_MS, Math.max(GRACE_AFTER_END_MS, 2 * maxGap)));
      }
      return undefined;
    };
    const pending = {
      fail,
      onFrame: (f, channel) => {
        const now = performance.now();
        if (accounting.firstByte === null) accounting.firstByte = now;
        if (f.type === 'DATA') {
          if (lastArrival !== null) maxGap = Math.max(maxGap, now - lastArrival);
          lastArrival = now;
        }
        if (f.type === 'HEAD') {
          try {
            assembler = new SegmentAssembler(f.payload);
          } catch (err) {
            return fail(new Error(`${this.label}: bad HEAD for ${url.pathname}: ${err.message}`));
          }
          for (const [off, bytes, ch] of early) assembler.add(off, bytes, ch);
          early = [];
        } else if (f.type === 'DATA') {
          // Frames are views into the message; copy out only what the assembler keeps.
          if (!assembler) early.push([f.offset, f.bytes.slice(), channel]);
          else {
            try {
              assembler.add(f.offset, f.bytes, channel);
            } catch (err) {
              return fail(new Error(`${this.label}: ${url.pathname}: ${err.message}`));
            }
          }
          accounting.lastByte = performance.now();
          const loaded = assembler ? assembler.received.reliable + assembler.received.unreliable : 0;
          // dash.js estimates throughput from progress events; a few per response are enough.
          if (assembler && (loaded - lastProgress > assembler.head.totalBytes / 8 || loaded === assembler.head.totalBytes)) {
            lastProgress = loaded;
            onProgress({ loaded, total: assembler.head.totalBytes, lengthComputable: true });
          }
        } else if (f.type === 'END') {
          ended = true;
        } else if (f.type === 'ERROR') {
          return fail(Object.assign(new Error(`${this.label}: ${url.pathname}: ${f.payload.status} ${f.payload.message}`), { status: f.payload.status }));
        }
        return check();
      },
    };
    this.pending.set(requestId, pending);
    if (deadlineMs !== null) {
      // Past the deadline only reliable bytes are worth waiting for.
      deadlineTimer = setTimeout(() => {
        deadlinePassed = true;
        check();
      }, deadlineMs);
    }
    this.connect().then((s) => {
      if (done) return;
      s.reliable.send(frames.encodeRequest(requestId, { url: url.pathname + url.search, range, bp: this.bp, deadlineMs }));
    }, (err) => fail(err));
    return {
      abort: () => {
        if (done) return;
        cleanup();
        if (this.session) this.session.reliable.send(frames.encodeCancel(requestId));
      },
    };
  }
}

module.exports = { DataChannelTransport, GRACE_AFTER_END_MS };
