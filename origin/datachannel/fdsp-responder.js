'use strict';
// Answers REQUEST frames of one peer (shared/fdsp/frames.js) from the content directory, the
// FDSP way (paper 000): for a media segment, its priority map splits the bytes by BP into a
// reliable part (HEAD, container, parameter sets, SEI, slice headers, BP % of I-slice data,
// in 16 KB frames) and an unreliable part (the rest, in ~1100-byte chunks). MPDs, init
// segments, ranged requests and anything without a priority map go wholly reliable.
//
// Substream overlapping (paper 000 Fig. 2) falls out of the two independent pumps: the next
// request's reliable frames go out on their channel while this one's unreliable chunks are
// still flowing on theirs. END follows the last unreliable chunk of its request (a marker in
// the unreliable queue), so the client learns when nothing more can come.
const fs = require('node:fs');
const path = require('node:path');
const frames = require('../../shared/fdsp/frames');
const { splitSegment, chunkRanges } = require('../../shared/fdsp/split-segment');
const { resolveSafePath, UnsafePathError } = require('../safe-path');
const { realPathInsideAsync } = require('../real-path-inside');
const { contentTypeFor } = require('../content-types');
const { PlayoutClock } = require('./playout-clock');
const { InFlightWindow } = require('./in-flight-window');
const { machineMonotonicMs } = require('../../shared/machine-monotonic-ms');

const RELIABLE_FRAME_BYTES = 16 * 1024;
const UNRELIABLE_CHUNK_BYTES = 1100;
const MAX_OPEN_REQUESTS = 16;
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Priority maps per content/representation, kept while in use (a few MB at most). */
class PriorityMaps {
  constructor(contentDir, capacity = 8) {
    this.contentDir = contentDir;
    this.capacity = capacity;
    this.cache = new Map();
  }

  /** The priority map of a media segment file, or null when it has none. */
  async lookup(file) {
    const m = /^chunk-(\d+)-\d+\.m4s$/.exec(path.basename(file));
    if (!m) return null;
    const mapFile = path.join(path.dirname(file), `priority-${m[1]}.json`);
    let bySegment = this.cache.get(mapFile);
    if (!bySegment) {
      try {
        const doc = JSON.parse(await fs.promises.readFile(mapFile, 'utf8'));
        bySegment = new Map(doc.segments.map((s) => [s.url, s]));
      } catch {
        return null; // content without an index: sent reliably
      }
      this.cache.set(mapFile, bySegment);
      if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value);
    }
    const seg = bySegment.get(path.basename(file));
    return seg ? { size: seg.size, priority: seg.priority } : null;
  }
}

class FdspResponder {
  /**
   * @param {object} o
   * @param {string} o.contentDir
   * @param {import('./channel-pump').ChannelPump} o.reliable, o.unreliable
   * @param {(entry: object) => void} [o.log]  request log sink
   * @param {string|number} [o.peerId]
   * @param {PriorityMaps} [o.maps]
   * @param {number} [o.chunkBytes]  unreliable chunk payload (default UNRELIABLE_CHUNK_BYTES; a
   *   WebTransport datagram carries one DATA frame, so its limit can make it smaller)
   * @param {string} [o.protocol], o.listener  in the request log (default 'datachannel')
   * @param {() => object} [o.logFields]  more request log fields (the carrier, its congestion control)
   * @param {(requestId: number) => void} [o.onSettled]  a request is no longer open (its session's
   *   idle count starts there: session-idle-timer.js)
   * @param {import('../file-cache').FileCache} [o.cache]  files kept in memory, shared with the
   *   HTTP listeners: with readFile per request, DataChannel players' p99 TTFB under load was
   *   2.6x its clean value while HTTP/1.1's stayed at 1.1x (bench:load)
   * @param {() => number} [o.wallClock]  wall time in ms under the playout clock (default
   *   performance.now(); tests pass a clock they move by hand, so a deadline does not race the
   *   file read on a busy machine)
   */
  constructor(o) {
    this.o = o;
    this.maps = o.maps || new PriorityMaps(o.contentDir);
    this.open = new Map(); // requestId -> state
    // The client's playout time (its STALL frames stop it): chunk deadlines are kept in it.
    this.clock = new PlayoutClock(o.wallClock);
    // The client's receive window over both channels' DATA (its REQUEST windowBytes, its ACKs).
    this.window = new InFlightWindow();
  }

  /** The client's ACK of a DATA frame: the window may open, so both pumps go on. */
  acked(requestId, offset) {
    if (!this.window.acked(requestId, offset, performance.now())) return;
    this.o.reliable.pump();
    this.o.unreliable.pump();
  }

  /** The client began (true) or stopped (false) stalling: later deadlines move by the stall. */
  stalled(isStalled) {
    this.clock.setStalled(isStalled);
  }

  /** Requests being answered now. */
  get openRequests() {
    return this.open.size;
  }

  error(requestId, status, message) {
    this.o.reliable.push(requestId, frames.encodeError(requestId, status, message));
  }

  async handle(requestId, req) {
    if (this.open.has(requestId)) return this.error(requestId, 400, `request id ${requestId} is already in use`);
    if (this.open.size >= MAX_OPEN_REQUESTS) return this.error(requestId, 429, `at most ${MAX_OPEN_REQUESTS} requests may be open at once`);
    // The unreliable pump this response uses from start to end (a second association may take
    // over the session's unreliable part meanwhile: what is queued here drains here).
    const unreliable = this.o.unreliable;
    // The client's pace for the unreliable part, from this request on (null: unpaced).
    if (req.paceBps !== undefined && unreliable.setRate) unreliable.setRate(req.paceBps);
    if (req.windowBytes !== undefined) this.window.setLimit(req.windowBytes);
    // The log's times are the request's arrival, as the HTTP listeners' are (request-log.js).
    const arrived = { time: new Date().toISOString(), mono: machineMonotonicMs() };
    const state = { requestId, url: req.url, bp: req.bp, udpOnly: Boolean(req.udpOnly), unreliable, arrived, cancelled: false, skipped: 0, sent: 0, expiresAt: req.deadlineMs === null ? null : this.clock.now() + req.deadlineMs };
    this.open.set(requestId, state);
    let file;
    try {
      let pathname;
      try {
        ({ pathname } = new URL(req.url, 'http://origin.invalid'));
      } catch {
        // A client's unparsable URL ("http://[") is the client's error, not the origin's.
        throw new UnsafePathError(`not a valid URL: ${JSON.stringify(String(req.url).slice(0, 200))}`, 400);
      }
      if (!pathname.startsWith('/content/')) throw new UnsafePathError(`only /content/ is served over the DataChannel, not ${pathname}`, 404);
      file = await realPathInsideAsync(this.o.contentDir, resolveSafePath(this.o.contentDir, pathname.slice('/content/'.length)));
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat || !stat.isFile()) throw new UnsafePathError('not found', 404);
      if (stat.size > MAX_BODY_BYTES) throw new UnsafePathError(`larger than ${MAX_BODY_BYTES} bytes`, 413);
      let body = await this.readBody(file, stat);
      let plan = null;
      if (req.range) {
        const [first, last] = req.range;
        if (first >= body.length) throw new UnsafePathError(`range starts at ${first}, past the end (${body.length} bytes)`, 416);
        body = body.subarray(first, Math.min(last + 1, body.length));
      } else {
        const seg = await this.maps.lookup(file);
        if (seg && seg.size === body.length) plan = { ...splitSegment(seg.priority, req.bp, { udpOnly: Boolean(req.udpOnly) }), fragments: seg.priority.fragments || null };
      }
      if (state.cancelled) return undefined;
      this.send(state, body, plan, contentTypeFor(file));
    } catch (err) {
      this.settle(requestId);
      const status = err instanceof UnsafePathError ? err.status : 500;
      this.error(requestId, status, status === 500 ? 'internal error' : err.message);
      this.logEntry(state, { status, bytes: 0, path: req.url });
    }
    return undefined;
  }

  /** The file's bytes: the shared in-memory copy when it holds this version, else from disk. */
  async readBody(file, stat) {
    const cached = this.o.cache && this.o.cache.fits(stat) ? await this.o.cache.read(file, stat) : null;
    return cached || fs.promises.readFile(file);
  }

  send(state, body, plan, contentType) {
    const { requestId } = state;
    const reliableRanges = plan ? plan.reliable : [[0, body.length]];
    const chunkBytes = this.o.chunkBytes || UNRELIABLE_CHUNK_BYTES;
    const unreliableChunks = plan ? chunkRanges(plan.unreliable, chunkBytes) : [];
    const reliableBytes = plan ? plan.reliableBytes : body.length;
    // A segment in several movie fragments says where they are and when each plays: the client
    // can hand each to the decoder at its own deadline (paper 000's per-frame playout).
    const fragments = plan && plan.fragments && plan.fragments.length > 1 ? plan.fragments : null;
    state.head = { status: 200, totalBytes: body.length, reliableBytes, unreliableBytes: body.length - reliableBytes, unreliableChunks: unreliableChunks.length, chunkBytes, contentType, ...(fragments ? { fragments } : {}) };
    this.o.reliable.push(requestId, frames.encodeHead(requestId, state.head));
    const { window } = this;
    for (const [s, e] of chunkRanges(reliableRanges, RELIABLE_FRAME_BYTES)) this.o.reliable.push(requestId, frames.encodeData(requestId, s, body.subarray(s, e)), null, { window, dataOffset: s });
    // A chunk whose turn comes after the client's deadline would arrive too late to be used:
    // it is skipped, not sent, and END says how many went.
    // The deadline the client gave is its first frame's: a chunk of a later fragment plays
    // (and expires) that fragment's media time later.
    // Deadlines are in the client's playout time: a stall the client reports moves them all.
    const playoutNow = () => this.clock.now();
    let k = 0;
    for (const [s, e] of unreliableChunks) {
      while (fragments && s >= fragments[k][1]) k += 1;
      const expiresAt = state.expiresAt === null || !fragments ? state.expiresAt : state.expiresAt + fragments[k][2] * 1000;
      const frame = frames.encodeData(requestId, s, body.subarray(s, e));
      state.unreliable.push(requestId, frame, () => { state.sent += 1; }, { expiresAt, clock: playoutNow, onSkipped: () => { state.skipped += 1; }, window, dataOffset: s });
    }
    state.unreliable.mark(requestId, () => {
      if (state.cancelled) return;
      this.o.reliable.push(requestId, frames.encodeEnd(requestId, { unreliableChunks: unreliableChunks.length, unreliableSent: state.sent, unreliableSkipped: state.skipped }));
      this.settle(requestId);
      this.logEntry(state, { status: 200, bytes: body.length });
    });
  }

  /** A request is no longer open: answered in full, failed or cancelled. */
  settle(requestId) {
    this.open.delete(requestId);
    if (this.o.onSettled) this.o.onSettled(requestId);
  }

  cancel(requestId) {
    const state = this.open.get(requestId);
    if (!state) return;
    state.cancelled = true;
    this.o.reliable.drop(requestId, { keepMarkers: false });
    state.unreliable.drop(requestId, { keepMarkers: false });
    this.settle(requestId);
    this.logEntry(state, { status: 200, bytes: state.sent, aborted: true });
  }

  logEntry(state, { status, bytes, aborted = false, path: p }) {
    if (!this.o.log) return;
    this.o.log({
      time: state.arrived.time,
      mono: state.arrived.mono,
      protocol: this.o.protocol || 'datachannel',
      listener: this.o.listener || 'datachannel',
      connectionId: this.o.peerId ?? null,
      streamId: state.requestId,
      method: 'GET',
      path: p || state.url,
      range: null,
      status,
      bytes,
      reliableBytes: state.head ? state.head.reliableBytes : 0,
      unreliableChunks: state.head ? state.head.unreliableChunks : 0,
      unreliableSent: state.sent,
      // Skipped at their deadline (in the client's playout time), and the stall the client had
      // reported by then (its STALL frames): what moved those deadlines.
      unreliableSkipped: state.skipped,
      clientStalledMs: Math.round(this.clock.stalledMsAt()),
      bp: state.bp,
      ...(state.udpOnly ? { udpOnly: true } : {}),
      // The unreliable channel's pace while this was sent (bits/s; null: unpaced).
      paceBps: state.unreliable.rateBps ?? null,
      // The client's receive window while this was sent (bytes; null: none).
      windowBytes: this.window.limit,
      durationMs: Math.round(machineMonotonicMs() - state.arrived.mono),
      aborted,
      ...(this.o.logFields ? this.o.logFields() : {}),
    });
  }

  close() {
    for (const id of [...this.open.keys()]) this.cancel(id);
  }
}

module.exports = { FdspResponder, PriorityMaps, RELIABLE_FRAME_BYTES, UNRELIABLE_CHUNK_BYTES, MAX_OPEN_REQUESTS };
