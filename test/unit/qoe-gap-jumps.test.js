'use strict';
// dash.js jumps over gaps in its buffer by itself (its GapController): with FDSP, lost data
// leaves such gaps. Before, the recorder took every seek it had not scheduled for the viewer's,
// so the picture standing still after a jump was a "seek wait" and no rebuffering: one
// paper000-table2 playback with no seek scheduled had a 9.1 s "seek wait" and 0.37 s of
// rebuffering. The recorder now tells the two apart by dash.js's PLAYBACK_SEEKING (raised for
// every seek but its own), and the summary counts a jump's wait as rebuffering.
const { summarizePlayback } = require('../../player/qoe/summarize-playback');
const { PlaybackRecorder } = require('../../player/qoe/playback-recorder');

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

  test('without playerReportsSeeks every unscheduled seek is the viewer\'s (as before)', () => {
    const plain = new PlaybackRecorder({ video: fakeVideo(), bufferLevel: () => 0, now: () => clock, config: {} });
    plain.start();
    plain.video.dispatchEvent(new Event('seeking'));
    expect(plain.timeline.map((e) => e.type)).toEqual(['load', 'seek']);
    plain.stop();
  });
});
