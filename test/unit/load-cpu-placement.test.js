'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const { planPlacement, pinProcess, deprioritize, describePlacement } = require('../../testbed/bench/load/cpu-placement');

test('the origin gets the last CPU to itself, the clients the rest; one CPU cannot be split', () => {
  expect(planPlacement(2)).toEqual({ origin: [1], clients: [0] });
  expect(planPlacement(4)).toEqual({ origin: [3], clients: [0, 1, 2] });
  expect(planPlacement(1)).toBeNull();
  expect(describePlacement(null)).toMatch(/share the CPU/);
  expect(describePlacement(planPlacement(2))).toBe('origin on CPU 1; players on CPU 0; abusers on CPU 0 at nice 19');
});

// The kernel's view of a real process: every thread's allowed CPUs and the nice value.
const allowedCpus = (pid) => fs.readdirSync(`/proc/${pid}/task`).map((tid) => /Cpus_allowed_list:\s*(\S+)/.exec(fs.readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))[1]);

(os.cpus().length >= 2 ? test : test.skip)('a process and all its threads are placed, and deprioritized', async () => {
  // It says so once running, when node has started its worker threads.
  const child = spawn(process.execPath, ['-e', 'console.log("up"); setTimeout(() => {}, 20000)'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    await new Promise((resolve) => { child.stdout.once('data', resolve); });
    pinProcess(child.pid, [1]);
    const cpus = allowedCpus(child.pid);
    expect(cpus.length).toBeGreaterThan(1); // node's threads, all of them
    expect(new Set(cpus)).toEqual(new Set(['1']));
    deprioritize(child.pid);
    expect(os.getPriority(child.pid)).toBe(19);
  } finally {
    child.kill('SIGKILL');
  }
});

test('a process that is gone gets a clear error', () => {
  expect(() => pinProcess(2 ** 22 + 12345, [0])).toThrow(/could not place pid \d+ on CPU 0/);
});
