'use strict';
// One Jest run covers unit, integration and browser tests; the slow ones start real servers,
// ffmpeg and Chromium, so the default 5 s timeout is far too short for them.
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.js'],
  testTimeout: 120000,
  // Integration tests bind ports and spawn ffmpeg/Chromium: on 2 cores running them all at
  // once makes timings meaningless and starves the browser.
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/support/summary-line-reporter.js'],
};
