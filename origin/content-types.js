'use strict';
// Content-Type by file extension. DASH players and MSE care about the first three: dash.js
// accepts an MPD whatever its type, but a CDN or a proxy decides compression and caching by
// type, and a segment served as text/* could be transformed on the way.
const path = require('node:path');

const TYPES = {
  '.mpd': 'application/dash+xml',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.m4a': 'audio/mp4',
  '.json': 'application/json; charset=utf-8',
  '.ndjson': 'application/x-ndjson; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.vtt': 'text/vtt; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
};

/** @param {string} file  a file name or path */
function contentTypeFor(file) {
  return TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream';
}

module.exports = { contentTypeFor };
