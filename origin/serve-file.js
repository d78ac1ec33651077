'use strict';
// Serves files from one directory. Written against the subset of the response API that
// node:http and node:http2's compatibility layer share, so the HTTP/1.x and HTTP/2 listeners
// run this exact code (Express cannot run on node:http2: it swaps the request prototype).
const fs = require('node:fs');
const { resolveSafePath, UnsafePathError } = require('./safe-path');
const { parseByteRange } = require('./byte-range');
const { contentTypeFor } = require('./content-types');
const { sendText } = require('./responses');

/**
 * Cache policy for a CDN in front of the origin. Segments and init segments of a build never
 * change under the same name except through an explicit `--force` rebuild, so a CDN may keep
 * them a day (the ETag changes with the rebuild); MPDs, indexes and the page must be
 * revalidated every time so a rebuild or a new player is seen at once.
 */
function cacheControlFor(file) {
  return /\.(m4s|mp4|m4v)$/i.test(file) ? 'public, max-age=86400' : 'no-cache';
}

function etagFor(stat) {
  return `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
}

function etagMatches(header, etag) {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * @param {string} root  directory served
 * @returns {(req, res, relPath: string) => void}  relPath: the still-encoded path below root
 */
function serveDirectory(root) {
  let realRoot = null;
  return function serveFile(req, res, relPath) {
    let file;
    try {
      file = resolveSafePath(root, relPath);
    } catch (err) {
      if (err instanceof UnsafePathError) return sendText(res, err.status, `${err.message}\n`);
      throw err;
    }
    fs.realpath(file, (realErr, real) => {
      if (realErr) return sendText(res, 404, 'not found\n');
      try {
        realRoot = realRoot || fs.realpathSync(root);
      } catch {
        return sendText(res, 404, 'not found\n');
      }
      // A symlink inside the root must not lead out of it.
      if (!real.startsWith(realRoot + require('node:path').sep)) return sendText(res, 404, 'not found\n');
      fs.stat(real, (statErr, stat) => {
        if (statErr || !stat.isFile()) return sendText(res, 404, 'not found\n');
        sendFile(req, res, real, stat);
      });
    });
  };
}

function sendFile(req, res, file, stat) {
  const etag = etagFor(stat);
  res.setHeader('Content-Type', contentTypeFor(file));
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', stat.mtime.toUTCString());
  res.setHeader('Cache-Control', cacheControlFor(file));

  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  if (inm ? etagMatches(inm, etag) : ims && Date.parse(ims) >= Math.floor(stat.mtimeMs / 1000) * 1000) {
    res.statusCode = 304;
    return res.end();
  }

  // If-Range: a range only applies while the client's copy is still the current one.
  const ifRange = req.headers['if-range'];
  const rangeHeader = ifRange && ifRange.trim() !== etag ? undefined : req.headers.range;
  const range = parseByteRange(rangeHeader, stat.size);
  if (range && range.unsatisfiable) {
    res.setHeader('Content-Range', `bytes */${stat.size}`);
    return sendText(res, 416, 'range not satisfiable\n');
  }
  const start = range ? range.start : 0;
  const end = range ? range.end : stat.size - 1;
  const length = stat.size === 0 ? 0 : end - start + 1;
  res.statusCode = range ? 206 : 200;
  if (range) res.setHeader('Content-Range', `bytes ${start}-${end}/${stat.size}`);
  res.setHeader('Content-Length', String(length));
  if (req.method === 'HEAD' || length === 0) return res.end();

  const stream = fs.createReadStream(file, { start, end });
  stream.on('data', (chunk) => {
    res.labBodyBytes = (res.labBodyBytes || 0) + chunk.length;
  });
  stream.on('error', () => {
    // Headers are out already; all that is left is to cut the response short.
    if (typeof res.destroy === 'function') res.destroy();
    else res.stream.close();
  });
  // A client that goes away must not keep the file open.
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}

module.exports = { serveDirectory, cacheControlFor, etagFor };
