'use strict';
// `npm run qoe -- SCENARIO --list | head` closes the pipe before the list is all written; Node
// then raises EPIPE on stdout as an unhandled 'error' and prints a stack trace. A reader that
// stops early is not an error of ours: end quietly, as Unix tools do. For commands that print
// and exit only; a running scenario holds namespaces and processes and cleans up on its own
// signals, so it must not exit from here.

function exitQuietlyOnClosedStdout() {
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(0);
    else throw err;
  });
}

module.exports = { exitQuietlyOnClosedStdout };
