'use strict';
// What a simulated player fetches, read from the content's segment index (index.json): the
// MPD, and per representation (rung) its init segment and media segments with their real
// durations, as URL paths on the origin.
const fs = require('node:fs');
const path = require('node:path');

/**
 * @param {string} contentDir  the content root (holds NAME/)
 * @param {string} name        content directory name, e.g. "sample"
 * @returns {{name: string, mpdPath: string, durationSeconds: number, rungs: {id: string, bandwidth: number,
 *   initPath: string, segments: {path: string, bytes: number, seconds: number}[]}[]}}
 */
function loadContentPlan(contentDir, name) {
  const indexFile = path.join(contentDir, name, 'index.json');
  let index;
  try {
    index = JSON.parse(fs.readFileSync(indexFile, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the segment index ${indexFile} (${err.code || err.message}); build the content with "npm run content -- ${name}"`);
  }
  if (!Array.isArray(index.representations) || index.representations.length === 0) {
    throw new Error(`${indexFile} lists no representations`);
  }
  const base = `/content/${encodeURIComponent(name)}`;
  const rungs = index.representations
    .map((r) => ({
      id: String(r.id),
      bandwidth: r.bandwidth,
      initPath: `${base}/${r.init.url}`,
      segments: r.segments.map((s) => ({ path: `${base}/${s.url}`, bytes: s.size, seconds: s.duration })),
    }))
    .sort((a, b) => a.bandwidth - b.bandwidth);
  for (const r of rungs) {
    if (r.segments.length === 0 || r.segments.some((s) => !(s.seconds > 0))) throw new Error(`${indexFile}: representation ${r.id} has no segments or a segment without a duration`);
  }
  return {
    name,
    mpdPath: `${base}/${index.mpd || 'manifest.mpd'}`,
    durationSeconds: rungs[0].segments.reduce((a, s) => a + s.seconds, 0),
    rungs,
  };
}

module.exports = { loadContentPlan };
