'use strict';
// dash.js jumps over gaps in its buffer by itself (its GapController): with FDSP, lost data
// leaves such gaps. Before, the recorder took every seek it had not scheduled for the viewer's,
// so the picture standing still after a jump was a "seek wait" and no rebuffering: one
// paper000-table2 playback with no seek scheduled had a 9.1 s "seek wait" and 0.37 s of
// rebuffering. The recorder now tells the two apart by dash.js's PLAYBACK_SEEKING (raised for
// every seek but its own), and the summary counts a jump's wait as rebuffering.
const { summarizePlayback } = require('../../player/qoe/summarize-playback');
const { PlaybackRecorder } = require('../../player/qoe/playback-recorder');
const { mediaEndFrom } = require('../../player/lab-player');

describe('summary', () => {
  // That playback's timeline, cut down: playing from 3.1 s; a jump 126.2675 -> 126.2843 at
  // 129.624 s, frames again at 138.715 s; one ordinary 22 ms stall after it; ended.
  const PLAYBACK = [
    { type: 'load', t: 0 },
    { type: 'playing', t: 3100 },
    { type: 'playerSeek', t: 129624, from: 126.2675, to: 126.2843 },
    { type: 'playing', t: 138715, afterPlayerSeek: true },
    { type: 'stall', t: 138735 },
    { type: 'playing', t: 138757 },
    { type: 'ended', t: 150000 },
  ];

  test("a jump's wait is rebuffering, one instance, and no seek", () => {
    const q = summarizePlayback(PLAYBACK);
    expect(q.rebufferSeconds).toBeCloseTo(9.091 + 0.022, 9);
    expect(q.rebufferInstances).toBe(2);
    expect(q.seeks).toEqual([]);
    expect(q.meanSeekWaitSeconds).toBeNull();
    expect(q.gapJumpCount).toBe(1);
    expect(q.playerSeeks).toEqual([{ t: 129624, from: 126.2675, to: 126.2843, during: 'playing', waitSeconds: 9.091 }]);
    expect(q.playSeconds).toBeCloseTo((129624 - 3100 + 138735 - 138715 + 150000 - 138757) / 1000, 9);
  });

  test('a jump within a stall adds its wait to that stall, not an instance', () => {
    const q = summarizePlayback([
      { type: 'load', t: 0 }, { type: 'playing', t: 1000 }, { type: 'stall', t: 5000 },
      { type: 'playerSeek', t: 6000, from: 4, to: 4.5 }, { type: 'playing', t: 7000 }, { type: 'ended', t: 9000 },
    ]);
    expect(q.rebufferSeconds).toBeCloseTo(2, 9);
    expect(q.rebufferInstances).toBe(1);
  });

  test("a jump to the media's end is no stall; one during startup is startup's", () => {
    const end = summarizePlayback([
      { type: 'load', t: 0 }, { type: 'playing', t: 1000 },
      { type: 'playerSeek', t: 150000, from: 149.864, to: 150 }, { type: 'ended', t: 150004 },
    ]);
    expect(end.rebufferSeconds).toBe(0);
    expect(end.rebufferInstances).toBe(0);
    expect(end.playerSeeks[0]).toMatchObject({ toEnd: true, waitSeconds: 0.004 });
    const startup = summarizePlayback([
      { type: 'load', t: 0 }, { type: 'playerSeek', t: 500, from: 0, to: 0.04 }, { type: 'playing', t: 2000, afterPlayerSeek: true }, { type: 'ended', t: 3000 },
    ]);
    expect(startup.startupDelaySeconds).toBeCloseTo(2, 9);
    expect(startup.rebufferSeconds).toBe(0);
    expect(startup.gapJumpCount).toBe(0); // listed, not a jump during playback
    expect(startup.playerSeeks).toEqual([{ t: 500, from: 0, to: 0.04, during: 'startup', waitSeconds: null }]);
  });

  test('a jump still waiting when the record ends counts to the end', () => {
    const q = summarizePlayback([{ type: 'load', t: 0 }, { type: 'playing', t: 1000 }, { type: 'playerSeek', t: 4000, from: 3, to: 3.1 }], { now: 10000 });
    expect(q.rebufferSeconds).toBeCloseTo(6, 9);
    expect(q.rebufferInstances).toBe(1);
  });
});

describe("a live stream's end (no 'ended' event)", () => {
  // The ends of two paper002-connswitch-live playbacks, cut down: dash.js, stalled within its
  // gap limit of the 600 s stream's end, jumps to 599.999999; the element then waits, and either
  // pauses 2 ms later (h2.bba2.wifi.wifi-3g.r9) or nothing follows until the record ends 1.5 ms
  // later (h3.basic.wifi.wifi-3g.r8). Each was counted as one more stall.
  const PAUSED_AFTER = [
    { type: 'load', t: 0 }, { type: 'playing', t: 1000 },
    { type: 'playerSeek', t: 601817.9, from: 599.9898, to: 599.999999 },
    { type: 'stall', t: 601819.2 }, { type: 'pause', t: 601820.1 },
  ];
  const RECORD_ENDS = [
    { type: 'load', t: 0 }, { type: 'playing', t: 1000 }, { type: 'stall', t: 508156.4 }, { type: 'playing', t: 509007.7 },
    { type: 'playerSeek', t: 609127.9, from: 599.8658, to: 599.999999 }, { type: 'stall', t: 609129.4 },
  ];

  test("told where the media ends, the jump to it is the end: no stall, no rebuffering", () => {
    const paused = summarizePlayback(PAUSED_AFTER, { mediaEndSeconds: 600 });
    expect(paused.rebufferInstances).toBe(0);
    expect(paused.rebufferSeconds).toBe(0);
    expect(paused.state).toBe('ended');
    expect(paused.playSeconds).toBeCloseTo(600.8179, 9);
    expect(paused.playerSeeks).toEqual([{ t: 601817.9, from: 599.9898, to: 599.999999, during: 'playing', waitSeconds: 0, toEnd: true }]);
    const ends = summarizePlayback(RECORD_ENDS, { mediaEndSeconds: 600 });
    expect(ends.rebufferInstances).toBe(1); // the real stall before it
    expect(ends.rebufferSeconds).toBeCloseTo(0.8513, 9);
    expect(ends.playerSeeks[0]).toMatchObject({ during: 'playing', waitSeconds: 0, toEnd: true });
  });

  test('untold, the same timelines count the jump as a stall, as they were counted before', () => {
    const paused = summarizePlayback(PAUSED_AFTER);
    expect(paused.rebufferInstances).toBe(1);
    expect(paused.rebufferSeconds).toBeCloseTo(0.0022, 9);
    const ends = summarizePlayback(RECORD_ENDS);
    expect(ends.rebufferInstances).toBe(2);
    expect(ends.rebufferSeconds).toBeCloseTo(0.8513 + 0.0015, 9);
  });

  test('a jump short of the end by more than a frame is still a jump; a jump after a jump ends both', () => {
    const short = summarizePlayback([
      { type: 'load', t: 0 }, { type: 'playing', t: 1000 }, { type: 'playerSeek', t: 5000, from: 3.5, to: 599.9 }, { type: 'playing', t: 5300 },
    ], { mediaEndSeconds: 600 });
    expect(short.rebufferInstances).toBe(1);
    expect(short.rebufferSeconds).toBeCloseTo(0.3, 9);
    const twice = summarizePlayback([
      { type: 'load', t: 0 }, { type: 'playing', t: 1000 },
      { type: 'playerSeek', t: 5000, from: 598, to: 598.6 }, { type: 'playerSeek', t: 5400, from: 598.6, to: 599.999999 },
    ], { mediaEndSeconds: 600, now: 9000 });
    expect(twice.rebufferInstances).toBe(0);
    expect(twice.playerSeeks).toEqual([
      { t: 5000, from: 598, to: 598.6, during: 'playing', waitSeconds: null, superseded: true },
      { t: 5400, from: 598.6, to: 599.999999, during: 'gap-jump', waitSeconds: 0.4, toEnd: true },
    ]);
  });

  test("the page takes the media's end from the content's index: the latest segment end of any rung", () => {
    const seg = (startTime, duration) => ({ startTime, duration });
    expect(mediaEndFrom({ representations: [{ segments: [seg(0, 2), seg(2, 2)] }, { segments: [seg(0, 2), seg(2, 2), seg(4, 1.5)] }] })).toBe(5.5);
    expect(mediaEndFrom({ representations: [{ segments: [] }] })).toBeNull();
  });

  test('a media end that is no positive number is refused', () => {
    for (const bad of [0, -600, Number.NaN, Infinity, '600']) {
      expect(() => summarizePlayback(PAUSED_AFTER, { mediaEndSeconds: bad })).toThrow(/mediaEndSeconds must be a positive number/);
    }
  });
});

describe('recorder', () => {
  /** A media element as the recorder uses it: events, and frame callbacks that never come (a wait still open). */
  function fakeVideo() {
    const target = new EventTarget();
    return Object.assign(target, { currentTime: 0, seeking: false, paused: false, readyState: 4, requestVideoFrameCallback() {} });
  }
  let clock;
  let video;
  let seeksHeard;
  let recorder;
  beforeEach(() => {
    jest.useFakeTimers();
    clock = 0;
    video = fakeVideo();
    seeksHeard = [];
    recorder = new PlaybackRecorder({ video, bufferLevel: () => 0, now: () => clock, config: {}, onSeek: (s) => seeksHeard.push(s), playerReportsSeeks: true });
    recorder.start();
    clock = 1000;
    video.dispatchEvent(new Event('playing'));
    video.currentTime = 20;
    video.dispatchEvent(new Event('timeupdate'));
  });
  afterEach(() => {
    recorder.stop();
    jest.useRealTimers();
  });
  const types = () => recorder.timeline.map((e) => e.type);

  test("a seek the player does not report is its own jump: no seek, the ABR hears nothing, seekPending stays false", () => {
    clock = 2000;
    video.currentTime = 20.02;
    video.dispatchEvent(new Event('seeking'));
    jest.runOnlyPendingTimers();
    expect(types()).toEqual(['load', 'playing', 'playerSeek']);
    expect(recorder.timeline[2]).toMatchObject({ from: 20, to: 20.02 });
    expect(seeksHeard).toEqual([]);
    expect(recorder.pendingSeek).toBeTruthy(); // its wait is measured like a seek's
    expect(recorder.seekPending).toBe(false);
    // A report that comes in a later task is about another seek, not this jump.
    recorder.viewerSeeking({ seekTime: 50 });
    expect(types()).toEqual(['load', 'playing', 'playerSeek']);
  });

  test("a jump within a scheduled seek's wait leaves it the seek's wait", () => {
    clock = 2000;
    recorder.seek(20, 60, { scheduled: true });
    video.currentTime = 60;
    video.dispatchEvent(new Event('seeking'));
    recorder.viewerSeeking({ seekTime: 60 });
    jest.runOnlyPendingTimers();
    clock = 2500;
    video.currentTime = 60.3;
    video.dispatchEvent(new Event('seeking')); // dash.js's jump over a gap at the target
    jest.runOnlyPendingTimers();
    expect(types()).toEqual(['load', 'playing', 'seek', 'playerSeek']);
    expect(recorder.seekPending).toBe(true);
    expect(seeksHeard).toEqual([{ fromSeconds: 20, toSeconds: 60, scheduled: true }]);
  });

  test("the player's report after the recorder's listener makes it the viewer's seek (lab-player's order)", () => {
    clock = 2000;
    video.currentTime = 40;
    video.dispatchEvent(new Event('seeking'));
    recorder.viewerSeeking({ seekTime: 40 }); // dash.js's own 'seeking' listener, same dispatch
    expect(types()).toEqual(['load', 'playing', 'seek']);
    expect(seeksHeard).toEqual([{ fromSeconds: 20, toSeconds: 40, scheduled: false }]);
    expect(recorder.seekPending).toBe(true);
  });

  test("dash.js's jump over the last gap to the media's end, which it reports as a seek, stays the player's", () => {
    video.duration = 30;
    clock = 2000;
    video.currentTime = 29.2;
    video.dispatchEvent(new Event('timeupdate'));
    video.currentTime = 30;
    video.dispatchEvent(new Event('seeking'));
    recorder.viewerSeeking({ seekTime: 30 });
    jest.runOnlyPendingTimers();
    expect(types()).toEqual(['load', 'playing', 'playerSeek']);
    expect(seeksHeard).toEqual([]);
    expect(recorder.seekPending).toBe(false);
    // The viewer dragging to the end from further away is the viewer's.
    video.currentTime = 10;
    video.dispatchEvent(new Event('timeupdate'));
    video.currentTime = 30;
    video.dispatchEvent(new Event('seeking'));
    recorder.viewerSeeking({ seekTime: 30 });
    expect(types()).toEqual(['load', 'playing', 'playerSeek', 'seek']);
  });

  test("a report of a scheduled seek does not make the player's next own seek the viewer's", () => {
    clock = 2000;
    recorder.seek(20, 60, { scheduled: true });
    video.currentTime = 60;
    video.dispatchEvent(new Event('seeking'));
    recorder.viewerSeeking({ seekTime: 60 });
    video.currentTime = 60.1;
    video.dispatchEvent(new Event('seeking')); // dash.js's own, before the task ends
    expect(types()).toEqual(['load', 'playing', 'seek', 'playerSeek']);
    expect(seeksHeard.length).toBe(1);
  });

  test("the player's report before the recorder's listener does too", () => {
    clock = 2000;
    video.currentTime = 40;
    recorder.viewerSeeking({ seekTime: 40 });
    video.dispatchEvent(new Event('seeking'));
    expect(types()).toEqual(['load', 'playing', 'seek']);
    expect(recorder.seekPending).toBe(true);
  });

  test("told where the media ends, its record's summary ends a live stream at the player's jump to it", () => {
    const live = new PlaybackRecorder({ video: fakeVideo(), bufferLevel: () => 0, now: () => clock, config: {}, playerReportsSeeks: true, mediaEndSeconds: 600 });
    live.start();
    clock = 1000;
    live.video.dispatchEvent(new Event('playing'));
    live.video.currentTime = 599.9898;
    live.video.dispatchEvent(new Event('timeupdate'));
    clock = 601817.9;
    live.video.currentTime = 599.999999;
    live.video.dispatchEvent(new Event('seeking'));
    jest.runOnlyPendingTimers();
    clock = 601819.2;
    live.video.dispatchEvent(new Event('waiting'));
    const { summary } = live.toJSON();
    live.stop();
    expect(summary.rebufferInstances).toBe(0);
    expect(summary.playerSeeks).toEqual([{ t: 601817.9, from: 599.9898, to: 599.999999, during: 'playing', waitSeconds: 0, toEnd: true }]);
  });

  test('without playerReportsSeeks every unscheduled seek is the viewer\'s (as before)', () => {
    const plain = new PlaybackRecorder({ video: fakeVideo(), bufferLevel: () => 0, now: () => clock, config: {} });
    plain.start();
    plain.video.dispatchEvent(new Event('seeking'));
    expect(plain.timeline.map((e) => e.type)).toEqual(['load', 'seek']);
    plain.stop();
  });
});
