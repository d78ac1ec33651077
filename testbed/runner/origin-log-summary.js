'use strict';
// The origin's request log (NDJSON, origin/request-log.js) of one playback, in a few numbers:
// what the server saw, to hold against what the player reports.
const fs = require('node:fs');

function summarizeRequestLog(entries) {
  const connections = new Set();
  const statuses = {};
  const protocols = {};
  let bytes = 0;
  let aborted = 0;
  let segments = 0;
  for (const e of entries) {
    connections.add(`${e.listener}:${e.connectionId}`);
    statuses[e.status] = (statuses[e.status] || 0) + 1;
    protocols[e.protocol] = (protocols[e.protocol] || 0) + 1;
    bytes += e.bytes || 0;
    if (e.aborted) aborted += 1;
    if (/chunk-[^/]*\.m4s$/.test(e.path || '')) segments += 1; // media, not init
  }
  return { requests: entries.length, segments, bytes, connections: connections.size, aborted, statuses, protocols };
}

function readRequestLog(file) {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return []; // a line cut by a killed origin
    }
  });
}

module.exports = { summarizeRequestLog, readRequestLog };
