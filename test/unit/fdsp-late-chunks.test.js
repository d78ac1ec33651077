'use strict';
// A chunk that comes after its response was handed over (END's grace or the deadline had run
// out) is counted into that response's own accounting, and the segment log shows the count as
// it is when the record is read: the split of PLR into the network's part and the deadline's
// (player/qoe/fdsp-media-loss.js) needs it per segment. Before, a one-session WebTransport
// playback blamed the network for 1,431 chunks that had only come late. A scripted carrier,
// Jest's fake clock.
const frames = require('../../shared/fdsp/frames');
const { ScriptedFdspCarrier, fakeClockAndLocation } = require('../support/scripted-fdsp-carrier');
const { PlaybackRecorder } = require('../../player/qoe/playback-recorder');
const { segmentFields } = require('../../player/transports/fdsp-entry-parts');
const { fdspMediaLoss } = require('../../player/qoe/fdsp-media-loss');

const BODY = Uint8Array.from({ length: 4000 }, (_, i) => 1 + ((i * 7) % 250));
const CHUNKS = [[400, 1300], [1300, 2200], [2200, 3100], [3100, 4000]];


fakeClockAndLocation();

test('a chunk after END\'s grace counts into the handed-over segment\'s accounting; the record reads it again', async () => {
  const t = new ScriptedFdspCarrier({ name: 'datachannel', label: 'dc', protocol: 'datachannel', bp: 10 });
  await t.connect();
  let done = null;
  t.load({ url: 'http://lab.test/content/c/s1.m4s', responseType: 'text' }, { onProgress() {}, onComplete: (r) => { done = r; }, onError: (e) => { throw e; } });
  await Promise.resolve();
  await Promise.resolve();
  const send = (f, ch) => t.handlers.onMessage(f, ch);
  const data = ([s, e]) => frames.encodeData(1, s, BODY.subarray(s, e));
  send(frames.encodeHead(1, { status: 200, totalBytes: 4000, reliableBytes: 400, unreliableBytes: 3600, unreliableChunks: 4, chunkBytes: 900, contentType: 'video/iso.segment' }), 'reliable');
  send(data([0, 400]), 'reliable');
  send(data(CHUNKS[0]), 'unreliable');
  send(data(CHUNKS[1]), 'unreliable');
  send(frames.encodeEnd(1, { unreliableChunks: 4, unreliableSent: 4, unreliableSkipped: 0 }), 'reliable');
  jest.advanceTimersByTime(5000); // END's grace runs out: handed over with two chunks missing
  expect(done.accounting).toMatchObject({ finishedBy: 'end', lostChunks: 2, lateChunks: 0 });

  const recorder = new PlaybackRecorder({ video: {}, bufferLevel: () => 0, now: () => 0, config: {}, segmentFields });
  recorder.response({ accounting: done.accounting, data: new ArrayBuffer(0) }, { number: 1, representationId: 'v', bandwidth: 1, durationSeconds: 2 });
  send(data(CHUNKS[2]), 'unreliable'); // the two missing chunks, after all
  send(data(CHUNKS[3]), 'unreliable');
  expect(done.accounting.lateChunks).toBe(2);
  expect(t.stats()).toMatchObject({ lateChunks: 2, lateChunksAfterEnd: 2 });
  const [entry] = recorder.toJSON().segments;
  expect(entry).toMatchObject({ lostChunks: 2, lateChunks: 2, finishedBy: 'end' });
  // The network took nothing: both losses were late ones.
  expect(fdspMediaLoss([entry])).toMatchObject({ networkLostChunks: 0, networkPlr: 0, deadlineLostChunks: 2 });
});

test('late chunks of a response no longer remembered, or of none, change nothing', async () => {
  const t = new ScriptedFdspCarrier({ name: 'datachannel', label: 'dc', protocol: 'datachannel', bp: 10 });
  await t.connect();
  t.handlers.onMessage(frames.encodeData(77, 400, BODY.subarray(400, 1300)), 'unreliable');
  expect(t.stats()).toMatchObject({ lateChunks: 0 });
  expect(t.handedOver.size).toBe(0);
});
