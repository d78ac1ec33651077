'use strict';
// The origin's /live/ route: every built content, broadcast live (live-path.js says how a URL
// names a broadcast). The MPD is made dynamic per request (dynamic-manifest.js); a media segment
// is served only inside its availability window (segment-availability.js), else 404 with the
// reason; init segments and the lab's metadata are served as on demand. The files themselves go
// through the content route's own handler, so Range, ETags, CORS, hostile-path refusals and the
// request log are the on-demand ones.
const fs = require('node:fs');
const path = require('node:path');
const { resolveSafePath, UnsafePathError } = require('../safe-path');
const { realPathInsideAsync } = require('../real-path-inside');
const { sendText, sendBody } = require('../responses');
const { parseLivePath } = require('./live-path');
const { segmentAvailability } = require('./segment-availability');
const { dynamicManifest } = require('./dynamic-manifest');

// How long a segment stays available after it ends: long enough that a player stalled through
// paper 002's connection switches never falls out of it; it is declared in the MPD.
const DEFAULT_TIME_SHIFT_SECONDS = 300;
// The suggested presentation delay in segments, for players that bring no target latency of
// their own (the lab's page sets its own: player/live/).
const SUGGESTED_DELAY_SEGMENTS = 3;

/**
 * A content's segment numbers by file name, its segment duration and count, from index.json;
 * read again when the file changes (a rebuild with --force).
 */
function createSegmentTable(contentDir) {
  const cache = new Map(); // content -> {mtimeMs, table}
  return async function segmentTable(content) {
    const file = await realPathInsideAsync(contentDir, resolveSafePath(contentDir, `${encodeURIComponent(content)}/index.json`));
    const stat = await fs.promises.stat(file);
    const hit = cache.get(content);
    if (hit && hit.mtimeMs === stat.mtimeMs) return hit.table;
    const index = JSON.parse(await fs.promises.readFile(file, 'utf8'));
    const numberByFile = new Map();
    let segmentCount = 0;
    for (const rep of index.representations || []) {
      for (const seg of rep.segments || []) {
        numberByFile.set(seg.url, seg.number);
        segmentCount = Math.max(segmentCount, seg.number);
      }
    }
    if (!(index.segmentDuration > 0) || !segmentCount) throw new Error(`content "${content}": index.json has no segments`);
    const table = { segmentSeconds: index.segmentDuration, segmentCount, numberByFile };
    cache.set(content, { mtimeMs: stat.mtimeMs, table });
    return table;
  };
}

/**
 * @param {object} o
 * @param {string} o.contentDir
 * @param {(req, res, relPath) => void} o.serveContent  the content route's file handler
 * @param {() => number} [o.now]                         the origin's clock (ms since the epoch)
 * @param {number} [o.timeShiftSeconds]
 * @returns {(req, res, rest: string) => void}  rest: the path below "/live/"
 */
function createLiveRoute({ contentDir, serveContent, now = Date.now, timeShiftSeconds = DEFAULT_TIME_SHIFT_SECONDS }) {
  const segmentTable = createSegmentTable(contentDir);

  async function handle(req, res, rest) {
    const nowMs = now();
    const { startMs, content, file } = parseLivePath(rest, nowMs);
    let table;
    try {
      table = await segmentTable(content);
    } catch (err) {
      if (err instanceof UnsafePathError || err.code === 'ENOENT') return sendText(res, 404, `content "${content}" is not built (no index.json)\n`);
      throw err;
    }
    // The name the file really has: "%2e/chunk-0-00001.m4s" or "./chunk-..." must not get past
    // the availability check by naming the same file differently.
    const name = path.relative(path.resolve(contentDir, content), resolveSafePath(contentDir, `${content}/${file}`)).split(path.sep).join('/');
    if (name === 'manifest.mpd') {
      const mpdFile = await realPathInsideAsync(contentDir, resolveSafePath(contentDir, `${encodeURIComponent(content)}/manifest.mpd`));
      const text = dynamicManifest(await fs.promises.readFile(mpdFile, 'utf8'), {
        startMs,
        nowMs,
        timeShiftSeconds,
        suggestedDelaySeconds: SUGGESTED_DELAY_SEGMENTS * table.segmentSeconds,
      });
      return sendBody(res, 200, 'application/dash+xml', text);
    }
    const number = table.numberByFile.get(name);
    if (number !== undefined) {
      const a = segmentAvailability({ startMs, nowMs, number, timeShiftSeconds, segmentSeconds: table.segmentSeconds, segmentCount: table.segmentCount });
      // 404 is what DASH players expect for a segment outside its window (ISO/IEC 23009-1 A.7).
      if (!a.available) return sendText(res, 404, `${a.message}\n`);
    }
    return serveContent(req, res, `${encodeURIComponent(content)}/${file}`);
  }

  return function liveRoute(req, res, rest) {
    handle(req, res, rest).catch((err) => {
      if (err instanceof UnsafePathError) return sendText(res, err.status, `${err.message}\n`);
      return sendText(res, 500, `live: ${err.message}\n`);
    });
  };
}

module.exports = { createLiveRoute, DEFAULT_TIME_SHIFT_SECONDS };
