'use strict';
// A child we start must not outlive us, however we end. close() and the exit hooks cover every
// way Node ends that runs code; a crash (a native addon's SIGSEGV) or a SIGKILL runs none of
// them, and a child in its own process group (Chromium, detached so that its whole tree can be
// ended at once, and so out of reach of a Ctrl-C to ours) then runs on as a child of init.
// The kernel's parent-death signal covers that: setpriv (util-linux) sets it and execs the
// program, so the PID we hold stays the program's. The signal comes when the parent that
// started it ends (for Node: the process, since spawn runs on its main thread).
const { execFileSync } = require('node:child_process');

let available = null;

/**
 * argv, run so that it is killed (SIGKILL) when the process that starts it ends.
 * @param {string[]} argv
 * @returns {string[]}
 */
function dieWithParentArgv(argv) {
  if (available === null) {
    try {
      execFileSync('setpriv', ['--help'], { stdio: 'ignore' });
      available = true;
    } catch {
      available = false;
    }
  }
  if (!available) throw new Error('starting a browser that cannot outlive the lab needs "setpriv" (Debian package util-linux): run "npm run setup"');
  return ['setpriv', '--pdeathsig', 'KILL', '--', ...argv];
}

module.exports = { dieWithParentArgv };
