'use strict';
// testbed/process-tree.js: a process and its descendants, read from /proc (the lab finds
// Chromium's network service, a child of the browser, by it).
const { spawn } = require('node:child_process');
const { processTree } = require('../../testbed/process-tree');

test('the tree holds the root and a child it started, not its parent', () => {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    const tree = processTree(process.pid);
    expect(tree.has(process.pid)).toBe(true);
    expect(tree.has(child.pid)).toBe(true);
    expect(tree.has(process.ppid)).toBe(false);
  } finally {
    child.kill();
  }
});
