'use strict';
// npm run cleanup removes the namespaces a hard-killed run left (empty ones), and nothing a run
// still uses: not a namespace with a process in it, not that process, not one just made.
// Only its own namespaces are named, so a run going on on this machine is never at risk.
// Needs root (CI has it).
const path = require('node:path');
const { spawn, spawnSync, execFileSync } = require('node:child_process');
const { leftoverNotice } = require('../../testbed/netem/leftover-namespaces');

const CLI = path.join(__dirname, '..', '..', 'testbed', 'cli', 'cleanup.js');
const isRoot = process.getuid() === 0;
const testAsRoot = isRoot ? test : test.skip;
if (!isRoot) process.stderr.write('cleanup-namespaces needs root (network namespaces): skipped\n');

const EMPTY = 'labsrv246';
const BUSY = 'labcli246';
let sleeper = null;

const listed = () => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' }).split('\n').map((l) => l.split(' ')[0]);
const cleanup = (args, opts = {}) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', ...opts });

afterAll(() => {
  if (sleeper && sleeper.exitCode === null) sleeper.kill('SIGKILL');
  for (const ns of [EMPTY, BUSY]) {
    try { execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore' }); } catch { /* gone */ }
  }
});

testAsRoot('removes an empty lab namespace, keeps one with a process in it (and the process), keeps a young one by default', async () => {
  for (const ns of [EMPTY, BUSY]) {
    try { execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore' }); } catch { /* absent */ }
    execFileSync('ip', ['netns', 'add', ns]);
  }
  // ip netns exec execs sleep in place: the PID is the sleeper's.
  sleeper = spawn('ip', ['netns', 'exec', BUSY, 'sleep', '600'], { stdio: 'ignore' });
  const until = Date.now() + 5000;
  while (!execFileSync('ip', ['netns', 'pids', BUSY], { encoding: 'utf8' }).includes(String(sleeper.pid))) {
    if (Date.now() > until) throw new Error('sleep did not show up in its namespace');
    await new Promise((r) => setTimeout(r, 50));
  }

  // Just made: kept by default, a run may be starting in it.
  let r = cleanup([EMPTY, BUSY]);
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(new RegExp(`kept ${EMPTY}: made \\d+ s ago`));
  expect(r.stdout).toMatch(new RegExp(`kept ${BUSY}: in use by PIDs [\\d ]*\\b${sleeper.pid}\\b`));
  expect(listed()).toEqual(expect.arrayContaining([EMPTY, BUSY]));

  // What a run's start says about it.
  const notice = leftoverNotice({ minAgeMs: 0 });
  expect(notice).toMatch(new RegExp(`\\b${EMPTY}\\b`));
  expect(notice).not.toMatch(new RegExp(`\\b${BUSY}\\b`));
  expect(notice).toMatch(/npm run cleanup/);

  r = cleanup([EMPTY, BUSY, '--min-age', '0', '--dry-run']);
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(new RegExp(`would remove ${EMPTY}`));
  expect(listed()).toContain(EMPTY);

  r = cleanup([EMPTY, BUSY, '--min-age', '0']);
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(new RegExp(`removed ${EMPTY}`));
  expect(r.stdout).toMatch(new RegExp(`kept ${BUSY}: in use`));
  expect(listed()).not.toContain(EMPTY);
  expect(listed()).toContain(BUSY);
  expect(sleeper.exitCode).toBeNull();
  expect(() => process.kill(sleeper.pid, 0)).not.toThrow();
}, 30000);

test('refuses names that are not the emulator\'s, bad ages, and (without root) removal', () => {
  let r = cleanup(['eth0ns']);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/eth0ns: not a namespace of this project/);
  r = cleanup(['--min-age=-3']);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/--min-age must be a number of seconds >= 0/);
  r = cleanup(['--frobnicate']);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/Usage: npm run cleanup/);
  if (isRoot) {
    r = cleanup([EMPTY], { uid: 65534, gid: 65534 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/needs root \(--dry-run lists them without\)/);
  }
});
