'use strict';
// Starts Debian's Chromium (Playwright's own browser downloads do not work on these machines)
// as a child process we own, and drives it with playwright-core over CDP. Owning the process
// means we know its PID: every exit path (close(), a hard timeout, an exception, process exit,
// Ctrl-C) ends exactly the browser we started, by its process group, and removes its profile;
// a launcher that ends without running any code (a crash, SIGKILL) takes the browser with it
// through the kernel's parent-death signal (shared/die-with-parent.js).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { mptcpizeArgv } = require('./netem/mptcp');
const { makeLabTempDir } = require('../shared/lab-temp-dir');
const { dieWithParentArgv } = require('../shared/die-with-parent');

const DEFAULT_EXECUTABLE = '/usr/bin/chromium';

// Flags that work headless as root on these machines (docs/platform-notes.md); without the
// background-networking ones Chromium keeps trying to reach Google's hosts.
const BASE_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-default-apps',
  '--mute-audio',
  // Headless tabs are otherwise throttled as if hidden, which skews playback timing.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  '--autoplay-policy=no-user-gesture-required',
  // WebRTC (the DataChannel transport): gather loopback candidates (an origin on 127.0.0.1)
  // and real host addresses instead of mDNS names the origin's libdatachannel cannot resolve.
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
];

const running = new Set();
let hooksInstalled = false;

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

function installExitHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // Last resort, synchronous: nothing async runs in an 'exit' handler.
  process.on('exit', () => {
    for (const r of running) {
      killGroup(r.child, 'SIGKILL');
      fs.rmSync(r.userDataDir, { recursive: true, force: true });
    }
  });
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      for (const r of running) killGroup(r.child, 'SIGKILL');
      // Only decide the exit ourselves when nobody else listens for the signal.
      if (process.listenerCount(sig) === 1) process.exit(128 + (sig === 'SIGINT' ? 2 : 15));
    });
  }
}

function chromiumExecutable() {
  const exe = process.env.CHROMIUM_PATH || DEFAULT_EXECUTABLE;
  if (!fs.existsSync(exe)) {
    throw new Error(`Chromium not found at ${exe}: run "npm run setup" (installs Debian's chromium) or set CHROMIUM_PATH`);
  }
  return exe;
}

function waitForDevtoolsUrl(child, timeoutMs) {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => done(new Error(`Chromium did not start within ${timeoutMs} ms: ${stderr.slice(-2000)}`)), timeoutMs);
    function done(err, url) {
      clearTimeout(timer);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(url);
    }
    function onData(chunk) {
      stderr = (stderr + chunk).slice(-8000);
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (m) done(null, m[1]);
    }
    function onExit(code, signal) {
      done(new Error(`Chromium exited during start (${signal || `exit ${code}`}): ${stderr.slice(-2000)}`));
    }
    child.stderr.on('data', onData);
    child.on('exit', onExit);
    child.on('error', (err) => done(err));
  });
}

/** How a process ended, from its shell exit status (128 + N: killed by signal N). */
function decodeShellStatus(status) {
  if (status > 128) {
    const name = Object.keys(os.constants.signals).find((k) => os.constants.signals[k] === status - 128);
    if (name) return { code: null, signal: name };
  }
  return { code: status, signal: null };
}

/** "SIGKILL", "exit code 1" or "unknown status": how a browser ended, for a failed playback's reason. */
function describeExit({ code, signal }) {
  if (signal) return signal;
  return code === null ? 'unknown status' : `exit code ${code}`;
}

/** A one-line file's text once its line is complete (checked every 50 ms), or null after ms. */
async function readWhenWritten(file, ms) {
  const until = Date.now() + ms;
  for (;;) {
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch { /* not yet */ }
    if (text.endsWith('\n')) return text.trim();
    if (Date.now() > until) return null;
    await delay(50);
  }
}

/**
 * Chromium inside a network namespace (the testbed's client side). Its DevTools port would
 * listen on the namespace's own loopback, out of reach, so Playwright drives it over a pipe
 * instead: it launches a wrapper that enters the namespace and starts Chromium, which
 * inherits the pipe's file descriptors. The wrapper stays Chromium's parent (it does not
 * exec) so that it can write down Chromium's PID, which Playwright does not expose, and how
 * Chromium ended (a browser killed mid-playback is then named as such, with its signal).
 * Playwright ends the wrapper's process group, Chromium included, on close() and on exit;
 * the emulated link also ends anything left in its namespace.
 */
async function launchChromiumInNamespace({ netns, args, timeoutMs, ignoreHTTPSErrors, handleSignals = true, mptcp = false }) {
  const { chromium } = require('playwright-core');
  // Multipath TCP: mptcpize's LD_PRELOAD reaches every process Chromium starts, its network
  // service included, and mptcpize execs too, so $! stays Chromium's PID.
  const browserArgv = mptcp ? mptcpizeArgv([chromiumExecutable()]) : [chromiumExecutable()];
  // Chromium dies with the wrapper, and the wrapper (below) with this process.
  const launcher = dieWithParentArgv(browserArgv);
  const dir = makeLabTempDir('chromium-ns');
  const wrapper = path.join(dir, 'chromium-in-namespace');
  const pidFile = path.join(dir, 'pid');
  const statusFile = path.join(dir, 'status');
  // Chromium's TMPDIR (its singleton socket's directory, org.chromium.Chromium.*, which only a
  // clean browser shutdown removes) inside ours, so it goes when ours does.
  const tmpDir = path.join(dir, 'tmp');
  fs.mkdirSync(tmpDir);
  // `ip netns exec`, setpriv and Debian's /usr/bin/chromium all exec, so $! is Chromium's own PID.
  // The wrapper closes its copies of the pipe (fds 3 and 4) so that Chromium's death closes
  // it at once; the status file appears whole (mv) once Chromium has been reaped.
  fs.writeFileSync(wrapper, [
    '#!/bin/sh',
    // Playwright starts the wrapper: it starts itself again under the parent-death signal, so
    // a crashed launcher ends it, and it in turn Chromium.
    `[ -n "$LAB_WRAPPER_DIES_WITH_PARENT" ] || { export LAB_WRAPPER_DIES_WITH_PARENT=1; exec ${dieWithParentArgv(['"$0"']).join(' ')} "$@"; }`,
    `ip netns exec '${netns.replace(/'/g, '')}' ${launcher.map((a) => `'${a}'`).join(' ')} "$@" &`,
    'child=$!',
    'exec 3>&- 4>&-',
    `echo $child > '${pidFile}'`,
    'wait $child',
    'status=$?',
    `echo $status > '${statusFile}.tmp' && mv '${statusFile}.tmp' '${statusFile}'`,
    'exit $status',
    '',
  ].join('\n'), { mode: 0o755 });
  let browser;
  try {
    browser = await chromium.launch({ executablePath: wrapper, headless: true, args: [...BASE_ARGS.filter((a) => a !== '--headless=new'), ...args], timeout: 60000,
      env: { ...process.env, TMPDIR: tmpDir },
      // Playwright's own Ctrl-C handler kills the browser and exits the process at once; a
      // caller with its own handler (the QoE runner) needs to clean up and report first.
      handleSIGINT: handleSignals, handleSIGTERM: handleSignals, handleSIGHUP: handleSignals });
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  // Chromium ended (by close() too): the pipe closes, then the wrapper writes the status.
  const exited = new Promise((resolve) => {
    browser.once('disconnected', async () => {
      const text = await readWhenWritten(statusFile, 3000);
      resolve(text === null ? { code: null, signal: null } : decodeShellStatus(Number(text)));
    });
  });
  const close = closeOnceWithDeadline(async () => {
    await Promise.race([browser.close().catch(() => {}), delay(5000)]);
    // The wrapper writes the status file as Chromium ends: not into a directory being removed.
    await Promise.race([exited, delay(3000)]);
    fs.rmSync(dir, { recursive: true, force: true });
  }, timeoutMs);
  try {
    // Written right after the start, long before Chromium answered over the pipe.
    const pidText = await readWhenWritten(pidFile, 5000);
    const context = await browser.newContext({ ignoreHTTPSErrors });
    const page = await context.newPage();
    return { browser, context, page, pid: pidText === null ? null : Number(pidText), exited, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * @param {object} [opts]
 * @param {string[]} [opts.args]        extra Chromium flags
 * @param {number} [opts.timeoutMs]     hard limit on the browser's whole life (default 5 min)
 * @param {boolean} [opts.ignoreHTTPSErrors]  accept the origin's self-signed certificate (default true)
 * @param {string} [opts.netns]         run inside this network namespace (the emulated client)
 * @param {boolean} [opts.handleSignals] let Playwright end the process on Ctrl-C (default true;
 *                                      false when the caller cleans up on signals itself)
 * @param {boolean} [opts.mptcp]        its TCP connections are Multipath TCP (mptcpize; netns only)
 * @returns {Promise<{browser, context, page, pid: number|null, exited: Promise<{code: number|null, signal: string|null}>, close: () => Promise<void>}>}
 *   pid: Chromium's main process; exited: resolves when it has ended, whoever ended it
 */
async function launchChromium({ args = [], timeoutMs = 5 * 60 * 1000, ignoreHTTPSErrors = true, netns = null, handleSignals = true, mptcp = false } = {}) {
  if (netns) return launchChromiumInNamespace({ netns, args, timeoutMs, ignoreHTTPSErrors, handleSignals, mptcp });
  if (mptcp) throw new Error('launchChromium: mptcp needs netns (Multipath TCP runs between the emulated link\'s namespaces)');
  const { chromium } = require('playwright-core');
  installExitHooks();
  const exe = chromiumExecutable();
  const userDataDir = makeLabTempDir('chromium');
  // Chromium's singleton socket goes into a directory under TMPDIR that only a clean browser
  // shutdown removes; ended by signal, it left one org.chromium.Chromium.* in /tmp per launch.
  // Under the profile directory, it goes when the profile does.
  const tmpDir = path.join(userDataDir, 'tmp');
  fs.mkdirSync(tmpDir);
  // detached: Chromium becomes the leader of its own process group, so its renderer, GPU and
  // utility processes can be ended together through the PID we hold, and nothing else.
  const [cmd, ...argv] = dieWithParentArgv([exe, ...BASE_ARGS, `--user-data-dir=${userDataDir}`, '--remote-debugging-port=0', ...args, 'about:blank']);
  const child = spawn(cmd, argv, {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    env: { ...process.env, TMPDIR: tmpDir },
  });
  const record = { child, userDataDir };
  running.add(record);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  let browser = null;
  const close = closeOnceWithDeadline(async () => {
    if (browser) await Promise.race([browser.close().catch(() => {}), delay(3000)]);
    killGroup(child, 'SIGTERM');
    if ((await Promise.race([exited.then(() => 'exited'), delay(3000)])) !== 'exited') {
      killGroup(child, 'SIGKILL');
      await Promise.race([exited, delay(2000)]);
    }
    running.delete(record);
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }, timeoutMs);

  try {
    const wsUrl = await waitForDevtoolsUrl(child, 30000);
    browser = await chromium.connectOverCDP(wsUrl, { timeout: 30000 });
    const context = await browser.newContext({ ignoreHTTPSErrors });
    const page = await context.newPage();
    return { browser, context, page, pid: child.pid, exited, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * A close() that runs teardown once however often it is called, and runs it by itself after
 * timeoutMs: a browser that hangs (a page that 404'd once hung a run forever) is ended anyway.
 */
function closeOnceWithDeadline(teardown, timeoutMs) {
  let closing = null;
  const close = () => {
    if (!closing) {
      clearTimeout(timer);
      closing = teardown();
    }
    return closing;
  };
  const timer = setTimeout(close, timeoutMs);
  timer.unref();
  return close;
}

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

module.exports = { launchChromium, chromiumExecutable, describeExit, BASE_ARGS };
