'use strict';
// The parallel transport's n_c request-response streams (paper 001 §IV): each stream is a loop
// that takes the next chunk from the scheduler's shared queue, fetches it with one HTTP Range
// request, hands the outcome back, waits t_gap, and takes the next. A stream with nothing to take
// waits until there is work. One timer, at the scheduler's next copy deadline, drives the
// timeouts. Everything that decides is in chunk-scheduler.js; this file only waits and fetches.
//
// fetch and the timers are passed in, so the player (window.fetch) and Node (its own fetch, in
// test/integration/parallel-transport-origin.test.js) run the same loop. Stream i talks to
// baseUrls[i % baseUrls.length]: the origin's HTTP/1.1 pool ports, so that a browser, which opens
// at most 6 connections per scheme+host+port, really has n_c connections.

class StreamPool {
  /**
   * @param {object} o
   * @param {import('./chunk-scheduler').ChunkScheduler} o.scheduler
   * @param {string[]} o.baseUrls      scheme://host:port of each pool port
   * @param {number} o.streams         n_c
   * @param {number} o.gapMs           t_gap: a stream's pause after each response
   * @param {typeof fetch} o.fetch
   * @param {() => number} o.now       ms
   * @param {object} [o.requestInit]   more fetch() options (the browser's cache: 'no-store', mode: 'cors')
   * @param {(events: object[]) => void} o.onEvents   the scheduler's progress / done / failed events
   * @param {(t: {stream: number, url: string}) => void} [o.onRequest]  each request as it starts
   * @param {Function} [o.setTimer], [o.clearTimer]
   */
  constructor(o) {
    if (!(Array.isArray(o.baseUrls) && o.baseUrls.length)) throw new RangeError('stream pool: baseUrls must list at least one base URL');
    if (!(Number.isInteger(o.streams) && o.streams >= 1)) throw new RangeError(`stream pool: streams must be a whole number >= 1, got ${o.streams}`);
    if (!(o.gapMs >= 0)) throw new RangeError(`stream pool: gapMs must be >= 0, got ${o.gapMs}`);
    this.scheduler = o.scheduler;
    this.fetch = o.fetch;
    this.now = o.now;
    this.gapMs = o.gapMs;
    this.requestInit = o.requestInit || {};
    this.onEvents = o.onEvents;
    this.onRequest = o.onRequest || (() => {});
    this.setTimer = o.setTimer || ((f, ms) => setTimeout(f, ms));
    this.clearTimer = o.clearTimer || ((t) => clearTimeout(t));
    this.streams = Array.from({ length: o.streams }, (_, id) => ({ id, base: o.baseUrls[id % o.baseUrls.length].replace(/\/+$/, '') }));
    this.inFlight = new Map(); // transferId -> AbortController
    this.waiting = new Set(); // resolvers of idle streams and of gaps
    this.timer = null;
    this.timerAt = null;
    this.loops = null;
    this.stopped = false;
  }

  /** Starts the stream loops (once). */
  start() {
    if (!this.loops) this.loops = this.streams.map((s) => this.loop(s));
  }

  /** Scheduler events: aborts and wake-ups here, the rest to the transport. */
  handle(events) {
    const forward = [];
    for (const e of events) {
      if (e.kind === 'abort') {
        const c = this.inFlight.get(e.transferId);
        if (c) c.abort();
      } else if (e.kind === 'work') this.wake();
      else forward.push(e);
    }
    if (forward.length) this.onEvents(forward);
    this.arm();
  }

  async loop(stream) {
    while (!this.stopped) {
      const t = this.scheduler.take(stream.id, this.now());
      if (!t) {
        await this.pause(null);
        continue;
      }
      this.arm();
      await this.transfer(stream, t);
      // t_gap after every response, whatever became of it.
      if (!this.stopped && this.gapMs > 0) await this.pause(this.gapMs);
    }
  }

  async transfer(stream, t) {
    const controller = new AbortController();
    this.inFlight.set(t.transferId, controller);
    const url = stream.base + t.path;
    this.onRequest({ stream: stream.id, url });
    let events;
    try {
      const res = await this.fetch(url, { ...this.requestInit, headers: { Range: `bytes=${t.range.start}-${t.range.end}` }, signal: controller.signal });
      this.scheduler.headers(t.transferId, this.now());
      const body = new Uint8Array(await res.arrayBuffer());
      events = this.scheduler.delivered(t.transferId, { status: res.status, contentRange: res.headers.get('content-range'), contentType: res.headers.get('content-type'), body, url }, this.now());
    } catch (err) {
      // Our own abort (another copy won, the response was cancelled) is no failure: the
      // scheduler has already let the copy go.
      events = controller.signal.aborted ? [] : this.scheduler.failed(t.transferId, err, this.now());
    } finally {
      this.inFlight.delete(t.transferId);
    }
    this.handle(events);
  }

  /** Waits ms (a gap), or until wake() when ms is null (nothing to do). */
  pause(ms) {
    return new Promise((resolve) => {
      let timer = null;
      const done = () => {
        this.waiting.delete(entry);
        if (timer !== null) this.clearTimer(timer);
        resolve();
      };
      const entry = { idle: ms === null, done };
      this.waiting.add(entry);
      if (ms !== null) timer = this.setTimer(done, ms);
    });
  }

  wake() {
    for (const w of [...this.waiting]) if (w.idle) w.done();
  }

  /** One timer, at the earliest deadline of a copy in flight. */
  arm() {
    const at = this.stopped ? null : this.scheduler.nextWakeAt();
    if (at === this.timerAt) return;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.timerAt = at;
    if (at === null) return;
    this.timer = this.setTimer(() => {
      this.timer = null;
      this.timerAt = null;
      this.handle(this.scheduler.tick(this.now()));
    }, Math.max(0, at - this.now()));
  }

  /** Ends every loop: aborts what is in flight; resolves once all loops have returned. */
  async stop() {
    this.stopped = true;
    for (const c of this.inFlight.values()) c.abort();
    for (const w of [...this.waiting]) w.done();
    this.arm();
    if (this.loops) await Promise.all(this.loops);
  }
}

module.exports = { StreamPool };
