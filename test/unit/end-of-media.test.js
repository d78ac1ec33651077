'use strict';
// A playhead standing at the end of on-demand media without the element's `ended` counts as the
// end after STUCK_MS (player/playback/end-of-media.js): one paper004-differential playback sat at
// 120 of 120 s until the runner's timeout.
const { createEndOfMedia, END_SLACK_S, STUCK_MS } = require('../../player/playback/end-of-media');

test('at the end and not moving for STUCK_MS: the end; moving, or short of the end: not', () => {
  const e = createEndOfMedia();
  expect(e.atEnd(120, 120, 0)).toBe(false);
  expect(e.atEnd(120, 120, STUCK_MS - 1)).toBe(false);
  expect(e.atEnd(120, 120, STUCK_MS)).toBe(true);

  const moving = createEndOfMedia();
  for (let i = 0; i <= 10; i++) expect(moving.atEnd(120 - END_SLACK_S + i * 0.02, 120, i * 500)).toBe(false);

  // A stall 2 s before the end (the last segment not in yet) is a stall, however long.
  const stalled = createEndOfMedia();
  expect(stalled.atEnd(118, 120, 0)).toBe(false);
  expect(stalled.atEnd(118, 120, 60000)).toBe(false);
});

test('leaving the end (a seek back) starts the count again; live media (duration Infinity) has no end', () => {
  const e = createEndOfMedia();
  e.atEnd(120, 120, 0);
  expect(e.atEnd(40, 120, 1500)).toBe(false);
  expect(e.atEnd(120, 120, 1600)).toBe(false);
  expect(e.atEnd(120, 120, 1600 + STUCK_MS)).toBe(true);
  const live = createEndOfMedia();
  expect(live.atEnd(500, Infinity, 0)).toBe(false);
  expect(live.atEnd(500, Infinity, 10 * STUCK_MS)).toBe(false);
  expect(live.atEnd(0, NaN, 10 * STUCK_MS)).toBe(false);
});
