'use strict';
// Paper 000's playout through the FDSP client core: a segment in movie fragments goes to the
// decoder fragment by fragment ('data' events), each at its own deadline with whatever of its
// unreliable bytes are in; a chunk after its fragment went is lost for playout; a stall moves
// the later deadlines. Scripted frames and time, as the transports drive the core.
const frames = require('../../shared/fdsp/frames');
const { FdspClientCore } = require('../../shared/fdsp/client-core');
const { DEADLINE_MARGIN_MS } = require('../../shared/fdsp/response-assembly');

// 4 fragments of 1000 bytes, 0.5 s apart: 100 bytes reliable (container, headers), 900
// unreliable (slice data) in three 300-byte chunks each.
const FRAGMENTS = [[0, 1000, 0], [1000, 2000, 0.5], [2000, 3000, 1], [3000, 4000, 1.5]];
const BODY = Uint8Array.from({ length: 4000 }, (_, i) => 1 + ((i * 5) % 250));
const RELIABLE = FRAGMENTS.map(([s]) => [s, s + 100]);
const UNRELIABLE = FRAGMENTS.flatMap(([s]) => [[s + 100, s + 400], [s + 400, s + 700], [s + 700, s + 1000]]);

function script(requestId, { fragments = FRAGMENTS } = {}) {
  const data = ([s, e]) => frames.encodeData(requestId, s, BODY.subarray(s, e));
  return {
    head: frames.encodeHead(requestId, { status: 200, totalBytes: 4000, reliableBytes: 400, unreliableBytes: 3600, unreliableChunks: 12, chunkBytes: 300, contentType: 'video/iso.segment', fragments }),
    reliable: RELIABLE.map(data),
    unreliable: UNRELIABLE.map(data),
    end: frames.encodeEnd(requestId, { unreliableChunks: 12, unreliableSent: 12, unreliableSkipped: 0 }),
  };
}

/** Runs [time, frame|'tick', channel] steps in the order given (times rising); returns the events, each with its time. */
function run(core, steps, stall = () => ({ totalMs: 0, since: null })) {
  const out = [];
  for (const [at, frame, channel] of steps) {
    const events = frame === 'tick' ? core.tick(at, stall(at)) : core.receive(frame, channel, at, stall(at));
    for (const e of events) out.push({ ...e, at });
  }
  return out;
}
const dataEvents = (events) => events.filter((e) => e.kind === 'data');
const joined = (parts) => {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};

test('starting (no deadline): fragment 1 goes when the reliable part is in, the others at their media times after it less the margin', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 0, deadlineMs: null, progressive: true }, 0);
  const s = script(requestId);
  const events = run(core, [
    // Fragment 1's first chunk arrives with the reliable part; its other two after it went.
    [1, s.head, 'reliable'], [2, s.unreliable[0], 'unreliable'], ...s.reliable.map((f, i) => [2 + i, f, 'reliable']),
  ]);
  const first = dataEvents(events);
  expect(first).toHaveLength(1);
  expect(first[0].at).toBe(5); // the last reliable frame
  expect(first[0].bytes).toHaveLength(1000);
  expect(first[0].bytes.subarray(100, 400)).toEqual(BODY.subarray(100, 400));
  expect(first[0].bytes.subarray(400, 1000).every((b) => b === 0)).toBe(true); // not in yet: zeros
  expect(core.nextWakeAt()).toBe(5 + 500 - DEADLINE_MARGIN_MS);

  const later = run(core, [
    [100, s.unreliable[1], 'unreliable'], // late for fragment 1
    ...s.unreliable.slice(3).map((f, i) => [200 + i, f, 'unreliable']),
    [254, 'tick'],
    [255, 'tick'],
    [755, 'tick'],
    [1255, 'tick'],
  ]);
  const released = dataEvents(later);
  expect(released.map((e) => [e.at, e.bytes.length])).toEqual([[255, 1000], [755, 1000], [1255, 1000]]);
  const done = later.find((e) => e.kind === 'done');
  // The last fragment goes at 1255, and with it the response.
  expect(done.at).toBe(1255);
  expect(done.response.finishedBy).toBe('deadline');
  expect(done.response.releasedBytes).toBe(4000); // the rest to hand over with the outcome: none
  expect(done.response.lateChunks).toBe(1);
  // One never came, one came after its fragment went: both lost for playout.
  expect(done.response.lostChunks).toBe(2);
  const stats = core.stats();
  expect(stats).toMatchObject({ lateChunksAfterRelease: 1, fragmentsReleased: 4, lostChunks: 2 });
  // What the decoder got, in order, is the segment with the missing chunks as zeros.
  const decoder = joined([first[0].bytes, ...released.map((e) => e.bytes), done.response.bytes.subarray(done.response.releasedBytes)]);
  const expected = BODY.slice();
  expected.fill(0, 400, 1000);
  expect(decoder).toEqual(expected);
});

test('with a deadline: fragment k at deadline + its media time; the last fragment\'s is the response\'s deadline', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 0, deadlineMs: 1000, progressive: true }, 0);
  const s = script(requestId);
  const events = run(core, [[1, s.head, 'reliable'], ...s.reliable.map((f, i) => [2 + i, f, 'reliable']), [999, 'tick'], [1000, 'tick'], [1600, 'tick'], [2499, 'tick'], [2500, 'tick']]);
  expect(dataEvents(events).map((e) => [e.at, e.bytes.length])).toEqual([[1000, 1000], [1600, 1000], [2499, 1000], [2500, 1000]]);
  const done = events.find((e) => e.kind === 'done');
  expect(done.at).toBe(2500);
  expect(done.response.releasedBytes).toBe(4000);
  expect(done.cancel).not.toBeNull(); // stopped at its deadline: the origin stops sending
});

test('a stall after the request moves every later fragment deadline by its length', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 0, deadlineMs: 1000, progressive: true }, 0, { totalMs: 5000, since: null });
  const s = script(requestId);
  // The player stalls 400 ms at 1100 (another request's data was late): 5000 ms stalled before, 5400 after.
  const stall = (t) => (t < 1100 ? { totalMs: 5000, since: null } : t < 1500 ? { totalMs: 5000 + t - 1100, since: 1100 } : { totalMs: 5400, since: null });
  const events = run(core, [[1, s.head, 'reliable'], ...s.reliable.map((f, i) => [2 + i, f, 'reliable']), [1000, 'tick'], [1600, 'tick'], [1700, 'tick'], [1900, 'tick']], stall);
  expect(dataEvents(events).map((e) => e.at)).toEqual([1000, 1900]);
});

test('complete before its deadlines: everything goes at once with the outcome; nothing late', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 0, deadlineMs: 5000, progressive: true }, 0);
  const s = script(requestId);
  const events = run(core, [[1, s.head, 'reliable'], ...s.reliable.map((f, i) => [2 + i, f, 'reliable']), ...s.unreliable.map((f, i) => [10 + i, f, 'unreliable'])]);
  expect(dataEvents(events)).toHaveLength(0);
  const done = events.find((e) => e.kind === 'done');
  expect(done.response).toMatchObject({ finishedBy: 'complete', releasedBytes: 0, lostChunks: 0, lateChunks: 0 });
  expect(done.response.bytes).toEqual(BODY);
});

test('not progressive, or a segment of one fragment: the whole-segment rule, no data events', () => {
  for (const [progressive, fragments] of [[false, FRAGMENTS], [true, [[0, 4000, 0]]]]) {
    const core = new FdspClientCore();
    const { requestId } = core.request({ url: '/s', bp: 0, deadlineMs: 1000, progressive }, 0);
    const s = script(requestId, { fragments });
    const events = run(core, [[1, s.head, 'reliable'], ...s.reliable.map((f, i) => [2 + i, f, 'reliable']), [1000, 'tick']]);
    expect(dataEvents(events)).toHaveLength(0);
    expect(events.find((e) => e.kind === 'done')).toMatchObject({ at: 1000, response: { finishedBy: 'deadline', releasedBytes: 0 } });
  }
});

test.each([
  ['not a list', 'x'],
  ['a gap', [[0, 1000, 0], [1100, 4000, 0.5]]],
  ['short of the response', [[0, 1000, 0], [1000, 3000, 0.5]]],
  ['time going back', [[0, 1000, 0.5], [1000, 4000, 0]]],
  ['not a number', [[0, 1000, 0], [1000, 4000, 'soon']]],
])('a HEAD whose fragments are %s fails the request as bad-head', (why, fragments) => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 0, progressive: true }, 0);
  const events = run(core, [[1, script(requestId, { fragments }).head, 'reliable']]);
  expect(events).toEqual([expect.objectContaining({ kind: 'failed', error: expect.objectContaining({ code: 'bad-head', message: expect.stringContaining('HEAD fragments') }) })]);
});

test('while the player stalls, the next fragment goes at once, then one per fragment duration until the stall ends', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 0, deadlineMs: 1000, progressive: true }, 0);
  const s = script(requestId);
  // Fragment 1 goes at 1000; the player runs dry at 1300 (its data was short) and waits.
  const stall = (t) => (t < 1300 ? { totalMs: 0, since: null } : { totalMs: t - 1300, since: 1300 });
  const events = run(core, [[1, s.head, 'reliable'], ...s.reliable.map((f, i) => [2 + i, f, 'reliable']), [1000, 'tick'], [1300, 'tick'], [1400, 'tick']], stall);
  expect(dataEvents(events).map((e) => e.at)).toEqual([1000, 1300]);
  // Still stalled: the next goes one fragment duration (500 ms) after the last.
  expect(core.nextWakeAt()).toBe(1800);
  expect(dataEvents(run(core, [[1800, 'tick']], stall)).map((e) => e.at)).toEqual([1800]);
});

test('requested while stalled (no deadline): the stall before the reliable part is in does not move the fragments', () => {
  const core = new FdspClientCore();
  // Stalled since 1000; the request at 1100; the reliable part in at 3100; playback resumes at 3150.
  const stall = (t) => (t < 3150 ? { totalMs: t - 1000, since: 1000 } : { totalMs: 2150, since: null });
  const { requestId } = core.request({ url: '/s', bp: 0, deadlineMs: null, progressive: true }, 1100, stall(1100));
  const s = script(requestId);
  const events = run(core, [[1101, s.head, 'reliable'], ...s.reliable.map((f, i) => [3097 + i, f, 'reliable']), [3150, 'tick']], stall);
  expect(dataEvents(events).map((e) => e.at)).toEqual([3100]);
  // Fragment 2 plays 500 ms after fragment 1 began, which was at 3150 (the player resumed 50 ms
  // after the hand-over): due at 3100 + 500 - margin + 50, not two seconds later.
  expect(core.nextWakeAt()).toBe(3100 + 500 - DEADLINE_MARGIN_MS + 50);
});

test('a HEAD whose fragment offsets run past an hour is refused', () => {
  const core = new FdspClientCore();
  const { requestId } = core.request({ url: '/s', bp: 0, progressive: true }, 0);
  const events = run(core, [[1, script(requestId, { fragments: [[0, 1000, 0], [1000, 4000, 1e308]] }).head, 'reliable']]);
  expect(events[0]).toMatchObject({ kind: 'failed', error: { code: 'bad-head' } });
});
