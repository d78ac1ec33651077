'use strict';
// The kernel counts a process's CPU time and start time in clock ticks (/proc/<pid>/stat);
// seconds need the tick rate, which getconf knows (100 on nearly every Linux).
const { execFileSync } = require('node:child_process');

let ticksPerSecond = null;

function clockTicksPerSecond() {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

module.exports = { clockTicksPerSecond };
