'use strict';
const { nextSegmentNumber } = require('../../player/dash/next-segment-number');

describe('nextSegmentNumber (the segment whose size SARA and BBA-2 look at)', () => {
  test('a buffer ending on a boundary names the segment that starts there', () => {
    // 4 s segments, playhead 518.736, 9.264 s buffered: the buffer ends at 528 = end of segment 132.
    expect(nextSegmentNumber(518.736, 9.264, 4)).toBe(133);
  });

  test("dash.js's millisecond rounding of the buffer level does not name the buffered segment", () => {
    // Buffer really ends at 528 s; the level reads 0.4 ms short of it (527.9996 s).
    expect(nextSegmentNumber(518.7366, 9.263, 4)).toBe(133);
    // What the old floor(x / V + 1e-6) + 1 gave for the same reading: the segment already buffered.
    expect(Math.floor((518.7366 + 9.263) / 4 + 1e-6) + 1).toBe(132);
  });

  test('a playhead that has moved on since the level was read still names the same segment', () => {
    expect(nextSegmentNumber(519.0, 9.264, 4)).toBe(133);
  });

  test('an empty buffer (start, or right after a seek) names the segment under the playhead', () => {
    expect(nextSegmentNumber(0, 0, 4)).toBe(1);
    expect(nextSegmentNumber(100, 0, 4)).toBe(26); // a seek to 100 s: segment 26 covers [100, 104)
    expect(nextSegmentNumber(101.5, 0, 4)).toBe(26);
    expect(nextSegmentNumber(103.5, 0, 2)).toBe(52);
  });

  test('missing or negative readings count as zero, a bad segment duration throws', () => {
    expect(nextSegmentNumber(NaN, NaN, 2)).toBe(1);
    expect(nextSegmentNumber(10, -1, 2)).toBe(6);
    expect(() => nextSegmentNumber(10, 1, 0)).toThrow(/segment duration/);
  });
});
