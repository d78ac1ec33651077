'use strict';
// A preset edited after its content was built is built again (origin/content/content-listing.js):
// the record of the build against the preset as it reads now.
const { changedSettings } = require('../../origin/content/content-listing');

const preset = { name: 'p', fps: 30, segmentSeconds: 10, fragmentSeconds: 0.5, ladder: [{ bitrateKbps: 1000, width: 1920, height: 1080 }] };
const record = { preset: 'p', inputFile: null, fps: 30, segmentSeconds: 10, ladder: [{ bitrateKbps: 1000, width: 1920, height: 1080 }] };

test('a record from before fragments, for a preset that has them now: stale, and says what changed', () => {
  expect(changedSettings(record, preset)).toEqual(['fragmentSeconds: none -> 0.5']);
  expect(changedSettings({ ...record, fragmentSeconds: 0.5, fps: 25, ladder: [] }, preset)).toEqual(['fps: 25 -> 30', 'ladder changed']);
});

test('the same settings, another preset\'s build, or a packaged file of the user\'s: not stale', () => {
  expect(changedSettings({ ...record, fragmentSeconds: 0.5 }, preset)).toEqual([]);
  expect(changedSettings({ ...record, preset: 'q' }, preset)).toEqual([]);
  expect(changedSettings({ ...record, inputFile: '/videos/mine.mp4' }, preset)).toEqual([]);
  expect(changedSettings(null, preset)).toEqual([]);
  // No fragments in the preset, none recorded (records before the field existed): the same.
  expect(changedSettings(record, { ...preset, fragmentSeconds: undefined })).toEqual([]);
});

test('a build made with fields replaced on purpose (a test\'s small ladder) is left alone', () => {
  expect(changedSettings({ ...record, ladder: [], overrides: ['ladder'] }, preset)).toEqual([]);
});

test('a build made with replacements is compared with the same replacements; fields newer records keep count when kept', () => {
  const built = { ...record, fragmentSeconds: 0.5, overrides: ['fragmentSeconds'] };
  expect(changedSettings(built, preset, { withOverrides: true })).toEqual([]);
  expect(changedSettings(built, { ...preset, fragmentSeconds: 0.25 }, { withOverrides: true })).toEqual(['fragmentSeconds: 0.5 -> 0.25']);
  // A plain build is never measured against a caller's replacements.
  expect(changedSettings({ ...record, fragmentSeconds: 0.5 }, { ...preset, fragmentSeconds: 0.25 }, { withOverrides: true })).toEqual([]);
  // motion is compared once a record keeps it, not before.
  expect(changedSettings({ ...record, fragmentSeconds: 0.5 }, { ...preset, motion: 'high' })).toEqual([]);
  expect(changedSettings({ ...record, fragmentSeconds: 0.5, motion: 'low' }, { ...preset, motion: 'high' })).toEqual(['motion: "low" -> "high"']);
});
