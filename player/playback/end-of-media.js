'use strict';
// Whether an on-demand playback has reached the end of its media without the element saying so.
// Chromium normally sets `ended` (and fires 'ended') there, and the page stops on either; but in
// one paper004-differential playback (2026-11-25) the page sat at media time 120 of 120 s without
// either until the runner's 480 s timeout failed it. So: the playhead within END_SLACK_S of the
// duration and not moving for STUCK_MS counts as the end too. Pure: the ticker gives the times.

const END_SLACK_S = 0.25;
const STUCK_MS = 2000;

/**
 * @returns {{atEnd: (mediaTime: number, duration: number, nowMs: number) => boolean}}
 *   atEnd: call on every tick; true once the playhead has stood at the end for STUCK_MS
 */
function createEndOfMedia() {
  let last = null; // {mediaTime, since}
  return {
    atEnd(mediaTime, duration, nowMs) {
      if (!(Number.isFinite(duration) && duration > 0 && mediaTime >= duration - END_SLACK_S)) {
        last = null;
        return false;
      }
      if (!last || mediaTime !== last.mediaTime) last = { mediaTime, since: nowMs };
      return nowMs - last.since >= STUCK_MS;
    },
  };
}

module.exports = { createEndOfMedia, END_SLACK_S, STUCK_MS };
