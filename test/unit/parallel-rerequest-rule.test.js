'use strict';
// Paper 001 §IV-B's re-request rule on a chunk's state: a timed-out chunk is queued again at
// the front while its first copy carries on; the first copy to arrive wins and the others are
// aborted; at most two copies in flight; a chunk is never dropped.
const { onCopyExpired, onCopyArrived, onCopyFailed, MAX_COPIES, LOSING_COPY } = require('../../player/transports/parallel/rerequest-rule');

const state = (copies, over = {}) => ({ done: false, queued: false, copies, ...over });
const copy = (id, startedAt, expired = false) => ({ id, startedAt, expired });

test('the first timeout queues a second copy; the first one is not aborted', () => {
  expect(MAX_COPIES).toBe(2);
  expect(onCopyExpired(state([copy(1, 0, true)]), 1)).toEqual({ requeue: true, abort: [] });
});

test('no new copy while one that is not late is in flight or queued, or the chunk is in', () => {
  expect(onCopyExpired(state([copy(1, 0, true), copy(2, 1500)]), 1)).toEqual({ requeue: false, abort: [] });
  expect(onCopyExpired(state([copy(1, 0, true)], { queued: true }), 1)).toEqual({ requeue: false, abort: [] });
  expect(onCopyExpired(state([copy(1, 0, true)], { done: true }), 1)).toEqual({ requeue: false, abort: [] });
});

test('both copies late: the oldest is aborted to make room for a fresh one (never more than two)', () => {
  expect(onCopyExpired(state([copy(7, 0, true), copy(9, 2000, true)]), 9)).toEqual({ requeue: true, abort: [7] });
  expect(onCopyExpired(state([copy(9, 2000, true), copy(7, 0, true)]), 9)).toEqual({ requeue: true, abort: [7] });
  // A cap of 3 keeps both.
  expect(onCopyExpired(state([copy(7, 0, true), copy(9, 2000, true)]), 9, 3)).toEqual({ requeue: true, abort: [] });
});

test('the first copy to arrive wins and the others go; a later one is a duplicate', () => {
  expect(onCopyArrived(state([copy(1, 0, true), copy(2, 1000)]), 2)).toEqual({ accept: true, abort: [1], finish: [], dequeue: false });
  expect(onCopyArrived(state([copy(1, 0, true)], { queued: true }), 1)).toEqual({ accept: true, abort: [], finish: [], dequeue: true });
  expect(onCopyArrived(state([copy(2, 1000)], { done: true }), 2)).toEqual({ accept: false, abort: [], finish: [], dequeue: false });
});

test('losingCopy finish: the others are let run (never aborted), and no third copy is added when both are late', () => {
  expect(LOSING_COPY).toEqual(['abort', 'finish']);
  expect(onCopyArrived(state([copy(1, 0, true), copy(2, 1000)]), 2, 'finish')).toEqual({ accept: true, abort: [], finish: [1], dequeue: false });
  expect(onCopyArrived(state([copy(2, 1000)], { done: true }), 2, 'finish')).toEqual({ accept: false, abort: [], finish: [], dequeue: false });
  expect(onCopyExpired(state([copy(1, 0, true)]), 1, MAX_COPIES, 'finish')).toEqual({ requeue: true, abort: [] });
  expect(onCopyExpired(state([copy(7, 0, true), copy(9, 2000, true)]), 9, MAX_COPIES, 'finish')).toEqual({ requeue: false, abort: [] });
});

test('a broken copy is replaced unless a copy that is not late can still come', () => {
  expect(onCopyFailed(state([copy(1, 0)]), 1)).toEqual({ requeue: true });
  expect(onCopyFailed(state([copy(1, 0), copy(2, 100)]), 1)).toEqual({ requeue: false });
  // The other copy is late (its expiry is past): it is not waited on.
  expect(onCopyFailed(state([copy(1, 0, true), copy(2, 100)]), 2)).toEqual({ requeue: true });
  expect(onCopyFailed(state([copy(1, 0)], { queued: true }), 1)).toEqual({ requeue: false });
  expect(onCopyFailed(state([copy(1, 0)], { done: true }), 1)).toEqual({ requeue: false });
});
