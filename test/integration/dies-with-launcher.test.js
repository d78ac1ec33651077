'use strict';
// A launcher that ends without running any code (SIGKILL here; a native addon's crash, or a
// Jest worker stopped by Ctrl-C, alike: Jest's sandbox has its own `process`, so the exit and
// signal hooks of the code under test never run) takes along what it started: Chromium on both
// launch paths and the origin in a namespace by the kernel's parent-death signal
// (shared/die-with-parent.js), an emulated link's namespaces by its relay (relay-process.js).
// Before, an interrupted test run left a browser running as a child of init, and namespaces.
// Real Chromium, origin and link.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const { createEmulatedLink } = require('../../testbed/netem/namespace-link');
const { namespaceNames } = require('../../testbed/netem/ip-netns');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
// Apart from the runner's 40-189, the lab's 30-39 and the other tests'.
const LINK_INDEX = 219;
const KILLED_LINK_INDEX = 222;
const isRoot = process.getuid() === 0;
if (!isRoot) process.stderr.write('chromium-dies-with-launcher: the namespace case needs root: skipped\n');

/** The process group of pid, or null once it is gone. */
function groupOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return null;
  }
}

/** Every live process in process group pgid (zombies, which are only waiting to be reaped, left out). */
function groupMembers(pgid) {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') out.push(Number(entry));
    } catch { /* gone meanwhile */ }
  }
  return out;
}

/** A Node process that runs `start` (an async expression), prints its JSON, then only waits; resolves with it. */
function startLauncher(start) {
  const script = `
    (async () => ${start})().then(
      (x) => { process.stdout.write(JSON.stringify(x) + '\\n'); setInterval(() => {}, 1000); },
      (e) => { process.stderr.write(String(e.stack) + '\\n'); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => { err += c; });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('\n')) resolve({ launcher: child, printed: JSON.parse(out) });
    });
    child.once('exit', (code, signal) => reject(new Error(`the launcher ended first (${signal || code}): ${err.slice(-2000)}`)));
  });
}

async function waitUntil(check, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/** What the killed launcher could not remove: its lab temporary directories (named by its PID). */
function removeLauncherDirs(pid) {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (new RegExp(`^lab-[a-z0-9-]+-${pid}-[A-Za-z0-9]{6}$`).test(name)) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

const requireOf = (file) => `require(${JSON.stringify(path.join(REPO, file))})`;

async function killLauncherAndWatch(opts) {
  const { launcher, printed } = await startLauncher(`({ pid: (await ${requireOf('testbed/chromium.js')}.launchChromium(${JSON.stringify(opts)})).pid })`);
  const browserPid = printed.pid;
  try {
    expect(browserPid).toBeGreaterThan(0);
    const pgid = groupOf(browserPid);
    expect(pgid).not.toBeNull();
    // Chromium's browser, zygotes, GPU, network and renderer processes: all in that group.
    expect(groupMembers(pgid).length).toBeGreaterThan(2);
    expect(groupMembers(pgid)).not.toContain(launcher.pid);
    launcher.kill('SIGKILL');
    const gone = await waitUntil(() => groupMembers(pgid).length === 0, 15000);
    if (!gone) process.stderr.write(`still running: ${groupMembers(pgid).join(' ')}\n`);
    expect(gone).toBe(true);
  } finally {
    // Whatever happened, nothing of this test's browser stays.
    try { launcher.kill('SIGKILL'); } catch { /* gone */ }
    const pgid = groupOf(browserPid);
    if (pgid !== null) try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ }
    removeLauncherDirs(launcher.pid);
  }
}

test('the launcher killed: Chromium and all its processes end with it', async () => {
  await killLauncherAndWatch({ timeoutMs: 60000 });
}, 60000);

(isRoot ? describe : describe.skip)('in an emulated link\'s client namespace', () => {
  let link = null;
  beforeAll(async () => {
    link = await createEmulatedLink({ index: LINK_INDEX });
  }, 60000);
  afterAll(async () => {
    if (link) await link.close();
  });

  test('the launcher killed: the wrapper, Chromium and all its processes end with it', async () => {
    await killLauncherAndWatch({ timeoutMs: 60000, netns: link.clientNs });
  }, 60000);
});

(isRoot ? test : test.skip)('an emulated link and the origin in its namespace: gone when the process that made them is killed', async () => {
  const tmp = makeLabTempDir('dies-with');
  const names = [`labsrv${KILLED_LINK_INDEX}`, `labcli${KILLED_LINK_INDEX}`];
  let launcher = null;
  let originPid = null;
  try {
    ({ launcher, printed: { originPid } } = await startLauncher(`{
      const link = await ${requireOf('testbed/netem/namespace-link.js')}.createEmulatedLink({ index: ${KILLED_LINK_INDEX} });
      const origin = await ${requireOf('testbed/runner/origin-in-namespace.js')}.startOriginInNamespace({
        netns: link.serverNs, host: link.serverIp, contentDir: ${JSON.stringify(tmp)}, dataDir: ${JSON.stringify(path.join(tmp, 'data'))}, logFile: ${JSON.stringify(path.join(tmp, 'requests.ndjson'))} });
      return { originPid: origin.pid };
    }`));
    expect(namespaceNames()).toEqual(expect.arrayContaining(names));
    expect(groupOf(originPid)).not.toBeNull();
    launcher.kill('SIGKILL');
    const gone = await waitUntil(() => groupOf(originPid) === null && !namespaceNames().some((n) => names.includes(n)), 15000);
    if (!gone) process.stderr.write(`left: origin ${groupOf(originPid) === null ? 'gone' : originPid}, namespaces ${namespaceNames().filter((n) => names.includes(n)).join(' ')}\n`);
    expect(gone).toBe(true);
  } finally {
    if (launcher) {
      try { launcher.kill('SIGKILL'); } catch { /* gone */ }
      removeLauncherDirs(launcher.pid);
    }
    if (originPid && groupOf(originPid) !== null) try { process.kill(originPid, 'SIGKILL'); } catch { /* gone */ }
    for (const ns of namespaceNames().filter((n) => names.includes(n))) execFileSync('ip', ['netns', 'del', ns]);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}, 60000);
