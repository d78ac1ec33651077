'use strict';
// The parts lab-player.js composes, each pure: the ABR's input from the segment index and the
// player's state, dash.js's settings per ABR, the seek schedule.
const { createAbrInputBuilder } = require('../../player/playback/abr-input');
const { createSeekSchedule } = require('../../player/playback/seek-schedule');
const { labDashSettings } = require('../../player/dash/dash-settings');
const { abrs } = require('../../player/abr');

// Two rungs, three 2 s segments each.
const index = {
  segmentDuration: 2,
  representations: [
    { id: 'low', bandwidth: 300000, segments: [{ size: 70000 }, { size: 80000 }, { size: 90000 }] },
    { id: 'high', bandwidth: 1000000, segments: [{ size: 240000 }, { size: 250000 }, { size: 260000 }] },
  ],
};
const ladder = [{ id: 'low' }, { id: 'high' }];
const view = (over = {}) => ({
  currentTime: 0, paused: true, bufferLevelSeconds: 0, segments: [], started: false, seekPending: false, keepBitrateOnSeek: false, representationAtSeek: null, ...over,
});

describe('the ABR input', () => {
  const build = createAbrInputBuilder(index);

  test('before the first segment: no current rung, sizes of segment 1, the whole lowest rung ahead', () => {
    expect(build(ladder, view())).toEqual({
      currentIndex: null, bufferLevelSeconds: 0, segmentDurationSeconds: 2, recentDownloads: [], nextSegmentNumber: 1,
      nextSegmentSizes: [70000, 240000], averageSegmentSizes: [80000, 250000], upcomingLowestRungSizes: [70000, 80000, 90000],
      started: false, playing: false, justSeeked: false, holdCurrent: false,
    });
  });

  test('later: the segment after the buffer, downloads timed at 0 ms left out, each mapped to its rung', () => {
    const segments = [
      { bytes: 70000, requestStart: 0, lastByte: 500, representationId: 'low' },
      { bytes: 250000, requestStart: 600, lastByte: 600, representationId: 'high' },
      { bytes: 250000, requestStart: 700, lastByte: 1700, representationId: 'high' },
    ];
    const input = build(ladder, view({ currentTime: 1, bufferLevelSeconds: 3, segments, started: true, paused: false }));
    expect(input.currentIndex).toBeUndefined(); // the dash.js rule fills in the rung it last requested
    expect(input.nextSegmentNumber).toBe(3);
    expect(input.nextSegmentSizes).toEqual([90000, 260000]);
    expect(input.recentDownloads).toEqual([{ bytes: 70000, seconds: 0.5, representationIndex: 0 }, { bytes: 250000, seconds: 1, representationIndex: 1 }]);
    expect([input.started, input.playing]).toEqual([true, true]);
  });

  test('keep-bitrate-on-seek: while the seek is pending, hold the rung that was on screen', () => {
    const segments = [{ bytes: 1, requestStart: 0, lastByte: 1, representationId: 'high' }];
    expect(build(ladder, view({ segments, seekPending: true, keepBitrateOnSeek: true, representationAtSeek: 'low' }))).toMatchObject({ currentIndex: 0, holdCurrent: true, justSeeked: true });
    expect(build(ladder, view({ segments, seekPending: true, keepBitrateOnSeek: false, representationAtSeek: 'low' }))).toMatchObject({ holdCurrent: false, justSeeked: true });
  });
});

test('the seek schedule: seeks in time order, each once; the stop waits for a pending seek', () => {
  const s = createSeekSchedule([{ at: 30, to: 50 }, { at: 10, to: 40 }], 55);
  expect(s.dueSeek(5)).toBeNull();
  expect(s.dueSeek(12)).toEqual({ at: 10, to: 40 });
  expect(s.dueSeek(12)).toBeNull();
  expect(s.dueSeek(45)).toEqual({ at: 30, to: 50 });
  expect(s.stopDue(54, false)).toBe(false);
  expect(s.stopDue(56, true)).toBe(false);
  expect(s.stopDue(56, false)).toBe(true);
  expect(createSeekSchedule([], null).stopDue(1e6, false)).toBe(false);
});

describe('dash.js settings per ABR', () => {
  test('dash.js\'s own rules keep dash.js\'s defaults, without its 20 s request timeout', () => {
    expect(labDashSettings({ abr: abrs.get('dashjs'), params: {}, segmentDurationSeconds: 2, logLevel: 3 })).toEqual({ streaming: { buffer: {}, abr: {}, fragmentRequestTimeout: 0 }, debug: { logLevel: 3 } });
  });

  test('a lab algorithm: dash.js\'s rules off, no fast switching, its buffer ceiling as dash.js\'s target', () => {
    const bba2 = abrs.get('bba2');
    const params = bba2.resolveParams({ bufferSizeSeconds: 20 });
    const s = labDashSettings({ abr: bba2, params, segmentDurationSeconds: 2, logLevel: 3 });
    const ceiling = bba2.bufferCeilingSeconds(params, 2);
    expect(s.streaming.buffer).toEqual({ fastSwitchEnabled: false, bufferTimeDefault: ceiling, bufferTimeAtTopQuality: ceiling, bufferTimeAtTopQualityLongForm: ceiling, longFormContentDurationThreshold: Infinity });
    expect(Object.values(s.streaming.abr.rules).every((r) => r.active === false)).toBe(true);
    expect(Object.keys(s.streaming.abr.rules)).toContain('abandonRequestsRule');
  });
});
