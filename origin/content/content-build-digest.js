'use strict';
// Which build of a content a playback played. A preset builds to the same bytes everywhere since
// 2026-12-02 (synthetic-source.js, encode-dash.js); before, two builds of paper-quic differed in
// 473 of 491 segments compared, and a content built with another ffmpeg or x264, another preset
// or user video still differs, so a run resumed over another build would mix two contents. The
// digest covers what a playback fetches: each representation's init and segment sizes (a
// re-encode that changed bytes but no size would go unseen; hashing every file would read
// hundreds of MB at each run's start).
const crypto = require('node:crypto');
const path = require('node:path');
const { readSegmentIndex } = require('./segment-index');

/** 12 hex digits of SHA-256 over a segment index's representations and their sizes. */
function digestOfIndex(index) {
  if (!index || !Array.isArray(index.representations)) throw new Error('not a segment index (no representations)');
  const hash = crypto.createHash('sha256');
  for (const r of index.representations) {
    hash.update(`${r.id} ${r.bandwidth} init ${r.init ? r.init.size : '-'}\n`);
    for (const s of r.segments) hash.update(`${s.number} ${s.size}\n`);
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * @param {string} contentDir  a built content (holds index.json)
 * @returns {{digest: string}|{digest: null, why: string}}
 */
function contentBuildDigest(contentDir) {
  try {
    return { digest: digestOfIndex(readSegmentIndex(contentDir)) };
  } catch (err) {
    return { digest: null, why: `${path.join(contentDir, 'index.json')}: ${err.code === 'ENOENT' ? 'not found' : err.message}` };
  }
}

module.exports = { contentBuildDigest, digestOfIndex };
