'use strict';
// The FDSP client core (shared/fdsp/client-core.js and the rule in response-assembly.js),
// driven with scripted frame sequences and scripted time, as the player's transport and the
// Node client drive it: in order, reordered (DATA before HEAD), duplicated, truncated, late
// (after the deadline, after END's grace), after CANCEL, ERROR mid-response.
const frames = require('../../shared/fdsp/frames');
const { splitSegment, chunkRanges } = require('../../shared/fdsp/split-segment');
const { FdspClientCore } = require('../../shared/fdsp/client-core');
const { playoutDeadlineMs, GRACE_AFTER_END_MS, MAX_GRACE_MS } = require('../../shared/fdsp/response-assembly');

// The same generated map as fdsp-split-and-frames.test.js: 1992 bytes, two I slices, one P.
const MAP = {
  ranges: [
    [0, 100, 'container'], [100, 120, 'parameterSet'], [120, 128, 'parameterSet'], [128, 132, 'container'],
    [132, 140, 'sliceHeader'], [140, 1140, 'iSliceData'], [1140, 1144, 'container'],
    [1144, 1150, 'sliceHeader'], [1150, 1483, 'iSliceData'], [1483, 1487, 'container'],
    [1487, 1492, 'sliceHeader'], [1492, 1992, 'pbSliceData'],
  ],
};
const BODY = Uint8Array.from({ length: 1992 }, (_, i) => (i * 7 + 3) % 256);
const CHUNK = 200;

/** What the origin would send for one request at BP 25: HEAD, reliable DATA, unreliable DATA, END. */
function script(requestId) {
  const split = splitSegment(MAP, 25);
  const reliable = chunkRanges(split.reliable, 500);
  const unreliable = chunkRanges(split.unreliable, CHUNK);
  const data = ([s, e]) => frames.encodeData(requestId, s, BODY.subarray(s, e));
  return {
    split,
    unreliableRanges: unreliable,
    head: frames.encodeHead(requestId, { status: 200, totalBytes: BODY.length, reliableBytes: split.reliableBytes, unreliableBytes: split.unreliableBytes, unreliableChunks: unreliable.length, chunkBytes: CHUNK, contentType: 'video/iso.segment' }),
    reliable: reliable.map(data),
    unreliable: unreliable.map(data),
    end: frames.encodeEnd(requestId, { unreliableChunks: unreliable.length, unreliableSent: unreliable.length, unreliableSkipped: 0 }),
  };
}

/** Feeds [frame, channel] pairs, one ms apart from `t`; returns every event with its time. */
function feed(core, steps, t = 1) {
  const out = [];
  let now = t;
  for (const [frame, channel] of steps) {
    for (const e of core.receive(frame, channel, now)) out.push({ ...e, at: now });
    now += 1;
  }
  return out;
}
const R = (f) => [f, 'reliable'];
const U = (f) => [f, 'unreliable'];
const settled = (events) => events.filter((e) => e.kind === 'done' || e.kind === 'failed');

test('in order: done when the last unreliable chunk is in, END not needed; bytes exact; END after it is reported', () => {
  const core = new FdspClientCore();
  const { requestId, frame } = core.request({ url: '/content/x/chunk-1-00001.m4s', bp: 25 }, 0);
  expect(frames.decodeFrame(frame)).toMatchObject({ type: 'REQUEST', requestId, payload: { url: '/content/x/chunk-1-00001.m4s', bp: 25, range: null, deadlineMs: null } });
  const s = script(requestId);
  const events = feed(core, [R(s.head), ...s.reliable.map(R), ...s.unreliable.map(U)]);
  const done = settled(events);
  expect(done).toHaveLength(1);
  expect(done[0]).toMatchObject({ kind: 'done', requestId, cancel: null, response: { finishedBy: 'complete', end: null, lostChunks: 0, plr: 0, duplicates: 0 } });
  expect(done[0].at).toBe(events[events.length - 1].at); // on the last chunk
  expect(Buffer.from(done[0].response.bytes).equals(Buffer.from(BODY))).toBe(true);
  // Progress: every placed byte, ending at the total.
  const progress = events.filter((e) => e.kind === 'progress');
  expect(progress[progress.length - 1]).toMatchObject({ loaded: BODY.length, total: BODY.length });
  expect(progress.map((p) => p.loaded)).toEqual([...progress.map((p) => p.loaded)].sort((a, b) => a - b));
  // END comes after: reported for whoever wants the origin's word, nothing settled twice.
  expect(core.receive(s.end, 'reliable', 100)).toEqual([{ kind: 'end', requestId, end: { unreliableChunks: s.unreliable.length, unreliableSent: s.unreliable.length, unreliableSkipped: 0 } }]);
  expect(core.openRequests).toBe(0);
  expect(core.nextWakeAt()).toBe(null);
  expect(core.stats()).toMatchObject({
    requests: 1, reliableBytes: s.split.reliableBytes, unreliableBytes: s.split.unreliableBytes, lostChunks: 0, lateChunks: 0, plr: 0,
    reliableShare: s.split.reliableBytes / BODY.length, unreliableChunks: s.unreliable.length,
  });
});

test('reordered: unreliable chunks before their HEAD, in reverse, are kept and placed when it comes', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 25 }, 0);
  const s = script(requestId);
  const events = feed(core, [...[...s.unreliable].reverse().map(U), R(s.head), ...s.reliable.map(R)]);
  const done = settled(events);
  expect(done).toHaveLength(1);
  expect(done[0].response.finishedBy).toBe('complete');
  expect(Buffer.from(done[0].response.bytes).equals(Buffer.from(BODY))).toBe(true);
  // The first frame was a chunk: time to first byte counts from it, the HEAD came later.
  expect(done[0].response.firstFrameAt).toBe(1);
  expect(done[0].response.headAt).toBe(1 + s.unreliable.length);
});

test('duplicated: each chunk counts once; duplicates are counted', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 25 }, 0);
  const s = script(requestId);
  const twice = s.unreliable.slice(0, 3);
  const events = feed(core, [R(s.head), ...s.reliable.map(R), ...twice.map(U), ...s.unreliable.map(U)]);
  const [done] = settled(events);
  expect(done.response).toMatchObject({ finishedBy: 'complete', duplicates: 3, lostChunks: 0, bytesPerChannel: { reliable: s.split.reliableBytes, unreliable: s.split.unreliableBytes } });
  expect(Buffer.from(done.response.bytes).equals(Buffer.from(BODY))).toBe(true);
});

test('lost chunks: done when END has come and no frame for twice the longest gap (at least the minimum); zeros in place; PLR over all packets', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 25 }, 0);
  const s = script(requestId);
  const lost = [1, 3];
  const kept = s.unreliable.filter((_, i) => !lost.includes(i));
  // Frames 1 ms apart, then a 40 ms gap before the last kept chunk: window = 2 x 40 = 80 ms.
  let events = feed(core, [R(s.head), ...s.reliable.map(R), ...kept.slice(0, -1).map(U)], 1);
  events = events.concat(feed(core, [U(kept[kept.length - 1])], 100));
  const lastChunkAt = 100;
  const gap = lastChunkAt - (1 + 1 + s.reliable.length + kept.length - 2);
  expect(settled(events)).toEqual([]);
  expect(core.nextWakeAt()).toBe(null); // no END yet: only a frame can settle it
  expect(core.receive(s.end, 'reliable', 110)).toEqual([]);
  const windowMs = Math.max(GRACE_AFTER_END_MS, 2 * gap);
  expect(core.nextWakeAt()).toBe(110 + windowMs);
  expect(core.tick(110 + windowMs - 1)).toEqual([]);
  const [done] = core.tick(110 + windowMs);
  expect(done).toMatchObject({ kind: 'done', cancel: null, response: { finishedBy: 'end', lostChunks: 2, end: { unreliableSent: s.unreliable.length } } });
  const r = done.response;
  const packets = s.unreliable.length + Math.ceil(s.split.reliableBytes / CHUNK);
  expect(r.packets).toBe(packets);
  expect(r.plr).toBeCloseTo(2 / packets, 12);
  expect(r.unreliableLossRatio).toBeCloseTo(2 / s.unreliable.length, 12);
  for (const i of lost) {
    const [a, b] = s.unreliableRanges[i];
    expect(r.bytes.subarray(a, b).every((x) => x === 0)).toBe(true);
  }
  // Late: a lost chunk after the grace is counted late, not placed, and named to its response.
  expect(core.receive(s.unreliable[1], 'unreliable', 500)).toEqual([{ kind: 'late', requestId, finishedBy: 'end' }]);
  expect(core.stats()).toMatchObject({ lateChunks: 1, lateChunksAfterEnd: 1, lateChunksAfterDeadline: 0, lostChunks: 2 });
});

test('END\'s grace: a chunk arriving in it starts it again; the window is at least the minimum and at most the maximum', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 25 }, 0);
  const s = script(requestId);
  feed(core, [R(s.head), ...s.reliable.map(R), R(s.end)], 1); // frames 1 ms apart: window = the minimum
  const endAt = 1 + s.reliable.length + 1;
  expect(core.nextWakeAt()).toBe(endAt + GRACE_AFTER_END_MS);
  expect(core.receive(s.unreliable[0], 'unreliable', endAt + 50)).toHaveLength(1); // progress only
  // The gap is between DATA frames: from the last reliable one, 1 ms before END.
  expect(core.nextWakeAt()).toBe(endAt + 50 + 2 * 51);
  // A long gap: capped.
  core.receive(s.unreliable[1], 'unreliable', endAt + 50 + 5000);
  expect(core.nextWakeAt()).toBe(endAt + 5050 + MAX_GRACE_MS);
  // A fixed grace (the Node client's graceMs) replaces the gap rule.
  const fixed = new FdspClientCore();
  const id2 = fixed.request({ url: '/s', bp: 25, graceMs: 300 }, 0).requestId;
  const s2 = script(id2);
  feed(fixed, [R(s2.head), ...s2.reliable.map(R)], 1);
  fixed.receive(s2.unreliable[0], 'unreliable', 1000);
  fixed.receive(s2.end, 'reliable', 1001);
  expect(fixed.nextWakeAt()).toBe(1301);
});

test('deadline: past it only reliable bytes are waited for; the response stops, says to CANCEL, and later chunks are late', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 25, deadlineMs: 500 }, 1000);
  const s = script(requestId);
  feed(core, [R(s.head), ...s.reliable.map(R), ...s.unreliable.slice(0, 4).map(U)], 1010);
  expect(core.nextWakeAt()).toBe(1500);
  expect(core.tick(1499)).toEqual([]);
  const [done] = core.tick(1500);
  expect(done).toMatchObject({ kind: 'done', requestId, response: { finishedBy: 'deadline', reliableLate: false, lostChunks: s.unreliable.length - 4 } });
  expect(frames.decodeFrame(done.cancel)).toMatchObject({ type: 'CANCEL', requestId });
  core.receive(s.unreliable[5], 'unreliable', 1600);
  core.receive(s.unreliable[6], 'unreliable', 1601);
  expect(core.stats()).toMatchObject({ deadlineStops: 1, lateChunks: 2, lateChunksAfterDeadline: 2, lateChunksAfterEnd: 0 });
});

test('deadline passed before the reliable bytes were in: done on the last reliable byte, marked reliable-late', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 25, deadlineMs: 50 }, 0);
  const s = script(requestId);
  // Until every reliable byte is in there is nothing to wake for: a frame decides.
  feed(core, [R(s.head), ...s.reliable.slice(0, -1).map(R)], 10);
  expect(core.nextWakeAt()).toBe(null);
  expect(core.tick(60)).toEqual([]);
  const [done] = settled(core.receive(s.reliable[s.reliable.length - 1], 'reliable', 80));
  expect(done.response).toMatchObject({ finishedBy: 'deadline', reliableLate: true, reliableDoneAt: 80, deadlineAt: 50 });
});

test('a late look: when both the deadline and END\'s grace have passed, the earlier one is the reason', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 25, deadlineMs: 900 }, 0);
  const s = script(requestId);
  feed(core, [R(s.head), ...s.reliable.map(R), R(s.end)], 1);
  const graceEnd = core.nextWakeAt();
  expect(graceEnd).toBeLessThan(900);
  const [done] = core.tick(5000); // a timer that fired very late
  expect(done.response.finishedBy).toBe('end');
  expect(done.cancel).toBe(null);
});

test('the playout deadline: buffer level less the margin; none with less than the margin buffered', () => {
  expect(playoutDeadlineMs(2)).toBe(1750);
  expect(playoutDeadlineMs(0.25)).toBe(null);
  expect(playoutDeadlineMs(0)).toBe(null);
});

test('truncated: END before every reliable byte, a chunk past the end, a HEAD that does not add up: the request fails', () => {
  const core = new FdspClientCore();
  const a = core.request({ url: '/s', bp: 25 }, 0).requestId;
  const sa = script(a);
  const failA = settled(feed(core, [R(sa.head), ...sa.reliable.slice(1).map(R), R(sa.end)]));
  expect(failA).toEqual([expect.objectContaining({ kind: 'failed', requestId: a, error: expect.objectContaining({ code: 'truncated', message: expect.stringMatching(/END after \d+ of \d+ reliable bytes/) }) })]);
  const b = core.request({ url: '/s', bp: 25 }, 0).requestId;
  const failB = settled(feed(core, [R(script(b).head), U(frames.encodeData(b, 1990, new Uint8Array(5)))]));
  expect(failB[0]).toMatchObject({ kind: 'failed', error: { code: 'bad-data', message: expect.stringMatching(/does not fit/) } });
  const c = core.request({ url: '/s', bp: 25 }, 0).requestId;
  const failC = settled(core.receive(frames.encodeHead(c, { status: 200, totalBytes: 5, reliableBytes: 1, unreliableBytes: 1, unreliableChunks: 1 }), 'reliable', 1));
  expect(failC[0]).toMatchObject({ kind: 'failed', error: { code: 'bad-head', message: expect.stringMatching(/must equal totalBytes/) } });
  const d = core.request({ url: '/s', bp: 25 }, 0).requestId;
  const sd = script(d);
  const failD = settled(feed(core, [R(sd.head), R(sd.head)]));
  expect(failD[0]).toMatchObject({ kind: 'failed', error: { code: 'protocol', message: 'a second HEAD for the same request' } });
  expect(core.stats()).toMatchObject({ requests: 0, lostChunks: 0 }); // failures are not accounted as responses
});

test('after CANCEL: the request is gone; its frames are ignored, not counted late', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 25, deadlineMs: 100 }, 0);
  const s = script(requestId);
  feed(core, [R(s.head), ...s.reliable.slice(0, 1).map(R)]);
  const cancel = core.cancel(requestId);
  expect(frames.decodeFrame(cancel)).toMatchObject({ type: 'CANCEL', requestId });
  expect(core.cancel(requestId)).toBe(null);
  expect(core.nextWakeAt()).toBe(null);
  expect(feed(core, [...s.reliable.slice(1).map(R), ...s.unreliable.map(U), R(s.end)], 10)).toEqual([]);
  expect(core.tick(10000)).toEqual([]);
  expect(core.stats()).toMatchObject({ requests: 0, lateChunks: 0, deadlineStops: 0 });
});

test('ERROR mid-response fails the request with the origin\'s status; later frames are ignored; an ERROR for no request is kept aside', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 25 }, 0);
  const s = script(requestId);
  const events = feed(core, [R(s.head), R(s.reliable[0]), R(frames.encodeError(requestId, 503, 'origin closing'))]);
  expect(settled(events)).toEqual([expect.objectContaining({ kind: 'failed', requestId, error: { code: 'error-frame', status: 503, message: 'origin closing' } })]);
  expect(feed(core, [...s.reliable.slice(1).map(R), ...s.unreliable.map(U)], 10)).toEqual([]);
  // An ERROR for a request id the client never opened (a refused garbage frame), and garbage.
  expect(core.receive(frames.encodeError(0, 400, 'bad-magic: not a frame'), 'reliable', 20)).toEqual([]);
  expect(core.receive(new Uint8Array([1, 2, 3]), 'unreliable', 21)).toEqual([]);
  expect(core.errorsWithoutRequest).toEqual([{ status: 400, message: 'bad-magic: not a frame' }, expect.stringMatching(/at least 12 bytes/)]);
  expect(core.stats().errors).toBe(1);
});

test('the session closes: every open request fails; overlapping requests are kept apart', () => {
  const core = new FdspClientCore();
  const a = core.request({ url: '/a', bp: 25 }, 0).requestId;
  const b = core.request({ url: '/b', bp: 25 }, 0).requestId;
  expect(b).not.toBe(a);
  const sa = script(a);
  const sb = script(b);
  // b's reliable part while a's unreliable part still flows (substream overlapping).
  const events = feed(core, [R(sa.head), ...sa.reliable.map(R), R(sb.head), U(sa.unreliable[0]), ...sb.reliable.map(R), ...sa.unreliable.slice(1).map(U)]);
  expect(settled(events).map((e) => [e.requestId, e.kind])).toEqual([[a, 'done']]);
  expect(core.failAll('DataChannel (FDSP): signaling closed')).toEqual([{ kind: 'failed', requestId: b, error: { code: 'closed', message: 'DataChannel (FDSP): signaling closed' } }]);
  expect(core.openRequests).toBe(0);
});
