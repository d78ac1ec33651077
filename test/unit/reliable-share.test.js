'use strict';
// What FDSP sends reliably per BP (shared/fdsp/reliable-share.js) on a priority map worked out by
// hand, and a built content's shares read from its index and priority maps (content-shares.js).
const fs = require('node:fs');
const path = require('node:path');
const { reliableShares } = require('../../shared/fdsp/reliable-share');
const { contentShares, formatContentShares } = require('../../origin/content/content-shares');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

// One 10,000-byte segment: 1,000 B of container and headers, an I-slice of 2,000 B, P-slices of
// 7,000 B. BP 50 sends the first 1,000 B of the I-slice reliably.
const SEGMENT = {
  size: 10000,
  priority: { ranges: [[0, 800, 'container'], [800, 1000, 'sliceHeader'], [1000, 3000, 'iSliceData'], [3000, 10000, 'pbSliceData']] },
};

test('bytes: the critical data, plus BP % of the I-slice data', () => {
  const s = reliableShares([SEGMENT, SEGMENT], { bps: [0, 50, 100] });
  expect(s).toMatchObject({ segments: 2, bytes: 20000, iSliceBytesShare: 0.2, iSlices: 2 });
  expect(s.byBp.map((b) => b.bytesShare)).toEqual([0.1, 0.2, 0.3]);
});

test('packets of 1100 B: reliable bytes packed together, unreliable cut per range', () => {
  const [bp0, bp50, bp100] = reliableShares([SEGMENT], { bps: [0, 50, 100] }).byBp;
  // BP 0: reliable 1,000 B = 1 packet; unreliable [1000,10000) (the I- and P-slice data are
  // adjacent: one range) = 9 packets.
  expect(bp0.packetsShare).toBeCloseTo(1 / 10, 12);
  // BP 50: reliable 2,000 B in two ranges, packed: 2; unreliable [2000,10000): 8.
  expect(bp50.packetsShare).toBeCloseTo(2 / 10, 12);
  // BP 100: reliable 3,000 B: 3; unreliable [3000,10000): 7.
  expect(bp100.packetsShare).toBeCloseTo(3 / 10, 12);
});

test('a content directory: per rung, with I-frames per 30 s from the segment index', () => {
  const dir = makeLabTempDir('shares');
  try {
    fs.writeFileSync(path.join(dir, 'index.json'), JSON.stringify({
      segmentDuration: 10,
      representations: [{ id: '0', bandwidth: 1000000, height: 1080, priorityMaps: 'priority-0.json', segments: [{ duration: 10, frames: { I: 2 } }, { duration: 5, frames: { I: 1 } }] }],
    }));
    fs.writeFileSync(path.join(dir, 'priority-0.json'), JSON.stringify({ segments: [SEGMENT, SEGMENT] }));
    const shares = contentShares(dir);
    expect(shares.representations[0]).toMatchObject({ bandwidth: 1000000, iSliceBytesShare: 0.2, iFramesPer30Seconds: 6 });
    expect(formatContentShares(shares)[1]).toBe(`  1000 kbit/s 1080p: I-slice data 20.0 % of bytes, 6.0 I-frames per 30 s; BP 0 10.0 % / 10.0 %, BP 25 15.0 % / 20.0 %, BP 50 20.0 % / 20.0 %, BP 75 25.0 % / 30.0 %, BP 100 30.0 % / 30.0 %`);
    expect(() => contentShares(path.join(dir, 'nope'))).toThrow('has no index.json: not a built content');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
