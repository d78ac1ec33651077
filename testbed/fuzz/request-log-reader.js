'use strict';
// Reads the origin's NDJSON request log from a byte offset: the statuses the origin itself
// recorded, including answers to clients that hung up before reading them and DataChannel
// answers, which the fuzzer's own view can miss.
const fs = require('node:fs');

function logSize(file) {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** @returns {object[]} the entries written after `offset` (a half-written last line is left out) */
function readLogFrom(file, offset) {
  let text;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const buf = Buffer.alloc(Math.max(0, size - offset));
      fs.readSync(fd, buf, 0, buf.length, offset);
      text = buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return [];
  }
  const entries = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      entries.push(JSON.parse(line));
    } catch { /* partial line */ }
  }
  return entries;
}

module.exports = { logSize, readLogFrom };
