'use strict';
// Serves files from one directory. Written against the subset of the request/response API
// that node:http and node:http2's compatibility layer share, so the HTTP/1.x and HTTP/2
// listeners run this exact code (Express cannot run on node:http2: it swaps the request
// prototype). Method checks, OPTIONS and CORS belong to the router; this is GET/HEAD only.
const fs = require('node:fs');
const path = require('node:path');
const { pipeline } = require('node:stream');
const { resolveSafePath, UnsafePathError } = require('./safe-path');
const { parseByteRange } = require('./byte-range');
const { contentTypeFor } = require('./content-types');
const { clientGone, sendText } = require('./responses');
const { realPathInside } = require('./real-path-inside');

// Segments keep their names across a `--force` rebuild while their bytes change, so they are
// not immutable: a year-long max-age would let a CDN pair old segments with a new MPD for a
// year. Five minutes bounds that window and still spares the origin repeated fetches of the
// same segment by many players; after it the ETag (size + mtime, which a rebuild changes)
// makes revalidation a cheap 304.
const SEGMENT_MAX_AGE_SECONDS = 300;

/**
 * Cache policy for a CDN in front of the origin: media for a few minutes; MPDs, segment
 * indexes and the page are revalidated on every use ("no-cache" = store but always ask,
 * answered by a 304), because they decide which segments a player asks for.
 */
function cacheControlFor(file) {
  return /\.(m4s|mp4|m4v|m4a)$/i.test(file) ? `public, max-age=${SEGMENT_MAX_AGE_SECONDS}` : 'no-cache';
}

/** A strong validator: a rebuild rewrites the file, changing its mtime (and usually size). */
function etagFor(stat) {
  return `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/ prefixes do not matter. */
function noneMatchHits(header, etag) {
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** 304 decision (RFC 9110 §13.2.2): If-None-Match wins; If-Modified-Since only without it. */
function isNotModified(headers, etag, stat) {
  const inm = headers['if-none-match'];
  if (inm !== undefined) return noneMatchHits(inm, etag);
  const since = Date.parse(headers['if-modified-since'] || '');
  // HTTP dates have whole seconds; a file modified within the same second is "not newer".
  return Number.isFinite(since) && since >= Math.floor(stat.mtimeMs / 1000) * 1000;
}

/**
 * If-Range (RFC 9110 §13.1.5): the range applies only while the client's partial copy is the
 * current one; otherwise the whole new file is sent. ETags compare strongly (a weak one never
 * matches); a date must equal Last-Modified exactly.
 */
function rangeStillApplies(headers, etag, lastModified) {
  const ifRange = headers['if-range'];
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  return value === lastModified;
}

// Streaming reads in pieces this large: one read per piece, each a round trip to libuv's thread
// pool; Node's default 64 KiB made a 450 KiB segment 8 of them.
const STREAM_CHUNK_BYTES = 512 * 1024;

/**
 * @param {string} root  directory served
 * @param {object} [o]
 * @param {import('./file-cache').FileCache|null} [o.cache]  files kept in memory (null: always read from disk)
 * @returns {(req, res, relPath: string) => void}  relPath: the still-encoded path below root
 */
function serveDirectory(root, { cache = null } = {}) {
  return function serveFile(req, res, relPath) {
    let file;
    try {
      file = resolveSafePath(root, relPath);
    } catch (err) {
      if (err instanceof UnsafePathError) return sendText(res, err.status, `${err.message}\n`);
      throw err;
    }
    realPathInside(root, file, (outside, real) => {
      if (outside) return sendText(res, outside.status, `${outside.message}\n`);
      fs.stat(real, (statErr, stat) => {
        if (statErr || !stat.isFile()) return sendText(res, 404, 'not found\n');
        if (clientGone(res)) return undefined;
        return sendFile(req, res, real, stat, cache);
      });
    });
  };
}

function sendFile(req, res, file, stat, cache) {
  const etag = etagFor(stat);
  const lastModified = stat.mtime.toUTCString();
  res.setHeader('Content-Type', contentTypeFor(file));
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', lastModified);
  res.setHeader('Cache-Control', cacheControlFor(file));

  if (isNotModified(req.headers, etag, stat)) {
    res.statusCode = 304;
    return res.end();
  }

  const rangeHeader = rangeStillApplies(req.headers, etag, lastModified) ? req.headers.range : undefined;
  const range = parseByteRange(rangeHeader, stat.size);
  if (range && range.unsatisfiable) {
    res.setHeader('Content-Range', `bytes */${stat.size}`);
    // A 416 is only true of this version of the file: a cache must not keep it past a rebuild.
    res.setHeader('Cache-Control', 'no-store');
    return sendText(res, 416, 'range not satisfiable\n');
  }
  const start = range ? range.start : 0;
  const end = range ? range.end : stat.size - 1;
  const length = stat.size === 0 ? 0 : end - start + 1;
  res.statusCode = range ? 206 : 200;
  if (range) res.setHeader('Content-Range', `bytes ${start}-${end}/${stat.size}`);
  res.setHeader('Content-Length', String(length));
  if (req.method === 'HEAD' || length === 0) return res.end();

  if (cache && cache.fits(stat)) {
    cache.read(file, stat).then((bytes) => {
      if (clientGone(res)) return;
      if (bytes === null) return streamBody(req, res, file, start, end); // changed under us
      res.labBodyBytes = length;
      res.end(bytes.subarray(start, end + 1));
    }, (err) => cutShort(res, err));
    return undefined;
  }
  return streamBody(req, res, file, start, end);
}

/** A read error after the headers were set: the response is cut (RST / closed socket). */
function cutShort(res, err) {
  if (res.headersSent) res.destroy(err);
  else if (err.code === 'ENOENT') sendText(res, 404, 'not found\n'); // removed since its stat
  else sendText(res, 500, 'cannot read the file\n');
}

function streamBody(req, res, file, start, end) {
  // Streamed, never read whole: files past the cache's limit can be large, and many can be
  // in flight at once.
  return pipeBody(req, res, fs.createReadStream(file, { start, end, highWaterMark: STREAM_CHUNK_BYTES }));
}

/** Sends a readable stream as the response body, counting its bytes, and never leaks it. */
function pipeBody(req, res, body) {
  body.on('data', (chunk) => {
    // Counted as handed to the response; for an aborted response this can exceed what
    // reached the client by what sat in socket buffers.
    res.labBodyBytes = (res.labBodyBytes || 0) + chunk.length;
  });
  // pipeline destroys both ends on any failure: a client that hangs up closes the body's
  // source, and a read error cuts the response (RST / closed socket) instead of leaving it
  // hanging with a Content-Length it can no longer meet. The request log records it as aborted.
  pipeline(body, res, () => {});
  // ...except for a response still queued behind others on a pipelined HTTP/1.1 connection:
  // when the client drops it, node:http destroys the queued requests but never the queued
  // responses, which emit no 'close', so pipeline never ends and the file stays open for the
  // life of the process (20 dropped connections x 5 pipelined GETs leaked 40 descriptors). The
  // request does close, on a normal end (after the response) and on an abort alike.
  const dropUnsent = () => {
    if (!res.writableFinished) body.destroy();
  };
  // A request closed before its body was opened (the client dropped while its file's stat was
  // in flight) emits no further 'close': waiting for one left the file open for good (CI saw
  // 8 of 100 such descriptors still open 5 s after the drop). On a live request `closed` is
  // false until its response has finished, so this never cuts a response that is wanted.
  if (req.closed || req.destroyed) dropUnsent();
  else req.once('close', dropUnsent);
  return undefined;
}

module.exports = { serveDirectory, cacheControlFor, etagFor, isNotModified, rangeStillApplies, SEGMENT_MAX_AGE_SECONDS, pipeBody };
