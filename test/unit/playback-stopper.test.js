'use strict';
// The playback's end: `ended` resolves once with the record, whatever a step of stopping throws.
const { createPlaybackStopper } = require('../../player/playback/playback-stopper');

function fakeRecorder() {
  const r = {
    stopped: 0,
    errors: [],
    stop() { r.stopped += 1; },
    error(message) { r.errors.push({ message }); },
    toJSON() { return { summary: { errors: r.errors.length, frames: 42 }, errors: r.errors.slice() }; },
  };
  return r;
}

test('stops recorder, player and ticker once, and resolves with the record taken before reset()', async () => {
  const calls = [];
  const recorder = fakeRecorder();
  const player = { pause: () => calls.push('pause'), reset: () => calls.push('reset') };
  const s = createPlaybackStopper({ recorder, player, beforeStop: () => calls.push('ticker') });
  s.stop();
  s.stop();
  const record = await s.ended;
  expect(calls).toEqual(['ticker', 'pause', 'reset']);
  expect(recorder.stopped).toBe(1);
  expect(record).toEqual({ summary: { errors: 0, frames: 42 }, errors: [] });
  expect(s.record()).toBe(record);
});

test('a reset() that throws still ends the run, with the failure in the record', async () => {
  const recorder = fakeRecorder();
  const player = { pause() {}, reset() { throw new Error('source buffer gone'); } };
  const s = createPlaybackStopper({ recorder, player });
  s.stop();
  const record = await s.ended;
  expect(record.summary.frames).toBe(42);
  expect(record.summary.errors).toBe(1);
  expect(record.errors[0].message).toBe('stopping the playback: reset() failed: source buffer gone');
});

test('a recorder whose snapshot throws still ends the run with its errors', async () => {
  const recorder = fakeRecorder();
  recorder.toJSON = () => { throw new Error('video detached'); };
  const s = createPlaybackStopper({ recorder, player: { pause() {}, reset() {} } });
  s.stop();
  const record = await s.ended;
  expect(record.errors.map((e) => e.message)).toEqual(['stopping the playback: the record failed: video detached']);
});
