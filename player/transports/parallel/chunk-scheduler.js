'use strict';
// The parallel transport's bookkeeping (paper 001 §IV), with no network and no clock: which
// chunk a stream fetches next, what a copy's arrival, failure or timeout means, and when a
// response is complete. The stream loops (stream-pool.js) do the fetching and the waiting and
// pass every outcome in here with the time; what comes back are events for them and for the
// transport:
//   {kind: 'work'}                         new chunks are queued: idle streams should take them
//   {kind: 'abort', transferId}            abort this copy's request (another copy won, or a
//                                          fresh copy replaces it, or its response is gone)
//   {kind: 'progress', responseId, loaded, total}  in-order bytes grew (in-order-assembly.js)
//   {kind: 'done', responseId, response}   every chunk is in (response: below)
//   {kind: 'failed', responseId, error}    an HTTP error, a broken Content-Range, or a chunk
//                                          that failed too often
//
// Its parts, one idea each: chunk-plan.js (the ranges), chunk-queue.js (playback order,
// re-requests at the front), timeout-estimator.js (§IV-A), rerequest-rule.js (§IV-B),
// in-order-assembly.js (progress and completion).
const { planChunks, probeChunk, parseContentRange } = require('./chunk-plan');
const { ChunkQueue } = require('./chunk-queue');
const { TimeoutEstimator } = require('./timeout-estimator');
const { onCopyExpired, onCopyArrived, onCopyFailed, MAX_COPIES, LOSING_COPY } = require('./rerequest-rule');
const { InOrderAssembly } = require('./in-order-assembly');

// What one request-response costs on the wire besides its payload: the paper's figure (~600
// bytes of request and response headers). A browser page cannot see the real header sizes of a
// cross-origin response (Resource Timing reports them as a constant), so the lab counts this
// estimate per request, copies that were aborted included.
const OVERHEAD_BYTES_PER_REQUEST = 600;
// A chunk whose copies fail (broken connections, not HTTP errors) more often than this fails
// its response, which dash.js then retries or reports.
const MAX_FAILURES_PER_CHUNK = 5;

const emptyCounts = () => ({ chunks: 0, requests: 0, reRequests: 0, timeouts: 0, duplicates: 0, duplicateBytes: 0, failures: 0 });

class ChunkScheduler {
  /**
   * @param {object} o
   * @param {number} o.chunkBytes            l_d
   * @param {object} [o.timeout]             TimeoutEstimator options ({initialMs, minMs, maxMs, ...})
   * @param {number} [o.maxCopies]           copies of one chunk in flight at once (2)
   * @param {'abort'|'finish'} [o.losingCopy] what becomes of the copies that lose (rerequest-rule.js)
   * @param {number} [o.maxFailuresPerChunk]
   */
  constructor({ chunkBytes, timeout = {}, maxCopies = MAX_COPIES, losingCopy = 'abort', maxFailuresPerChunk = MAX_FAILURES_PER_CHUNK }) {
    if (!(Number.isInteger(chunkBytes) && chunkBytes >= 1)) throw new RangeError(`chunk scheduler: chunkBytes must be a whole number >= 1, got ${chunkBytes}`);
    if (!LOSING_COPY.includes(losingCopy)) throw new RangeError(`chunk scheduler: losingCopy must be ${LOSING_COPY.join(' or ')}, got ${JSON.stringify(losingCopy)}`);
    this.chunkBytes = chunkBytes;
    this.maxCopies = maxCopies;
    this.losingCopy = losingCopy;
    this.maxFailuresPerChunk = maxFailuresPerChunk;
    this.estimator = new TimeoutEstimator(timeout);
    this.queue = new ChunkQueue();
    this.responses = new Map(); // id -> response
    this.transfers = new Map(); // transferId -> copy
    this.nextResponseId = 1;
    this.nextTransferId = 1;
    this.totals = { ...emptyCounts(), responses: 0, payloadBytes: 0 };
  }

  /**
   * A response to fetch. range: {start, end} (end inclusive, null: to the end) or null (all).
   * @returns {{responseId: number, events: object[]}}
   */
  open({ path, range = null }, now) {
    const id = this.nextResponseId++;
    const start = range ? range.start : 0;
    const end = range && range.end !== null && range.end !== undefined ? range.end : null;
    const r = { id, seq: id, path, askedRange: range, startedAt: now, firstByteAt: null, contentType: null, total: null, closed: false, chunks: [], assembly: null, counts: emptyCounts() };
    this.responses.set(id, r);
    if (end === null) {
      // Size unknown: the first chunk alone, its Content-Range gives the rest (chunk-plan.js).
      const c = probeChunk(start, this.chunkBytes);
      r.chunks = [this.chunkState(r, 0, c, true)];
    } else {
      const plan = planChunks(start, end, this.chunkBytes);
      r.chunks = plan.map((c, i) => this.chunkState(r, i, c, false));
      r.assembly = new InOrderAssembly(plan);
    }
    r.counts.chunks = r.chunks.length;
    for (const c of r.chunks) this.enqueue(c, false);
    return { responseId: id, events: [{ kind: 'work' }] };
  }

  chunkState(r, index, { start, end }, probe) {
    return { response: r, seq: r.seq, index, start, end, probe, copies: [], queued: false, done: false, failures: 0 };
  }

  enqueue(c, front) {
    c.queued = true;
    if (front) this.queue.addFront(c);
    else this.queue.add(c);
  }

  /**
   * The next chunk for a stream, or null when nothing is queued.
   * @returns {{transferId: number, responseId: number, path: string, range: {start: number, end: number}, timeoutMs: number}|null}
   */
  take(stream, now) {
    let c;
    do {
      c = this.queue.take();
      if (!c) return null;
      c.queued = false;
    } while (c.done || c.response.closed);
    const timeoutMs = this.estimator.currentMs();
    const copy = { id: this.nextTransferId++, chunk: c, stream, startedAt: now, deadlineAt: now + timeoutMs, timeoutMs, expired: false };
    c.copies.push(copy);
    this.transfers.set(copy.id, copy);
    this.count(c.response, 'requests');
    return { transferId: copy.id, responseId: c.response.id, path: c.response.path, range: { start: c.start, end: c.end }, timeoutMs };
  }

  count(r, key, n = 1) {
    r.counts[key] += n;
    this.totals[key] += n;
  }

  /** Takes a copy out of the books; returns it (null if it was not in flight). */
  forget(transferId) {
    const copy = this.transfers.get(transferId);
    if (!copy) return null;
    this.transfers.delete(transferId);
    const { copies } = copy.chunk;
    copies.splice(copies.indexOf(copy), 1);
    return copy;
  }

  /** Aborts a copy that another one made useless: it is discarded, as a duplicate. */
  discard(transferId, events) {
    const copy = this.forget(transferId);
    if (!copy) return;
    this.count(copy.chunk.response, 'duplicates');
    events.push({ kind: 'abort', transferId });
  }

  /** A copy's response headers came (the response's first byte, for its timing). */
  headers(transferId, now) {
    const copy = this.transfers.get(transferId);
    if (copy && copy.chunk.response.firstByteAt === null) copy.chunk.response.firstByteAt = now;
  }

  /**
   * A copy's response arrived whole.
   * @param {{status: number, contentRange?: string|null, contentType?: string|null, body: Uint8Array}} res
   */
  delivered(transferId, res, now) {
    const events = [];
    const copy = this.transfers.get(transferId);
    if (!copy) return events; // aborted already
    const c = copy.chunk;
    const r = c.response;
    const decision = onCopyArrived(c, transferId, this.losingCopy);
    this.forget(transferId);
    if (!decision.accept) {
      // Another copy won already (and this one was let run, or came in the same turn): what it
      // holds is discarded.
      this.count(r, 'duplicates');
      this.count(r, 'duplicateBytes', res.body.length);
      return events;
    }
    const checked = this.checkResponse(c, res);
    if (checked.error) return this.fail(r, checked.error, events);
    if (!copy.expired) this.estimator.recordTransfer(now - copy.startedAt);
    for (const id of decision.abort) this.discard(id, events);
    // Losing copies let run have no deadline any more: their expiry would be no news, and their
    // penalty would push the timeout up for a copy nobody waits on.
    for (const id of decision.finish) this.transfers.get(id).expired = true;
    if (decision.dequeue) {
      this.queue.remove((item) => item === c);
      c.queued = false;
    }
    c.done = true;
    if (r.contentType === null) r.contentType = res.contentType || null;
    if (r.total === null) r.total = checked.total;
    if (!r.assembly) {
      // The first chunk told the size (or was all of it): plan the rest.
      if (!this.planRest(r, c, checked, events)) {
        this.complete(r, now, events); // an empty resource
        return events;
      }
    }
    const placed = r.assembly.place(c.index, res.body);
    if (placed.advanced) events.push({ kind: 'progress', responseId: r.id, loaded: placed.inOrderBytes, total: r.assembly.total });
    if (r.assembly.complete) this.complete(r, now, events);
    return events;
  }

  /**
   * Is this the chunk asked for? A 206 whose Content-Range is the chunk (its end clipped to
   * the resource's for a first chunk of unknown size), or, for the first chunk of a whole
   * resource, a 200 with all of it (a server that ignores Range) or a 416 of an empty resource.
   * @returns {{total: number, whole?: boolean}|{error: Error}}
   */
  checkResponse(c, res) {
    const r = c.response;
    const where = `${r.path} bytes ${c.start}-${c.end}`;
    const cr = parseContentRange(res.contentRange);
    if (res.status === 206) {
      if (!cr || cr.start === null) return { error: httpError(`${where}: 206 without a usable Content-Range (${JSON.stringify(res.contentRange)})`, 206) };
      const end = c.probe ? Math.min(c.end, cr.total - 1) : c.end;
      if (cr.start !== c.start || cr.end !== end) return { error: httpError(`${where}: the origin sent bytes ${cr.start}-${cr.end}/${cr.total}`, 206) };
      if (res.body.length !== end - c.start + 1) return { error: httpError(`${where}: ${res.body.length} bytes for a ${end - c.start + 1}-byte range`, 206) };
      if (r.total !== null && cr.total !== r.total) return { error: httpError(`${where}: the resource is ${cr.total} bytes now, was ${r.total}`, 206) };
      return { total: cr.total };
    }
    const whole = c.probe && c.start === 0 && !r.askedRange;
    if (res.status === 200 && whole) return { total: res.body.length, whole: true };
    if (res.status === 416 && whole && cr && cr.total === 0) return { total: 0, whole: true };
    return { error: httpError(`${where}: HTTP ${res.status}`, res.status) };
  }

  /**
   * Plans a response of unknown size once its first chunk is in; the new chunks are queued in
   * their playback places. A 200 (Range ignored) brought everything as one chunk.
   * @returns {boolean} false for an empty resource (nothing to assemble)
   */
  planRest(r, first, { total, whole }, events) {
    if (total === 0) return false;
    const plan = whole ? [{ start: 0, end: total - 1 }] : planChunks(first.start, total - 1, this.chunkBytes);
    first.end = plan[0].end;
    r.chunks = [first, ...plan.slice(1).map((c, i) => this.chunkState(r, i + 1, c, false))];
    this.count(r, 'chunks', r.chunks.length - 1);
    for (const c of r.chunks.slice(1)) this.enqueue(c, false);
    r.assembly = new InOrderAssembly(plan);
    if (r.chunks.length > 1) events.push({ kind: 'work' });
    return true;
  }

  complete(r, now, events) {
    r.closed = true;
    this.responses.delete(r.id);
    this.totals.responses += 1;
    const bytes = r.assembly ? r.assembly.bytes : new Uint8Array(0);
    this.totals.payloadBytes += bytes.length;
    events.push({
      kind: 'done',
      responseId: r.id,
      response: {
        status: r.askedRange ? 206 : 200,
        contentType: r.contentType,
        bytes,
        startedAt: r.startedAt,
        firstByteAt: r.firstByteAt ?? now,
        doneAt: now,
        ...r.counts,
        overheadBytes: r.counts.requests * OVERHEAD_BYTES_PER_REQUEST,
        timeoutMs: this.estimator.currentMs(),
      },
    });
  }

  /** A copy failed on the way (network error; the stream pool's abort is not a failure). */
  failed(transferId, error) {
    const events = [];
    const copy = this.forget(transferId);
    if (!copy) return events;
    const c = copy.chunk;
    const r = c.response;
    this.count(r, 'failures');
    // A losing copy let run (losingCopy finish) broke: it was to be discarded anyway.
    if (c.done) return events;
    c.failures += 1;
    if (c.failures > this.maxFailuresPerChunk) {
      return this.fail(r, new Error(`${r.path} bytes ${c.start}-${c.end}: failed ${c.failures} times, last: ${error && error.message ? error.message : error}`), events);
    }
    if (onCopyFailed(c, transferId).requeue) {
      this.enqueue(c, true);
      this.count(r, 'reRequests');
      events.push({ kind: 'work' });
    }
    return events;
  }

  /** Every copy whose timeout has run out by now: §IV-A's expiry and §IV-B's re-request. */
  tick(now) {
    const events = [];
    for (const copy of [...this.transfers.values()]) {
      if (copy.expired || copy.deadlineAt > now || !this.transfers.has(copy.id)) continue;
      copy.expired = true;
      const c = copy.chunk;
      this.estimator.recordExpired(copy.timeoutMs);
      this.count(c.response, 'timeouts');
      const decision = onCopyExpired(c, copy.id, this.maxCopies, this.losingCopy);
      for (const id of decision.abort) this.discard(id, events);
      if (decision.requeue) {
        this.enqueue(c, true);
        this.count(c.response, 'reRequests');
        events.push({ kind: 'work' });
      }
    }
    return events;
  }

  /** When tick() has something to do next (the earliest deadline of a copy not yet late). */
  nextWakeAt() {
    let at = null;
    for (const copy of this.transfers.values()) if (!copy.expired && (at === null || copy.deadlineAt < at)) at = copy.deadlineAt;
    return at;
  }

  /** dash.js aborted the response: its queued chunks go, its copies are aborted. */
  cancel(responseId) {
    const events = [];
    const r = this.responses.get(responseId);
    if (r) this.close(r, events);
    return events;
  }

  close(r, events) {
    r.closed = true;
    this.responses.delete(r.id);
    this.queue.remove((item) => item.response === r);
    for (const c of r.chunks) {
      c.queued = false;
      for (const copy of [...c.copies]) {
        this.forget(copy.id);
        events.push({ kind: 'abort', transferId: copy.id });
      }
    }
  }

  fail(r, error, events) {
    this.close(r, events);
    events.push({ kind: 'failed', responseId: r.id, error });
    return events;
  }

  /** The transport's totals so far (stats()). */
  stats() {
    return { ...this.totals, overheadBytes: this.totals.requests * OVERHEAD_BYTES_PER_REQUEST, timeoutMs: this.estimator.currentMs(), inFlight: this.transfers.size, queued: this.queue.size };
  }
}

function httpError(message, status) {
  return Object.assign(new Error(message), { status });
}

module.exports = { ChunkScheduler, OVERHEAD_BYTES_PER_REQUEST, MAX_FAILURES_PER_CHUNK };
