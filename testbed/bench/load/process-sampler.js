'use strict';
// Reads a process's resident memory, open file descriptors and CPU time from /proc (Linux),
// the figures the load bench tracks for the origin over a run.
const fs = require('node:fs');
const { clockTicksPerSecond } = require('../../../shared/clock-ticks');

/**
 * @param {number} pid
 * @returns {{rssBytes: number, fds: number, cpuSeconds: number}}  throws if the process is gone
 */
function sampleProcess(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  // The command name in field 2 may hold spaces or parentheses: split after the last ')'.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return {
    rssBytes: rss ? Number(rss[1]) * 1024 : NaN,
    fds: fs.readdirSync(`/proc/${pid}/fd`).length,
    cpuSeconds: ticks / clockTicksPerSecond(),
  };
}

module.exports = { sampleProcess, clockTicksPerSecond };
