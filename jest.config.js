'use strict';
// One Jest run covers unit, integration and browser tests; the slow ones start real servers,
// ffmpeg and Chromium, so the default 5 s timeout is far too short for them.
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.js'],
  testTimeout: 120000,
  // One test file at a time: integration and browser tests spawn ffmpeg and Chromium, and on
  // 2 cores two of them at once starve the video decoder (stalls that no network caused) and
  // make every timing meaningless. Unit tests are fast enough that this costs little.
  maxWorkers: 1,
  reporters: ['default', '<rootDir>/test/support/summary-line-reporter.js'],
};
