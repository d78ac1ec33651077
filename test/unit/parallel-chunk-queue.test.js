'use strict';
// The shared priority queue: playback order (the response asked for first, then by offset),
// re-requests at the front, and a cancelled response's chunks taken out.
const { ChunkQueue } = require('../../player/transports/parallel/chunk-queue');

const chunk = (seq, start) => ({ seq, start });
const drain = (q) => { const out = []; for (let c = q.take(); c; c = q.take()) out.push([c.seq, c.start]); return out; };

test('chunks come out in playback order whatever order they were queued in', () => {
  const q = new ChunkQueue();
  // Segment 2 is planned before segment 1's rest (segment 1's size came from its first chunk later).
  for (const s of [0, 20480, 40960]) q.add(chunk(2, s));
  for (const s of [20480, 40960]) q.add(chunk(1, s));
  q.add(chunk(3, 0));
  expect(q.size).toBe(6);
  expect(drain(q)).toEqual([[1, 20480], [1, 40960], [2, 0], [2, 20480], [2, 40960], [3, 0]]);
  expect(q.take()).toBeNull();
});

test('a re-request goes before every first request, re-requests among themselves in playback order', () => {
  const q = new ChunkQueue();
  for (const s of [0, 20480, 40960, 61440]) q.add(chunk(1, s));
  q.add(chunk(2, 0));
  expect(q.take()).toMatchObject({ seq: 1, start: 0 });
  q.addFront(chunk(2, 0));
  q.addFront(chunk(1, 61440));
  expect(drain(q)).toEqual([[1, 61440], [2, 0], [1, 20480], [1, 40960], [1, 61440], [2, 0]]);
});

test('equal places keep their order; a cancelled response is removed', () => {
  const q = new ChunkQueue();
  const a = chunk(1, 0);
  const b = chunk(1, 0);
  q.add(a);
  q.add(b);
  q.add(chunk(2, 0));
  q.addFront(chunk(2, 20480));
  expect(q.remove((c) => c.seq === 2)).toBe(2);
  expect(q.take()).toBe(a);
  expect(q.take()).toBe(b);
  expect(q.size).toBe(0);
});
