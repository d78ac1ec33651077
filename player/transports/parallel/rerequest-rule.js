'use strict';
// The parallel transport's re-request rule (paper 001 §IV-B, "priority management"): a chunk
// whose transfer times out is requested again, at the front of the shared queue, so another
// stream fetches it while the first copy carries on; the first copy to arrive wins. A chunk is
// never dropped: it is fetched until a copy arrives (or the response fails with an HTTP error,
// or fails too often).
//
// What becomes of the losing copies is the transport's `losingCopy` option:
//   abort   (default, as the lab's issue asked) every other copy is aborted at once. Over
//           HTTP/1.1 an aborted request closes its connection, so the stream opens a new one,
//           whose congestion window starts again from the initial window.
//   finish  the other copies are received to the end and discarded, so no connection is ever
//           closed by the rule: paper 001 §IV-B says a re-request does "not change the number of
//           used HTTP streams", and its streams are persistent connections.
//
// At most maxCopies (2: the paper's "fetched by two HTTP streams") copies are in flight at once.
// When every copy in flight has timed out and the cap is reached: under abort, the oldest one is
// aborted to make room for a fresh one (so a stalled chunk always has a copy that is not yet
// late); under finish, no copy is added and the chunk waits for the ones in flight (a broken
// one is still replaced, onCopyFailed).
//
// Pure decisions on a chunk's state, which the scheduler (chunk-scheduler.js) keeps and applies:
//   chunk = { done: boolean, queued: boolean, copies: [{id, startedAt, expired}] }
//   copies: the transfers of this chunk in flight; queued: a copy waits in the queue.

const MAX_COPIES = 2;
const LOSING_COPY = ['abort', 'finish'];

/** The copies a chunk can wait on: in flight and not yet late, or one queued. */
function hasFreshCopy(chunk, exceptId) {
  return chunk.queued || chunk.copies.some((c) => c.id !== exceptId && !c.expired);
}

/**
 * A copy's timeout ran out (it stays in flight: it may still arrive first).
 * @param {'abort'|'finish'} [losingCopy]
 * @returns {{requeue: boolean, abort: Array}} requeue: queue a copy at the front; abort: ids of
 *   copies to abort first (the oldest, when the cap would be passed; never under finish)
 */
function onCopyExpired(chunk, copyId, maxCopies = MAX_COPIES, losingCopy = 'abort') {
  if (chunk.done || hasFreshCopy(chunk, copyId)) return { requeue: false, abort: [] };
  const excess = chunk.copies.length + 1 - maxCopies;
  if (excess > 0 && losingCopy === 'finish') return { requeue: false, abort: [] };
  const abort = excess > 0 ? [...chunk.copies].sort((a, b) => a.startedAt - b.startedAt).slice(0, excess).map((c) => c.id) : [];
  return { requeue: true, abort };
}

/**
 * A copy arrived whole.
 * @param {'abort'|'finish'} [losingCopy]
 * @returns {{accept: boolean, abort: Array, finish: Array, dequeue: boolean}} accept: it is the
 *   chunk's data (false: another copy won already, this one is a duplicate to discard); abort
 *   (losingCopy abort) or finish (losingCopy finish): the other copies in flight, to abort now or
 *   to let run and discard when they arrive; dequeue: a copy still queued is no longer needed
 */
function onCopyArrived(chunk, copyId, losingCopy = 'abort') {
  if (chunk.done) return { accept: false, abort: [], finish: [], dequeue: false };
  const others = chunk.copies.filter((c) => c.id !== copyId).map((c) => c.id);
  return { accept: true, abort: losingCopy === 'abort' ? others : [], finish: losingCopy === 'finish' ? others : [], dequeue: chunk.queued };
}

/**
 * A copy failed (the connection broke; not an HTTP error status, which fails the response).
 * @returns {{requeue: boolean}} queue a copy at the front unless a copy that is not late yet
 *   is in flight or queued (a late one alone is not waited on: its expiry has already passed)
 */
function onCopyFailed(chunk, copyId) {
  return { requeue: !chunk.done && !hasFreshCopy(chunk, copyId) };
}

module.exports = { onCopyExpired, onCopyArrived, onCopyFailed, MAX_COPIES, LOSING_COPY };
