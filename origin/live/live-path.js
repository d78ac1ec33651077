'use strict';
// A live stream's URL: /live/<startMs>/<content>/<file>. The live event's start (its
// availabilityStartTime, milliseconds since the epoch) is part of the path, so the origin keeps
// no state per viewer and every segment URL dash.js derives from the MPD (relative to it) carries
// it too; a query string would be lost on those relative URLs. The player picks the start when it
// joins (player/live/live-stream-url.js): each playback watches its own broadcast of the content
// from its first second, at its target latency.
const { UnsafePathError } = require('../safe-path');

// A start more than this far ahead of the origin's clock is a client whose clock is wrong (or a
// typo): the origin says so instead of answering "not yet available" to every request.
const MAX_START_AHEAD_MS = 60 * 1000;
// Live events older than this are refused: nothing in the lab plays one for a week.
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;
const CONTENT_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * @param {string} rest   the request path below "/live/", still percent-encoded
 * @param {number} nowMs  the origin's clock
 * @returns {{startMs: number, content: string, file: string}} file: the still-encoded path below
 *   the content's directory
 * @throws {UnsafePathError} 400 for a malformed path or start time, 404 for a path that names no
 *   live stream
 */
function parseLivePath(rest, nowMs) {
  const m = /^(\d{1,15})\/([^/]+)\/(.+)$/.exec(rest);
  if (!m) throw new UnsafePathError('a live stream path is /live/<start, ms since the epoch>/<content>/<file>, e.g. /live/1764000000000/sample/manifest.mpd', 404);
  const startMs = Number(m[1]);
  if (startMs > nowMs + MAX_START_AHEAD_MS) throw new UnsafePathError(`live start ${startMs} is ${Math.round((startMs - nowMs) / 1000)} s ahead of the origin's clock (at most ${MAX_START_AHEAD_MS / 1000} s: is the client's clock right?)`, 400);
  if (startMs < nowMs - MAX_AGE_MS) throw new UnsafePathError(`live start ${startMs} is more than ${MAX_AGE_MS / 86400000} days ago`, 400);
  if (!CONTENT_NAME_RE.test(m[2])) throw new UnsafePathError(`content name "${m[2]}" must be letters, digits, "-", "_" or "."`, 400);
  return { startMs, content: m[2], file: m[3] };
}

module.exports = { parseLivePath, MAX_START_AHEAD_MS };
