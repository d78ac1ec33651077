'use strict';
// A built content's FDSP shares per representation (shared/fdsp/reliable-share.js), read from
// its segment index and priority maps: what `npm run content -- --shares` prints and what a run
// of an FDSP scenario records beside its playbacks (content-shares.json), so a report can say
// how much BP could change.
const fs = require('node:fs');
const path = require('node:path');
const { reliableShares } = require('../../shared/fdsp/reliable-share');

/**
 * @param {string} dir  a built content's directory (index.json inside)
 * @returns {{content: string, segmentSeconds: number, representations: object[]}}
 */
function contentShares(dir) {
  const indexFile = path.join(dir, 'index.json');
  if (!fs.existsSync(indexFile)) throw new Error(`${dir} has no index.json: not a built content (npm run content -- PRESET)`);
  const index = JSON.parse(fs.readFileSync(indexFile, 'utf8'));
  const representations = index.representations.map((r) => {
    const maps = JSON.parse(fs.readFileSync(path.join(dir, r.priorityMaps), 'utf8'));
    const s = reliableShares(maps.segments);
    const seconds = r.segments.reduce((a, x) => a + x.duration, 0);
    // The segment index counts each segment's frames by type (segment-index.js).
    const iFrames = r.segments.reduce((a, x) => a + ((x.frames && x.frames.I) || 0), 0);
    return {
      id: r.id,
      bandwidth: r.bandwidth,
      height: r.height,
      iSliceBytesShare: s.iSliceBytesShare,
      iFramesPer30Seconds: seconds ? iFrames * (30 / seconds) : 0,
      byBp: s.byBp,
    };
  });
  return { content: path.basename(dir), segmentSeconds: index.segmentDuration, representations };
}

const pct = (x) => `${(100 * x).toFixed(1)} %`;

/** Text lines: one per representation, the I-slice share and the reliable share per BP. */
function formatContentShares(shares) {
  const bps = shares.representations[0] ? shares.representations[0].byBp.map((b) => b.bp) : [];
  return [
    `${shares.content}: reliable share of bytes / of packets (1100 B) per BP ${bps.join('/')}`,
    ...shares.representations.map((r) => `  ${Math.round(r.bandwidth / 1000)} kbit/s ${r.height}p: I-slice data ${pct(r.iSliceBytesShare)} of bytes, ${r.iFramesPer30Seconds.toFixed(1)} I-frames per 30 s; `
      + r.byBp.map((b) => `BP ${b.bp} ${pct(b.bytesShare)} / ${pct(b.packetsShare)}`).join(', ')),
  ];
}

module.exports = { contentShares, formatContentShares };
