'use strict';
// The parallel transport's bookkeeping on scripted timelines (no network, no clock): which chunk
// each stream gets, timeouts and re-requests (paper 001 §IV-A/B), the faster copy winning, in-order
// progress, the size learnt from the first chunk, errors and cancellation.
const { ChunkScheduler, OVERHEAD_BYTES_PER_REQUEST } = require('../../player/transports/parallel/chunk-scheduler');

const RESOURCE = Uint8Array.from({ length: 100000 }, (_, i) => (i * 7) & 0xff);

/** The origin's answer to a Range request for [start, end] of RESOURCE (end clipped, as HTTP does). */
function answer(t, resource = RESOURCE) {
  const end = Math.min(t.range.end, resource.length - 1);
  return { status: 206, contentRange: `bytes ${t.range.start}-${end}/${resource.length}`, contentType: 'video/mp4', body: resource.slice(t.range.start, end + 1) };
}
const kinds = (events) => events.map((e) => e.kind);
const done = (events) => events.find((e) => e.kind === 'done');

test('a known range: every stream takes the next chunk in order, progress is in order, the bytes are exact', () => {
  const s = new ChunkScheduler({ chunkBytes: 20480 });
  const { responseId, events } = s.open({ path: '/seg', range: { start: 0, end: 99999 } }, 0);
  expect(kinds(events)).toEqual(['work']);
  const taken = [0, 1, 2, 3, 4].map((stream) => s.take(stream, 10));
  expect(taken.map((t) => [t.range.start, t.range.end, t.timeoutMs])).toEqual([
    [0, 20479, 2000], [20480, 40959, 2000], [40960, 61439, 2000], [61440, 81919, 2000], [81920, 99999, 2000],
  ]);
  expect(s.take(5, 10)).toBeNull();
  expect(s.nextWakeAt()).toBe(2010);
  // Chunk 2 first: no in-order progress yet; then 0 (0-20479 in order); then 1 (to 61439).
  expect(s.delivered(taken[2].transferId, answer(taken[2]), 100)).toEqual([]);
  expect(s.delivered(taken[0].transferId, answer(taken[0]), 120)).toEqual([{ kind: 'progress', responseId, loaded: 20480, total: 100000 }]);
  expect(s.delivered(taken[1].transferId, answer(taken[1]), 130)).toEqual([{ kind: 'progress', responseId, loaded: 61440, total: 100000 }]);
  s.delivered(taken[4].transferId, answer(taken[4]), 140);
  const last = s.delivered(taken[3].transferId, answer(taken[3]), 150);
  expect(kinds(last)).toEqual(['progress', 'done']);
  const r = done(last).response;
  expect(Buffer.from(r.bytes).equals(Buffer.from(RESOURCE))).toBe(true);
  expect(r).toMatchObject({ status: 206, contentType: 'video/mp4', startedAt: 0, doneAt: 150, chunks: 5, requests: 5, reRequests: 0, timeouts: 0, duplicates: 0, overheadBytes: 5 * OVERHEAD_BYTES_PER_REQUEST });
  // Transfers of 90-140 ms: the timeout falls to its lower bound.
  expect(s.take(0, 200)).toBeNull();
  expect(s.estimator.currentMs()).toBe(1000);
  expect(s.nextWakeAt()).toBeNull();
  expect(s.stats()).toMatchObject({ responses: 1, payloadBytes: 100000, requests: 5, inFlight: 0, queued: 0 });
});

test('size unknown: the first chunk alone, its Content-Range plans the rest', () => {
  const s = new ChunkScheduler({ chunkBytes: 40000 });
  const { responseId } = s.open({ path: '/seg' }, 0);
  const probe = s.take(0, 0);
  expect(probe.range).toEqual({ start: 0, end: 39999 });
  expect(s.take(1, 0)).toBeNull(); // nothing else is known yet
  const ev = s.delivered(probe.transferId, answer(probe), 50);
  expect(ev).toEqual([{ kind: 'work' }, { kind: 'progress', responseId, loaded: 40000, total: 100000 }]);
  const rest = [s.take(1, 50), s.take(2, 50)];
  expect(rest.map((t) => t.range)).toEqual([{ start: 40000, end: 79999 }, { start: 80000, end: 99999 }]);
  s.delivered(rest[1].transferId, answer(rest[1]), 90);
  const r = done(s.delivered(rest[0].transferId, answer(rest[0]), 100)).response;
  expect(r.status).toBe(200);
  expect(r.chunks).toBe(3);
  expect(Buffer.from(r.bytes).equals(Buffer.from(RESOURCE))).toBe(true);
});

test('size unknown and shorter than a chunk (an MPD); a server ignoring Range; an empty file', () => {
  const small = RESOURCE.slice(0, 700);
  const s = new ChunkScheduler({ chunkBytes: 20480 });
  s.open({ path: '/manifest.mpd' }, 0);
  const t = s.take(0, 0);
  expect(kinds(s.delivered(t.transferId, answer(t, small), 5))).toEqual(['progress', 'done']);
  // 200 with everything: one chunk, done.
  s.open({ path: '/whole' }, 10);
  const w = s.take(0, 10);
  const whole = s.delivered(w.transferId, { status: 200, contentRange: null, body: RESOURCE.slice() }, 20);
  expect(done(whole).response.bytes.length).toBe(100000);
  expect(s.take(1, 20)).toBeNull();
  // 416 with "bytes */0": an empty response.
  s.open({ path: '/empty' }, 30);
  const e = s.take(0, 30);
  expect(done(s.delivered(e.transferId, { status: 416, contentRange: 'bytes */0', body: new Uint8Array(0) }, 31)).response.bytes.length).toBe(0);
});

test('a stalled chunk times out, is fetched again at the front of the queue on another stream, the faster copy wins and the slow one is aborted', () => {
  const s = new ChunkScheduler({ chunkBytes: 20480 });
  const { responseId } = s.open({ path: '/seg', range: { start: 0, end: 99999 } }, 0);
  const [c0, c1] = [s.take(0, 0), s.take(1, 0)];
  s.delivered(c1.transferId, answer(c1), 300);
  // Stream 1 goes on with chunk 2 after its gap (350 ms); chunk 0 is still out.
  const c2 = s.take(1, 650);
  expect(c2.range.start).toBe(40960);
  expect(c2.timeoutMs).toBe(1000); // (300 ms x 1.3) under the lower bound
  expect(s.nextWakeAt()).toBe(1650);
  s.delivered(c2.transferId, answer(c2), 1100);
  expect(s.nextWakeAt()).toBe(2000);
  expect(s.tick(1999)).toEqual([]);
  // t = 2000: chunk 0's copy (timeout 2000 ms) has expired: a new copy goes to the front...
  expect(s.tick(2000)).toEqual([{ kind: 'work' }]);
  // ...ahead of chunks 3 and 4, which were queued first.
  const again = s.take(2, 2000);
  expect(again.range).toEqual({ start: 0, end: 20479 });
  // The expiry entered the mean as 1.5 x 2000 = 3000 ms: (300 + 450 + 3000) / 3 x 1.3 = 1625.
  expect(again.timeoutMs).toBeCloseTo(((300 + 450 + 3000) / 3) * 1.3, 9);
  const [c3, c4] = [s.take(3, 2000), s.take(4, 2000)];
  expect([c3.range.start, c4.range.start]).toEqual([61440, 81920]);
  // The second copy arrives first: it wins, the first is aborted (discarded as a duplicate).
  const won = s.delivered(again.transferId, answer(again), 2150);
  expect(won).toEqual([{ kind: 'abort', transferId: c0.transferId }, { kind: 'progress', responseId, loaded: 61440, total: 100000 }]);
  // The aborted copy's late answer changes nothing.
  expect(s.delivered(c0.transferId, answer(c0), 2200)).toEqual([]);
  s.delivered(c4.transferId, answer(c4), 2300);
  const r = done(s.delivered(c3.transferId, answer(c3), 2400)).response;
  expect(r).toMatchObject({ chunks: 5, requests: 6, reRequests: 1, timeouts: 1, duplicates: 1 });
  expect(Buffer.from(r.bytes).equals(Buffer.from(RESOURCE))).toBe(true);
});

test('the late first copy may still win: then the re-request is aborted, or dropped from the queue', () => {
  const s = new ChunkScheduler({ chunkBytes: 50000 });
  s.open({ path: '/seg', range: { start: 0, end: 99999 } }, 0);
  const a = s.take(0, 0);
  const b = s.take(1, 0);
  s.tick(2000); // both expire; both re-queued at the front
  expect(s.stats()).toMatchObject({ timeouts: 2, reRequests: 2, queued: 2 });
  const a2 = s.take(2, 2000); // a's second copy
  expect(a2.range.start).toBe(0);
  // a's first copy arrives now: the second copy is aborted.
  expect(kinds(s.delivered(a.transferId, answer(a), 2100))).toEqual(['abort', 'progress']);
  // b's first copy arrives while its second is still queued: the queued one is dropped.
  expect(kinds(s.delivered(b.transferId, answer(b), 2200))).toEqual(['progress', 'done']);
  expect(s.take(3, 2200)).toBeNull();
  // An expired copy that wins is not counted again in the timeout mean (only its 1.5 x penalty is).
  expect(s.estimator.samples).toEqual([3000, 3000]);
});

test('never more than two copies: when both are late, the oldest is aborted for a fresh one', () => {
  const s = new ChunkScheduler({ chunkBytes: 20480, timeout: { minMs: 1000, maxMs: 3000 } });
  s.open({ path: '/seg', range: { start: 0, end: 999 } }, 0);
  const first = s.take(0, 0); // timeout 2000
  s.tick(2000);
  const second = s.take(1, 2000); // timeout 3000 (the 3000 ms penalty sample x 1.3, clamped)
  expect(second.timeoutMs).toBe(3000);
  expect(s.tick(4999)).toEqual([]);
  // t = 5000: the second copy is late too; two are in flight: the first (oldest) goes.
  expect(s.tick(5000)).toEqual([{ kind: 'abort', transferId: first.transferId }, { kind: 'work' }]);
  const third = s.take(2, 5000);
  expect(third.range.start).toBe(0);
  expect(s.transfers.size).toBe(2);
  const r = done(s.delivered(second.transferId, answer(second), 5100)).response;
  expect(r).toMatchObject({ requests: 3, reRequests: 2, timeouts: 2, duplicates: 2 });
});

test('losingCopy finish: the slow copy is not aborted but received and discarded, and no longer times out', () => {
  const s = new ChunkScheduler({ chunkBytes: 20480, losingCopy: 'finish' });
  const { responseId } = s.open({ path: '/seg', range: { start: 0, end: 40959 } }, 0);
  const [c0, c1] = [s.take(0, 0), s.take(1, 0)];
  s.delivered(c1.transferId, answer(c1), 300);
  expect(s.tick(2000)).toEqual([{ kind: 'work' }]);
  const again = s.take(2, 2000);
  expect(again.timeoutMs).toBeCloseTo(((300 + 3000) / 2) * 1.3, 9);
  // The second copy wins: the response is done and no abort event goes out for the first copy...
  const won = s.delivered(again.transferId, answer(again), 2150);
  expect(kinds(won)).toEqual(['progress', 'done']);
  expect(done(won).response).toMatchObject({ requests: 3, reRequests: 1, timeouts: 1, duplicates: 0 });
  // ...which is still in flight, with no deadline: its expiry would add a penalty to the mean.
  expect(s.stats()).toMatchObject({ inFlight: 1, queued: 0 });
  expect(s.nextWakeAt()).toBeNull();
  expect(s.tick(10000)).toEqual([]);
  expect(s.estimator.samples).toEqual([300, 3000, 150]); // the winner's 150 ms, and nothing of the loser
  // When it arrives it is discarded as a duplicate, its bytes counted.
  expect(s.delivered(c0.transferId, answer(c0), 8000)).toEqual([]);
  expect(s.stats()).toMatchObject({ inFlight: 0, duplicates: 1, duplicateBytes: 20480, failures: 0 });
});

test('losingCopy finish: both copies late, no third copy and nothing aborted; a broken copy is still replaced', () => {
  const s = new ChunkScheduler({ chunkBytes: 20480, losingCopy: 'finish' });
  s.open({ path: '/seg', range: { start: 0, end: 999 } }, 0);
  const first = s.take(0, 0);
  s.tick(2000);
  const second = s.take(1, 2000);
  expect(s.tick(5000)).toEqual([]);
  expect(s.stats()).toMatchObject({ inFlight: 2, queued: 0, timeouts: 2, reRequests: 1 });
  // The first copy's connection breaks: the other one is late, so a fresh copy is queued.
  expect(s.failed(first.transferId, new Error('reset'))).toEqual([{ kind: 'work' }]);
  const third = s.take(2, 5100);
  // The late second copy wins; the third is let run, and when its connection breaks it is
  // counted as a failure but fails nothing (the chunk is in).
  expect(kinds(s.delivered(second.transferId, answer(second), 5200))).toEqual(['progress', 'done']);
  expect(s.failed(third.transferId, new Error('reset'))).toEqual([]);
  expect(s.stats()).toMatchObject({ inFlight: 0, failures: 2, responses: 1 });
});

test('losingCopy is abort or finish', () => {
  expect(() => new ChunkScheduler({ chunkBytes: 20480, losingCopy: 'keep' })).toThrow(/losingCopy must be abort or finish, got "keep"/);
});

test('a broken connection: the chunk is fetched again; too many failures fail the response', () => {
  const s = new ChunkScheduler({ chunkBytes: 20480, maxFailuresPerChunk: 2 });
  const { responseId } = s.open({ path: '/seg', range: { start: 0, end: 999 } }, 0);
  const t1 = s.take(0, 0);
  expect(s.failed(t1.transferId, new Error('socket hang up'))).toEqual([{ kind: 'work' }]);
  const t2 = s.take(0, 10);
  expect(t2.range.start).toBe(0);
  s.failed(t2.transferId, new Error('reset'));
  const t3 = s.take(1, 20);
  const ev = s.failed(t3.transferId, new Error('reset again'));
  expect(kinds(ev)).toEqual(['failed']);
  expect(ev[0].responseId).toBe(responseId);
  expect(ev[0].error.message).toMatch(/\/seg bytes 0-999: failed 3 times, last: reset again/);
  expect(s.stats()).toMatchObject({ failures: 3, reRequests: 2, queued: 0, inFlight: 0 });
});

test('an HTTP error or a wrong Content-Range fails the response and aborts its other copies', () => {
  const s = new ChunkScheduler({ chunkBytes: 20480 });
  s.open({ path: '/missing' }, 0);
  const t = s.take(0, 0);
  const ev = s.delivered(t.transferId, { status: 404, body: new Uint8Array(10) }, 5);
  expect(kinds(ev)).toEqual(['failed']);
  expect(ev[0].error).toMatchObject({ status: 404, message: '/missing bytes 0-20479: HTTP 404' });

  s.open({ path: '/seg', range: { start: 0, end: 99999 } }, 10);
  const [a, b] = [s.take(0, 10), s.take(1, 10)];
  const bad = s.delivered(a.transferId, { ...answer(a), contentRange: 'bytes 100-20579/100000' }, 20);
  expect(bad).toEqual([{ kind: 'abort', transferId: b.transferId }, expect.objectContaining({ kind: 'failed' })]);
  expect(bad[1].error.message).toMatch(/the origin sent bytes 100-20579\/100000/);
  expect(s.take(2, 20)).toBeNull(); // its queued chunks are gone
  // A 200 to a chunk of a range: the server ignored Range; not the chunk asked for.
  s.open({ path: '/seg', range: { start: 0, end: 99999 } }, 30);
  const c = s.take(0, 30);
  expect(s.delivered(c.transferId, { status: 200, body: RESOURCE }, 40).pop().error.message).toMatch(/HTTP 200/);
});

test('responses are served in playback order, the first one\'s rest before the next one\'s chunks', () => {
  const s = new ChunkScheduler({ chunkBytes: 40000 });
  s.open({ path: '/a' }, 0);
  const probeA = s.take(0, 0);
  s.open({ path: '/b', range: { start: 0, end: 99999 } }, 1);
  expect([s.take(1, 1), s.take(2, 1)].map((t) => [t.path, t.range.start])).toEqual([['/b', 0], ['/b', 40000]]);
  s.delivered(probeA.transferId, answer(probeA), 10);
  expect([s.take(0, 10), s.take(3, 10), s.take(4, 10)].map((t) => [t.path, t.range.start])).toEqual([['/a', 40000], ['/a', 80000], ['/b', 80000]]);
});

test('cancelling a response drops its queued chunks and aborts its copies in flight', () => {
  const s = new ChunkScheduler({ chunkBytes: 20480 });
  const { responseId } = s.open({ path: '/seg', range: { start: 0, end: 99999 } }, 0);
  const [a, b] = [s.take(0, 0), s.take(1, 0)];
  expect(s.cancel(responseId)).toEqual([{ kind: 'abort', transferId: a.transferId }, { kind: 'abort', transferId: b.transferId }]);
  expect(s.take(2, 0)).toBeNull();
  expect(s.delivered(a.transferId, answer(a), 5)).toEqual([]);
  expect(s.cancel(responseId)).toEqual([]);
  expect(s.nextWakeAt()).toBeNull();
});
