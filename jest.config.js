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
  // ...but each file in its own worker process, recycled after the file (any limit this small
  // recycles every time). With one worker Jest would otherwise run every file inside its own
  // process, where one native crash ends the whole run: CI once lost it so (SIGSEGV, exit 139,
  // no summary; the likeliest culprit is node-datachannel, a native addon several files load,
  // tearing down peers). In a worker, a crash fails that one file with the signal named, and
  // the run goes on. It also keeps one file's leftovers (timers, native threads) from the next.
  workerIdleMemoryLimit: '1MB',
  reporters: ['default', '<rootDir>/test/support/summary-line-reporter.js'],
};
