'use strict';
// The runner's clock for lining its own samples up with the page's times: milliseconds that
// never step. Date.now() follows the system's wall clock, which can jump: these VMs are
// snapshotted and resumed (the kernel logs "crng reseeded due to virtual machine fork"), and
// afterwards the wall clock is set forward by the pause while the monotonic clocks, the page's
// performance.now() among them, are not. One playback of transports-lossy (2026-12-02) saw a
// 13 s step mid-run: its wire-byte series, stamped with Date.now(), slid 13 s against the
// page's segment times and its overhead came out at -6.8 %.
const { performance } = require('perf_hooks');
// One clock for every process on the machine (two processes' labNowMs differ by any wall-clock
// step between their starts, since performance.timeOrigin is a wall-clock reading).
const { machineMonotonicMs } = require('../../shared/machine-monotonic-ms');

/** Monotonic milliseconds, starting near the wall clock at this process's start. */
function labNowMs() {
  return performance.timeOrigin + performance.now();
}

// Both clocks are CLOCK_MONOTONIC read in this process, so their difference is fixed: read once.
const LAB_MINUS_MACHINE_MS = labNowMs() - machineMonotonicMs();

/** A machineMonotonicMs() reading, e.g. one a child process took, on this process's lab clock. */
function labMsOfMachineMonotonic(ms) {
  return ms + LAB_MINUS_MACHINE_MS;
}

/**
 * Where the page's time 0 lies on labNowMs's clock, from the page's performance.now() read
 * between two of ours (not from the page's performance.timeOrigin, which is wall-clock time).
 * @param {{evaluate: Function}} page  a Playwright page
 */
async function pageOriginOnLabClock(page) {
  const before = labNowMs();
  const pageNow = await page.evaluate(() => performance.now());
  const after = labNowMs();
  return (before + after) / 2 - pageNow;
}

module.exports = { labNowMs, machineMonotonicMs, labMsOfMachineMonotonic, pageOriginOnLabClock };
