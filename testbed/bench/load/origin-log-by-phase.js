'use strict';
// The origin's request log (NDJSON, one line per response, origin/request-log.js) counted per
// phase and listener: what the origin saw of players and abusers alike (every reset stream and
// every 408 is a line). Read as a stream: under rapid reset it can hold millions of lines.
const fs = require('node:fs');
const readline = require('node:readline');

/**
 * @param {string} file
 * @param {(timeMs: number) => string} phaseOfWallTime
 * @returns {Promise<Record<string, Record<string, {responses: number, aborted: number, statuses: Record<string, number>}>>>}
 */
async function originLogByPhase(file, phaseOfWallTime) {
  const out = {};
  if (!fs.existsSync(file)) return out;
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    let e;
    try {
      e = JSON.parse(line);
    } catch {
      continue; // a line cut by a killed origin
    }
    const phase = phaseOfWallTime(Date.parse(e.time));
    const row = ((out[phase] = out[phase] || {})[e.listener || e.protocol] = out[phase][e.listener || e.protocol] || { responses: 0, aborted: 0, statuses: {} });
    row.responses += 1;
    if (e.aborted) row.aborted += 1;
    row.statuses[e.status] = (row.statuses[e.status] || 0) + 1;
  }
  return out;
}

module.exports = { originLogByPhase };
