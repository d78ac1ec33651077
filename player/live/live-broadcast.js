'use strict';
// Where a live playback joins: the origin broadcasts every content live under
// /live/<start>/<content>/ (origin/live/), the start being the broadcast's
// availabilityStartTime. The player starts the broadcast its target latency before it joins, so
// that it plays the content from its first second at that latency: every playback of a scenario
// sees the same media at the same offsets from its start (paper 002's connection switches at
// 60, 180, ... s fall on the same media), and the first segments are available at once. Pure.

/**
 * @param {number} nowMs          the client's clock when the playback starts (Date.now())
 * @param {number} delaySeconds   the target latency
 * @returns {number} the broadcast's start, whole milliseconds since the epoch
 */
function broadcastStartMs(nowMs, delaySeconds) {
  return Math.floor(nowMs - delaySeconds * 1000);
}

/** The broadcast's MPD path. */
function liveManifestPath(content, startMs) {
  return `/live/${startMs}/${encodeURIComponent(content)}/manifest.mpd`;
}

module.exports = { broadcastStartMs, liveManifestPath };
