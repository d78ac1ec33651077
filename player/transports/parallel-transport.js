'use strict';
// Paper 001's client-driven streaming as a transport: n_c persistent HTTP/1.1 connections, each
// fetching l_d-byte chunks of the responses dash.js asks for from one shared queue in playback
// order, pausing t_gap after each response, with a dynamic chunk timeout and re-requests of late
// chunks on a second stream. The parts: parallel/chunk-scheduler.js (what to fetch, what an
// outcome means: plan, queue, timeout, re-request rule, in-order assembly) and
// parallel/stream-pool.js (the n_c loops over fetch()).
//
// Everything goes through the chunks, the MPD and init segments included (their size is unknown,
// so each starts with one chunk whose Content-Range gives the rest). A response reaches dash.js
// when all its chunks are in; progress events report the bytes that arrived in order, so
// dash.js's throughput samples are in-order throughput.
//
// The streams talk to the origin's HTTP/1.1 pool (urls.http11pool: several ports): stream i
// uses port i mod P. A browser keeps one set of connections per scheme+host+port and gives a
// request any idle one, so a stream with a port of its own (n_c <= P; the pool has 12 by
// default) keeps to one persistent connection, as paper 001's streams do; streams sharing a port
// share its connections (at most 6, hence at least ceil(n_c / 6) ports). Every chunk must have
// come over HTTP/1.1 (Resource Timing's nextHopProtocol), or the response fails.
//
// Same interface as the other transports (transport.js); plus stats() and close().
const { ChunkScheduler } = require('./parallel/chunk-scheduler');
const { StreamPool } = require('./parallel/stream-pool');
const { resourceTimingProtocols, raiseResourceTimingBuffer } = require('./parallel/resource-timing-protocols');
const { poolBaseUrls } = require('../../shared/http11-pool-url');
const defaults = require('./parallel-options');

// Chromium's limit of connections per scheme+host+port ("group") for HTTP/1.1.
const MAX_CONNECTIONS_PER_PORT = 6;
const PROTOCOL = 'http/1.1';

const optionDefaults = () => Object.fromEntries(Object.entries(defaults).map(([k, o]) => [k, o.default]));

class ParallelTransport {
  /**
   * @param {object} o
   * @param {string} o.url               the origin's urls.http11pool (shared/http11-pool-url.js)
   * @param {number} [o.streams]         n_c (10)
   * @param {number} [o.chunkBytes]      l_d (20480)
   * @param {number} [o.gapMs]           t_gap (350)
   * @param {number} [o.timeoutMinMs], [o.timeoutMaxMs]  the dynamic timeout's bounds (1000, 3000)
   * @param {'abort'|'finish'} [o.losingCopy]  what becomes of a re-requested chunk's slower copy
   * @param {typeof fetch} [o.fetch]     default the page's
   * @param {() => number} [o.now]       default performance.now
   * @param {string} [o.pageUrl]         what request URLs are relative to (default location.href)
   * @param {(urls: string[]) => Promise<string[]>} [o.protocolsOf]  the protocols that carried
   *   these URLs' responses (default: Resource Timing; Node has no nextHopProtocol)
   */
  constructor(o) {
    const v = { ...optionDefaults(), ...Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined && x !== null)) };
    this.name = 'parallel';
    this.label = 'Parallel HTTP/1.1 streams';
    if (!(v.timeoutMinMs <= v.timeoutMaxMs)) throw new RangeError(`${this.label}: timeoutMinMs (${v.timeoutMinMs}) must not be above timeoutMaxMs (${v.timeoutMaxMs})`);
    this.baseUrls = poolBaseUrls(v.url);
    const needed = Math.ceil(v.streams / MAX_CONNECTIONS_PER_PORT);
    if (this.baseUrls.length < needed) {
      throw new RangeError(`${this.label}: ${v.streams} streams need ${needed} HTTP/1.1 pool ports (a browser opens at most ${MAX_CONNECTIONS_PER_PORT} connections per port); the origin has ${this.baseUrls.length} (start it with --http11-pool-ports ${needed})`);
    }
    this.streams = v.streams;
    this.chunkBytes = v.chunkBytes;
    this.gapMs = v.gapMs;
    this.timeoutMinMs = v.timeoutMinMs;
    this.timeoutMaxMs = v.timeoutMaxMs;
    this.losingCopy = v.losingCopy;
    this.now = v.now || (() => performance.now());
    this.pageUrl = v.pageUrl || (typeof location !== 'undefined' ? location.href : undefined);
    this.protocolsOf = v.protocolsOf || resourceTimingProtocols;
    raiseResourceTimingBuffer();
    this.scheduler = new ChunkScheduler({ chunkBytes: v.chunkBytes, timeout: { minMs: v.timeoutMinMs, maxMs: v.timeoutMaxMs }, losingCopy: v.losingCopy });
    const fetchImpl = v.fetch || ((url, init) => fetch(url, init));
    this.pool = new StreamPool({
      scheduler: this.scheduler,
      baseUrls: this.baseUrls,
      streams: v.streams,
      gapMs: v.gapMs,
      fetch: fetchImpl,
      now: this.now,
      // no-store: every chunk really crosses the connections being measured.
      requestInit: { cache: 'no-store', mode: 'cors' },
      onEvents: (events) => this.onEvents(events),
    });
    this.requests = new Map(); // responseId -> what load() was given
  }

  /** Streams per pool port (1 each: every stream has a connection of its own). */
  get streamsPerPort() {
    const counts = this.baseUrls.map(() => 0);
    for (let i = 0; i < this.streams; i += 1) counts[i % this.baseUrls.length] += 1;
    return counts;
  }

  load(request, { onProgress = () => {}, onComplete, onError }) {
    let responseId;
    let events;
    let path;
    try {
      const url = new URL(request.url, this.pageUrl);
      path = url.pathname + url.search;
      ({ responseId, events } = this.scheduler.open({ path, range: request.range || null }, this.now()));
    } catch (err) {
      onError(err);
      return { abort: () => {} };
    }
    const req = { request, path, onProgress, onComplete, onError, timer: null };
    this.requests.set(responseId, req);
    if (request.timeoutMs > 0) {
      req.timer = setTimeout(() => {
        if (!this.requests.delete(responseId)) return;
        this.pool.handle(this.scheduler.cancel(responseId));
        onError(new Error(`${this.label}: ${path}: timed out after ${request.timeoutMs} ms`));
      }, request.timeoutMs);
    }
    this.pool.start();
    this.pool.handle(events);
    return {
      abort: () => {
        if (!this.requests.delete(responseId)) return;
        clearTimeout(req.timer);
        this.pool.handle(this.scheduler.cancel(responseId));
      },
    };
  }

  onEvents(events) {
    for (const e of events) {
      const req = this.requests.get(e.responseId);
      if (!req) continue;
      if (e.kind === 'progress') req.onProgress({ loaded: e.loaded, total: e.total, lengthComputable: true });
      else if (e.kind === 'failed') this.settle(e.responseId, req, () => req.onError(Object.assign(new Error(`${this.label}: ${e.error.message}`), e.error.status ? { status: e.error.status } : {})));
      else if (e.kind === 'done') this.finish(e.responseId, req, e.response);
    }
  }

  settle(responseId, req, call) {
    if (!this.requests.delete(responseId)) return;
    clearTimeout(req.timer);
    call();
  }

  async finish(responseId, req, r) {
    let protocols;
    try {
      protocols = await this.protocolsOf(this.baseUrls.map((b) => b + req.path));
    } catch (err) {
      protocols = [];
    }
    const wrong = [...new Set(protocols.filter((p) => p !== PROTOCOL))];
    if (!protocols.length || wrong.length) {
      this.settle(responseId, req, () => req.onError(new Error(`${this.label}: the chunks of ${req.path} came over "${wrong.join('", "') || 'unknown'}", expected ${PROTOCOL}`)));
      return;
    }
    const seconds = (r.doneAt - r.startedAt) / 1000;
    const accounting = {
      transport: this.name,
      protocol: PROTOCOL,
      bytes: r.bytes.length,
      requestStart: r.startedAt,
      firstByte: r.firstByteAt,
      lastByte: r.doneAt,
      chunks: r.chunks,
      requests: r.requests,
      reRequests: r.reRequests,
      timeouts: r.timeouts,
      duplicates: r.duplicates,
      duplicateBytes: r.duplicateBytes,
      failures: r.failures,
      overheadBytes: r.overheadBytes,
      timeoutMs: Math.round(r.timeoutMs),
      inOrderThroughput: seconds > 0 ? (8 * r.bytes.length) / seconds : null,
    };
    this.settle(responseId, req, () => req.onComplete({
      url: req.request.url,
      status: r.status,
      statusText: r.status === 206 ? 'Partial Content' : 'OK',
      headers: { 'content-type': r.contentType || '', 'content-length': String(r.bytes.length) },
      data: req.request.responseType === 'text' ? new TextDecoder().decode(r.bytes) : r.bytes.buffer,
      accounting,
    }));
  }

  /** Totals so far (the QoE JSON's summary.transport). */
  stats() {
    return {
      ...this.scheduler.stats(),
      streams: this.streams,
      chunkBytes: this.chunkBytes,
      gapMs: this.gapMs,
      timeoutMinMs: this.timeoutMinMs,
      timeoutMaxMs: this.timeoutMaxMs,
      losingCopy: this.losingCopy,
      poolPorts: this.baseUrls.length,
      streamsPerPort: this.streamsPerPort,
    };
  }

  /** Ends the stream loops (aborting what is in flight); the page never needs it, Node does. */
  close() {
    for (const [id, req] of this.requests) {
      clearTimeout(req.timer);
      this.requests.delete(id);
    }
    return this.pool.stop();
  }
}

module.exports = { ParallelTransport, MAX_CONNECTIONS_PER_PORT };
