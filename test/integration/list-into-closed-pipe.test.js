'use strict';
// `npm run qoe -- SCENARIO --list | head` and `npm run content -- --list | head`: the reader
// closes the pipe early, which is not an error. Before the fix Node printed an unhandled EPIPE
// stack trace and exited 1. The read end is closed before the child writes anything, so the
// first write meets a closed pipe on every run (no race with the pipe's buffer).
const path = require('node:path');
const { spawn } = require('node:child_process');

const REPO = path.resolve(__dirname, '..', '..');

function runIntoClosedPipe(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${args.join(' ')} still running after 60 s`)); }, 60000);
    child.on('error', reject);
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stderr }); });
  });
}

test.each([
  [['testbed/cli/qoe.js', 'scenarios/transports-lossy', '--list']],
  [['origin/content/cli.js', '--list']],
])('%j into a pipe closed by its reader ends with 0 and no stack trace', async (args) => {
  const r = await runIntoClosedPipe(args);
  expect(r.stderr).not.toMatch(/EPIPE|Error/);
  expect(r).toMatchObject({ code: 0, signal: null });
}, 70000);
