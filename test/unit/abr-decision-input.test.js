'use strict';
const { validateDecisionInput } = require('../../player/abr/decision-input');
const { ALGORITHMS } = require('../../player/abr');

// Paper 003's 14-rung ladder, 2 s segments.
const KBPS = [100, 200, 350, 500, 700, 900, 1100, 1300, 1600, 1900, 2300, 2800, 3400, 4500];
const ladder = () => KBPS.map((k, index) => ({ index, bandwidth: k * 1000, id: `v${index}` }));

function valid(overrides = {}) {
  return {
    ladder: ladder(),
    currentIndex: 3,
    bufferLevelSeconds: 6,
    segmentDurationSeconds: 2,
    recentDownloads: [{ bytes: 125000, seconds: 0.5, representationIndex: 3 }],
    nextSegmentSizes: KBPS.map((k) => k * 250),
    started: true,
    playing: true,
    justSeeked: false,
    ...overrides,
  };
}

describe('validateDecisionInput accepts', () => {
  test('a complete input, returning it unchanged (extra fields such as rung ids are ignored)', () => {
    const input = valid();
    expect(validateDecisionInput(input)).toBe(input);
  });

  test('the optional fields absent or null, and the start of a session', () => {
    const input = {
      ladder: ladder(),
      currentIndex: null,
      bufferLevelSeconds: 0,
      segmentDurationSeconds: 4,
      recentDownloads: [],
      nextSegmentSizes: null,
      averageSegmentSizes: null,
      upcomingLowestRungSizes: null,
    };
    expect(() => validateDecisionInput(input)).not.toThrow();
  });

  test('a download of a representation no longer in the ladder (-1, indexOf style) or unknown (null)', () => {
    expect(() => validateDecisionInput(valid({ recentDownloads: [{ bytes: 1, seconds: 1, representationIndex: -1 }, { bytes: 1, seconds: 1, representationIndex: null }] }))).not.toThrow();
  });

  test('a single-rung ladder and an empty look-ahead list (end of content)', () => {
    expect(() => validateDecisionInput(valid({ ladder: [{ index: 0, bandwidth: 500000 }], currentIndex: 0, recentDownloads: [{ bytes: 125000, seconds: 1, representationIndex: 0 }], nextSegmentSizes: [125000], upcomingLowestRungSizes: [] }))).not.toThrow();
  });
});

describe('validateDecisionInput rejects, naming the field', () => {
  test.each([
    ['not an object', null, TypeError, /must be an object, got null/],
    ['an array', [], TypeError, /must be an object, got an array/],
    ['no ladder', valid({ ladder: undefined }), TypeError, /ladder must be an array/],
    ['an empty ladder', valid({ ladder: [] }), RangeError, /ladder is empty/],
    ['a rung that is not an object', valid({ ladder: [{ index: 0, bandwidth: 1 }, 5] }), TypeError, /ladder\[1\] must be an object/],
    ['a rung index that is not its position', valid({ ladder: ladder().map((r, i) => ({ ...r, index: i + 1 })) }), RangeError, /ladder\[0\]\.index is 1; it must equal its position 0/],
    ['a NaN bandwidth', valid({ ladder: [{ index: 0, bandwidth: NaN }] }), TypeError, /ladder\[0\]\.bandwidth \(bits\/s\) must be a finite number, got NaN/],
    ['a zero bandwidth', valid({ ladder: [{ index: 0, bandwidth: 0 }] }), RangeError, /ladder\[0\]\.bandwidth \(bits\/s\) must be > 0/],
    ['an unsorted ladder', valid({ ladder: [{ index: 0, bandwidth: 500000 }, { index: 1, bandwidth: 300000 }] }), RangeError, /not sorted strictly ascending.*ladder\[0\] is 500000 bits\/s, ladder\[1\] is 300000/],
    ['two rungs with the same bandwidth', valid({ ladder: [{ index: 0, bandwidth: 500000 }, { index: 1, bandwidth: 500000 }] }), RangeError, /not sorted strictly ascending/],
    ['currentIndex past the top', valid({ currentIndex: 14 }), RangeError, /currentIndex must be a ladder position 0\.\.13 or null, got 14/],
    ['a fractional currentIndex', valid({ currentIndex: 1.5 }), RangeError, /currentIndex/],
    ['a NaN buffer', valid({ bufferLevelSeconds: NaN }), TypeError, /bufferLevelSeconds must be a finite number, got NaN/],
    ['a missing buffer', valid({ bufferLevelSeconds: undefined }), TypeError, /bufferLevelSeconds must be a finite number, got undefined/],
    ['a buffer given as a string', valid({ bufferLevelSeconds: '6' }), TypeError, /bufferLevelSeconds must be a finite number, got "6"/],
    ['a negative buffer', valid({ bufferLevelSeconds: -0.1 }), RangeError, /bufferLevelSeconds must be >= 0, got -0\.1/],
    ['a zero segment duration', valid({ segmentDurationSeconds: 0 }), RangeError, /segmentDurationSeconds must be > 0/],
    ['an infinite segment duration', valid({ segmentDurationSeconds: Infinity }), TypeError, /segmentDurationSeconds must be a finite number/],
    ['downloads that are not an array', valid({ recentDownloads: null }), TypeError, /recentDownloads must be an array/],
    ['a download that took no time', valid({ recentDownloads: [{ bytes: 1000, seconds: 0 }] }), RangeError, /recentDownloads\[0\]\.seconds must be > 0, got 0/],
    ['a download with negative bytes', valid({ recentDownloads: [{ bytes: -1, seconds: 1 }] }), RangeError, /recentDownloads\[0\]\.bytes must be > 0/],
    ['a download of a rung past the top', valid({ recentDownloads: [{ bytes: 1, seconds: 1, representationIndex: 14 }] }), RangeError, /representationIndex must be a ladder position 0\.\.13, -1 or null, got 14/],
    ['next sizes for the wrong number of rungs', valid({ nextSegmentSizes: [1, 2, 3] }), RangeError, /nextSegmentSizes has 3 entries but the ladder has 14 rungs/],
    ['a next size that is null', valid({ nextSegmentSizes: KBPS.map((k, i) => (i === 5 ? null : k)) }), TypeError, /nextSegmentSizes\[5\] \(bytes\) must be a finite number, got null/],
    ['mean sizes that are not an array', valid({ averageSegmentSizes: 'big' }), TypeError, /averageSegmentSizes must be an array/],
    ['a zero look-ahead size', valid({ upcomingLowestRungSizes: [25000, 0] }), RangeError, /upcomingLowestRungSizes\[1\] \(bytes\) must be > 0/],
    ['a flag that is not a boolean', valid({ justSeeked: 'yes' }), TypeError, /justSeeked must be a boolean when given, got "yes"/],
  ])('%s', (_name, input, ErrorType, message) => {
    expect(() => validateDecisionInput(input)).toThrow(ErrorType);
    expect(() => validateDecisionInput(input)).toThrow(message);
  });

  test('every message starts with "decision input:"', () => {
    expect(() => validateDecisionInput(valid({ ladder: [] }))).toThrow(/^decision input: /);
  });
});

describe('every algorithm checks its input and parameters the same way', () => {
  test.each(Object.keys(ALGORITHMS))('%s rejects bad input before deciding', (key) => {
    const { decide } = ALGORITHMS[key];
    expect(() => decide(valid({ ladder: [] }), null)).toThrow(/decision input: ladder is empty/);
    expect(() => decide(valid({ bufferLevelSeconds: NaN }), null)).toThrow(/bufferLevelSeconds must be a finite number, got NaN/);
    expect(() => decide(valid({ ladder: ladder().reverse().map((r, index) => ({ ...r, index })) }), null)).toThrow(/not sorted strictly ascending/);
  });

  test.each(Object.keys(ALGORITHMS))('%s rejects unknown and non-numeric parameters', (key) => {
    const { decide } = ALGORITHMS[key];
    expect(() => decide(valid(), null, { noSuchKnob: 1 })).toThrow(new RegExp(`${key} has no parameter "noSuchKnob"`));
    const firstNumeric = Object.entries(ALGORITHMS[key].defaults).find(([, v]) => typeof v === 'number')[0];
    expect(() => decide(valid(), null, { [firstNumeric]: NaN })).toThrow(new RegExp(`${key} parameter ${firstNumeric} must be a finite number`));
    expect(() => decide(valid(), null, [1, 2])).toThrow(/params must be an object/);
  });

  test.each(Object.keys(ALGORITHMS))('%s has JSON-safe defaults, a label, and a result of the common shape', (key) => {
    const a = ALGORITHMS[key];
    expect(a.name).toBe(key);
    expect(typeof a.label).toBe('string');
    expect(JSON.parse(JSON.stringify(a.defaults))).toEqual(a.defaults);
    const state = Object.freeze(a.initialState());
    const input = valid();
    const snapshot = JSON.stringify(input);
    const d = a.decide(input, state, {});
    expect(Object.keys(d).sort()).toEqual(['delayMs', 'details', 'reason', 'representationIndex', 'state']);
    expect(Number.isInteger(d.representationIndex)).toBe(true);
    expect(d.delayMs).toBeGreaterThanOrEqual(0);
    expect(typeof d.reason).toBe('string');
    expect(d.state).not.toBe(state);
    expect(JSON.stringify(input)).toBe(snapshot); // pure: the input is not touched
    expect(a.decide(input, state, {})).toEqual(d); // and the same input gives the same answer
  });

  test.each(Object.keys(ALGORITHMS))('%s always picks the only rung of a one-rung ladder', (key) => {
    const input = valid({ ladder: [{ index: 0, bandwidth: 500000 }], currentIndex: 0, nextSegmentSizes: [125000], recentDownloads: [{ bytes: 125000, seconds: 0.1 }] });
    expect(ALGORITHMS[key].decide(input, null).representationIndex).toBe(0);
  });
});
