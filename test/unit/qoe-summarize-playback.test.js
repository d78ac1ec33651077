'use strict';
const { summarizePlayback } = require('../../player/qoe/summarize-playback');

// One playback, hand-computed:
//   0 ms load; 1500 first frame (startup 1.5 s) at 1 Mbps
//   1500-10000 playing 8.5 s at 1 Mbps; 6000 switch to 3 Mbps (1 -> 3: +2 Mbps)
//   10000 stall, 12000 playing again: 1 rebuffer of 2 s
//   15000 seek 20 -> 60 s; 15800 playing: seek wait 0.8 s (not a rebuffer)
//   17000 switch down to 2 Mbps; 21000 ended
// play time = (10000-1500) + (15000-12000) + (21000-15800) = 8500 + 3000 + 5200 = 16700 ms
// bitrate-weighted: 1 Mbps 1500-6000 (4.5 s); 3 Mbps 6000-10000 (4 s) + 12000-15000 (3 s)
//   + 15800-17000 (1.2 s) = 8.2 s; 2 Mbps 17000-21000 (4 s)
//   mean = (1*4.5 + 3*8.2 + 2*4) / 16.7 = 37.1 / 16.7 Mbps
const TIMELINE = [
  { type: 'load', t: 0 },
  { type: 'segment', t: 900, bandwidth: 1e6, durationSeconds: 2, bytes: 250000 },
  { type: 'quality', t: 1500, bandwidth: 1e6 },
  { type: 'playing', t: 1500 },
  { type: 'segment', t: 5000, bandwidth: 3e6, durationSeconds: 2, bytes: 750000 },
  { type: 'quality', t: 6000, bandwidth: 3e6 },
  { type: 'stall', t: 10000 },
  { type: 'playing', t: 12000 },
  { type: 'seek', t: 15000, from: 20, to: 60 },
  { type: 'stall', t: 15100 },
  { type: 'playing', t: 15800 },
  { type: 'quality', t: 17000, bandwidth: 2e6 },
  { type: 'segment', t: 17500, bandwidth: 2e6, durationSeconds: 4, bytes: 1000000 },
  { type: 'ended', t: 21000 },
];

test('hand-computed playback', () => {
  const q = summarizePlayback(TIMELINE);
  expect(q.startupDelaySeconds).toBeCloseTo(1.5, 9);
  expect(q.playSeconds).toBeCloseTo(16.7, 9);
  expect(q.rebufferInstances).toBe(1);
  expect(q.rebufferSeconds).toBeCloseTo(2, 9);
  expect(q.rebufferRate).toBeCloseTo(2 / 18.7, 9);
  expect(q.seeks).toEqual([{ t: 15000, from: 20, to: 60, waitSeconds: 0.8, superseded: false }]);
  expect(q.meanSeekWaitSeconds).toBeCloseTo(0.8, 9);
  expect(q.averagePlaybackBitrate).toBeCloseTo(37.1e6 / 16.7, 0);
  expect(q.switchCount).toBe(2);
  expect(q.switchMagnitudeTotal).toBe(3e6);
  expect(q.switchMagnitudeMean).toBe(1.5e6);
  // (1*2 + 3*2 + 2*4) / 8 Mbps
  expect(q.averageDownloadedBitrate).toBeCloseTo(2e6, 6);
  expect(q.segmentsDownloaded).toBe(3);
  expect(q.bytesDownloaded).toBe(2000000);
  expect(q.state).toBe('ended');
});

test('open intervals close at `now` while playback is still going', () => {
  const q = summarizePlayback(TIMELINE.slice(0, 7), { now: 11000 });
  expect(q.state).toBe('stalled');
  expect(q.rebufferSeconds).toBeCloseTo(1, 9);
  expect(q.playSeconds).toBeCloseTo(8.5, 9);
});

test('a seek during startup ends startup and is measured as a seek wait', () => {
  const q = summarizePlayback([
    { type: 'load', t: 0 }, { type: 'seek', t: 300, from: 0, to: 30 }, { type: 'playing', t: 1300 },
  ]);
  expect(q.startupDelaySeconds).toBeNull();
  expect(q.seeks[0].waitSeconds).toBeCloseTo(1, 9);
  expect(q.rebufferInstances).toBe(0);
});

test('a seek superseded by another is not given a wait', () => {
  const q = summarizePlayback([
    { type: 'load', t: 0 }, { type: 'playing', t: 100 }, { type: 'seek', t: 1000, to: 10 }, { type: 'seek', t: 1200, to: 50 },
    { type: 'playing', t: 2000 },
  ]);
  expect(q.seeks.map((s) => [s.superseded, s.waitSeconds])).toEqual([[true, null], [false, 0.8]]);
  expect(q.meanSeekWaitSeconds).toBeCloseTo(0.8, 9);
});

test('stalls while paused or before the first frame are not rebuffers', () => {
  const q = summarizePlayback([
    { type: 'load', t: 0 }, { type: 'stall', t: 10 }, { type: 'playing', t: 500 }, { type: 'pause', t: 1500 },
    { type: 'stall', t: 1600 }, { type: 'playing', t: 3000 }, { type: 'ended', t: 4000 },
  ]);
  expect(q.rebufferInstances).toBe(0);
  expect(q.playSeconds).toBeCloseTo(2, 9);
  expect(q.rebufferRate).toBe(0);
  expect(q.averagePlaybackBitrate).toBeNull();
});

test('bad timelines are refused with the reason', () => {
  expect(() => summarizePlayback('x')).toThrow(/array/);
  expect(() => summarizePlayback([{ type: 'load' }])).toThrow(/no finite time/);
  expect(() => summarizePlayback([{ type: 'load', t: 5 }, { type: 'playing', t: 4 }])).toThrow(/earlier than the one before/);
  expect(() => summarizePlayback([{ type: 'quality', t: 1 }])).toThrow(/no bandwidth/);
});
