'use strict';
// Where bench:load's processes run. On a small machine the origin, the simulated players and
// the abusive clients share the CPUs, so without placement the abuse phase slows the players'
// own event loop and the origin alike, and the "p99 under abuse against clean" ratio measures
// the machine as much as the origin's defences (it swung 1.1x-2.2x between quiet runs on 2
// cores). Placed: the origin alone on the last CPU, the players on the others, the abusers
// beside the players at the lowest priority -- an attacker's clients do not run on the
// viewers' machines, so they must not take the players' CPU; the origin still serves every
// abusive connection, which is what the comparison is about.
const fs = require('node:fs');
const os = require('node:os');
const { execFileSync } = require('node:child_process');

/**
 * @param {number} cpuCount
 * @returns {{origin: number[], clients: number[]}|null} CPU numbers, or null when there are
 *   too few CPUs to separate anything
 */
function planPlacement(cpuCount) {
  if (!(cpuCount >= 2)) return null;
  const last = cpuCount - 1;
  return { origin: [last], clients: Array.from({ length: last }, (_, i) => i) };
}

/**
 * Sets every thread of process pid (libuv's pool, V8's helpers: -a) to run on cpus only.
 * @throws {Error} saying what failed (taskset missing, the process gone)
 */
function pinProcess(pid, cpus) {
  // taskset -a says nothing about a process that is gone: ask first.
  if (!fs.existsSync(`/proc/${pid}`)) throw new Error(`could not place pid ${pid} on CPU ${cpus.join(',')}: no such process`);
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus.join(','), String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    if (err.code === 'ENOENT') throw new Error('taskset (util-linux) is not installed');
    throw new Error(`taskset could not place pid ${pid} on CPU ${cpus.join(',')}: ${String(err.stderr || err.message).trim()}`);
  }
}

/** Lowest scheduling priority for pid (nice 19). */
function deprioritize(pid) {
  os.setPriority(pid, 19);
}

/** One line for the bench's header. */
function describePlacement(placement) {
  if (!placement) return 'no CPU placement (one CPU, or --no-pin): origin, players and abusers share the CPU';
  return `origin on CPU ${placement.origin.join(',')}; players on CPU ${placement.clients.join(',')}; abusers on CPU ${placement.clients.join(',')} at nice 19`;
}

module.exports = { planPlacement, pinProcess, deprioritize, describePlacement };
