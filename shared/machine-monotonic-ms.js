'use strict';
// CLOCK_MONOTONIC in ms: one clock for every process on this machine, network namespaces
// included, and one that never steps (the wall clock does: these VMs are snapshotted and
// resumed, and the wall clock is then set forward by the pause). A process that stamps what it
// logs with it (the origin's request log, a competing flow's receiver) lets the runner put those
// times on its own clock (testbed/runner/lab-clock.js). performance.now() would not do: it
// counts from each process's own start.

function machineMonotonicMs() {
  return Number(process.hrtime.bigint()) / 1e6;
}

module.exports = { machineMonotonicMs };
