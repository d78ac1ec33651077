'use strict';
// Paper 000's substream overlapping in the player's FDSP transport (fdsp-transport.js): when
// segment N begins to play, the transport asks for N+1 itself (due when N ends), so N+1's
// reliable part travels beside N's unreliable part; dash.js's later request for N+1 takes that
// response over, with what came of it so far. Without it every segment boundary stalled
// (paper000-fdsp, 2026-11-26). A scripted carrier, Jest's fake clock.
const frames = require('../../shared/fdsp/frames');
const { ScriptedFdspCarrier, fakeClockAndLocation } = require('../support/scripted-fdsp-carrier');

const FRAGMENTS = [[0, 1000, 0], [1000, 2000, 0.5], [2000, 3000, 1], [3000, 4000, 1.5]];
const BODY = Uint8Array.from({ length: 4000 }, (_, i) => 1 + ((i * 7) % 250));

/** Every frame of a whole response to requestId, reliable part first. */
function response(requestId) {
  const data = (s, e) => frames.encodeData(requestId, s, BODY.subarray(s, e));
  return [
    [frames.encodeHead(requestId, { status: 200, totalBytes: 4000, reliableBytes: 400, unreliableBytes: 3600, unreliableChunks: 4, chunkBytes: 900, contentType: 'video/iso.segment', fragments: FRAGMENTS }), 'reliable'],
    ...FRAGMENTS.map(([s]) => [data(s, s + 100), 'reliable']),
    ...FRAGMENTS.map(([s]) => [data(s + 100, s + 1000), 'unreliable']),
    [frames.encodeEnd(requestId, { unreliableChunks: 4, unreliableSent: 4, unreliableSkipped: 0 }), 'reliable'],
  ];
}


function loader() {
  const out = { data: [], done: null, error: null };
  return Object.assign(out, { onProgress: (p) => { if (p.data) out.data.push(p.data.byteLength); }, onComplete: (r) => { out.done = r; }, onError: (e) => { out.error = e; } });
}

const segment = (n) => ({ url: `http://lab.test/content/c/s${n}.m4s`, responseType: 'arraybuffer', durationSeconds: 2 });

fakeClockAndLocation();

async function playing() {
  const t = new ScriptedFdspCarrier({
    name: 'datachannel', label: 'dc', protocol: 'datachannel', bp: 0,
    nextSegmentUrl: (url) => (url.endsWith('/s1.m4s') ? url.replace('/s1.m4s', '/s2.m4s') : null),
  });
  await t.connect();
  const first = loader();
  t.load(segment(1), first);
  await Promise.resolve(); // the REQUEST goes once the session is there
  await Promise.resolve();
  for (const [f, ch] of response(1)) t.handlers.onMessage(f, ch);
  return { t, first };
}

test('segment 1 starts to play: segment 2 is asked for at once, due when segment 1 ends', async () => {
  const { t, first } = await playing();
  const requests = t.sent.filter((f) => f.type === 'REQUEST');
  expect(requests.map((f) => f.payload.url)).toEqual(['/content/c/s1.m4s', '/content/c/s2.m4s']);
  // Segment 1 had no deadline (nothing buffered) and began to play on its reliable part: segment 2
  // plays 2 s later, less the 250 ms margin every deadline has.
  expect(requests[1].payload.deadlineMs).toBeGreaterThan(1700);
  expect(requests[1].payload.deadlineMs).toBeLessThanOrEqual(1750);
  expect(first.data.length).toBeGreaterThanOrEqual(1);
});

test("dash.js's request for segment 2 takes the response over: no second REQUEST, what came before it is delivered", async () => {
  const { t, first } = await playing();
  const [, prefetch] = t.sent.filter((f) => f.type === 'REQUEST');
  for (const [f, ch] of response(prefetch.requestId)) t.handlers.onMessage(f, ch); // all of segment 2, before dash.js asks
  jest.advanceTimersByTime(1900); // segment 1 plays out
  expect(first.done).not.toBeNull();
  const second = loader();
  t.load(segment(2), second);
  expect(t.sent.filter((f) => f.type === 'REQUEST')).toHaveLength(2);
  jest.advanceTimersByTime(2500); // segment 2's fragments go at their deadlines
  expect(second.error).toBeNull();
  expect(second.done).not.toBeNull();
  expect(second.done.accounting).toMatchObject({ prefetched: true, lostChunks: 0 });
  // All of it was in before dash.js asked: handed over whole at once, nothing fragment by fragment.
  expect(new Uint8Array(second.done.data)).toEqual(BODY);
  expect(second.data).toEqual([]);
  expect(second.done.appendData).toBeUndefined();
});

test('dash.js asks for another segment (a switch, a seek): the prefetched one is cancelled and the new one asked for', async () => {
  const { t } = await playing();
  const [, prefetch] = t.sent.filter((f) => f.type === 'REQUEST');
  t.load({ url: 'http://lab.test/content/c/s9.m4s', responseType: 'arraybuffer', durationSeconds: 2 }, loader());
  await Promise.resolve();
  await Promise.resolve();
  const after = t.sent.slice(t.sent.indexOf(prefetch) + 1);
  expect(after.map((f) => [f.type, f.requestId])).toEqual([['CANCEL', prefetch.requestId], ['REQUEST', expect.any(Number)]]);
  expect(after[1].payload.url).toBe('/content/c/s9.m4s');
});
