'use strict';
// Competing bulk TCP flows through the emulated link (paper 001 Fig. 7: a concurrent TCP Reno
// download on the same bottleneck): for each flow a receiver in the client namespace on an
// address of the flow's own (10.77.X.100, .101, ...) and a sender in the server namespace that
// writes to it as fast as TCP allows, between the flow's start and stop times.
//
// Congestion control per flow: Node has no setsockopt(TCP_CONGESTION), so the server namespace
// gets a host route to the flow's address with `congctl CC` (ip-route(8): the algorithm for
// connections to that destination unless the application sets its own). The origin keeps the
// namespace's default (the scenario's congestionControl); what the kernel really used is read
// back from `ss -ti` once the flow runs (ccSeen).
//
// Counted twice: by the receiver (bytes read, sampled every sampleMs; the runner puts the samples
// on its lab clock, testbed/runner/lab-clock.js, which does not step with the wall clock), and
// by the emulator, which counts the flow's address apart (link.watchAddresses, counters().byAddress).
// Every process is ended by its PID on stop(), kill(), and process exit; the link's own close
// ends anything left in its namespaces.
const path = require('node:path');
const readline = require('node:readline');
const { spawn, execFile } = require('node:child_process');
const { ip } = require('../netem/ip-netns');
const congestionControls = require('../congestion/registry');
const { inNamespace } = require('../netem/namespace-link');
const { initialWindowRouteArgs } = require('../netem/initial-window');
const { labNowMs, labMsOfMachineMonotonic } = require('../runner/lab-clock');

const FIRST_HOST = 100; // flow i's address is 10.77.X.(100 + i): clear of .1 server, .2/.3 client
const FIRST_PORT = 50000;
const READY_TIMEOUT_MS = 10000;
const EXIT_GRACE_MS = 3000;
const CC_CHECK_AFTER_MS = 1000;

const live = new Set(); // child processes of every flow set not yet stopped
process.on('exit', () => {
  for (const child of live) {
    try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ }
  }
});

/** A child process in a namespace with its stdout as JSON lines. */
function spawnInNamespace(ns, script, args, onMessage) {
  const argv = inNamespace(ns, [process.execPath, path.join(__dirname, script), JSON.stringify(args)]);
  const child = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  let stderr = '';
  child.stderr.on('data', (c) => { stderr = (stderr + c).slice(-1000); });
  child.stdin.on('error', () => {});
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    let msg;
    try { msg = JSON.parse(line); } catch { return; }
    onMessage(msg);
  });
  child.exitedPromise = new Promise((resolve) => child.once('exit', (code, signal) => {
    live.delete(child);
    resolve({ code, signal, stderr });
  }));
  return child;
}

function running(child) {
  return child && child.exitCode === null && child.signalCode === null;
}

/**
 * A receiver's byte-count message as a sample [ms on the lab clock, cumulative bytes], or null
 * for its other messages. It is timed by its monotonic stamp (mono), never a wall-clock one:
 * the wall clock can step.
 */
function receiverSample(msg) {
  if (typeof msg.bytes !== 'number' || typeof msg.mono !== 'number') return null;
  return [labMsOfMachineMonotonic(msg.mono), msg.bytes];
}

/** Ends a child: SIGTERM, then SIGKILL after the grace; resolves once it has exited. */
async function endChild(child) {
  if (!child) return;
  if (running(child)) {
    try { process.kill(child.pid, 'SIGTERM'); } catch { /* gone */ }
    const killer = setTimeout(() => { try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ } }, EXIT_GRACE_MS);
    await child.exitedPromise;
    clearTimeout(killer);
  }
  await child.exitedPromise;
}

function waitFor(predicate, child, timeoutMs, what) {
  return new Promise((resolve, reject) => {
    const started = labNowMs();
    const tick = () => {
      if (predicate()) return resolve();
      if (!running(child)) return reject(new Error(`${what}: the process exited first`));
      if (labNowMs() - started > timeoutMs) return reject(new Error(`${what}: timed out after ${timeoutMs} ms`));
      return setTimeout(tick, 20);
    };
    tick();
  });
}

/** The congestion control the server namespace's kernel uses for the flow's connection. */
function congestionControlSeen(serverNs, address) {
  return new Promise((resolve) => {
    execFile('ip', ['netns', 'exec', serverNs, 'ss', '-tin', 'dst', address], { timeout: 5000 }, (err, stdout) => {
      if (err) return resolve(null);
      const m = /\b(reno|cubic|bbr|bbr2|vegas|westwood|htcp|bic)\b/.exec(stdout);
      return resolve(m ? m[1] : null);
    });
  });
}

/**
 * Sets up the flows' addresses, routes and receivers (the senders start with start()).
 * @param {object} o
 * @param {object} o.link       namespace-link.js's link (serverNs, clientNs, serverTun, clientTun, serverIp)
 * @param {Array<{label: string, cc: string, startSeconds: number, stopSeconds: number|null}>} o.flows
 * @param {number} [o.sampleMs] how often each receiver reports its bytes (default 1000)
 * @param {number} [o.initialWindow] the senders' TCP initial window in segments (default the kernel's)
 * @returns {Promise<{flows: object[], pids: () => number[], start: (startLabMs: number) => void,
 *   stop: () => Promise<object[]>, kill: () => void}>}
 *   stop() ends every flow and returns per flow {label, cc, ccSeen, address, port, startSeconds,
 *   stopSeconds, connectedAt, stoppedAt, samples [[ms, bytes received]] (ms on lab-clock.js's clock),
 *   receivedBytes, sentBytes, error}
 */
async function prepareCompetingFlows({ link, flows, sampleMs = 1000, initialWindow = null }) {
  if (!link.clientNs) throw new Error('competing flows need the client end in its own namespace');
  const subnet = link.serverIp.split('.').slice(0, 3).join('.');
  const state = flows.map((f, i) => ({
    ...f, address: `${subnet}.${FIRST_HOST + i}`, port: FIRST_PORT + i, receiver: null, sender: null, timers: [],
    samples: [], receivedBytes: 0, sentBytes: null, connectedAt: null, stoppedAt: null, ccSeen: null, error: null, listening: false,
  }));
  const kill = () => {
    for (const s of state) {
      for (const t of s.timers) clearTimeout(t);
      for (const child of [s.sender, s.receiver]) {
        if (running(child)) try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ }
      }
    }
  };
  try {
    for (const s of state) {
      ip('-n', link.clientNs, 'addr', 'add', `${s.address}/32`, 'dev', link.clientTun);
      ip('-n', link.serverNs, 'route', 'replace', `${s.address}/32`, 'dev', link.serverTun, 'congctl', congestionControls.get(s.cc).kernelName, ...initialWindowRouteArgs(initialWindow));
      s.receiver = spawnInNamespace(link.clientNs, 'bulk-receiver.js', { host: s.address, port: s.port, sampleMs }, (msg) => {
        const sample = receiverSample(msg);
        if (msg.listening) s.listening = true;
        else if (msg.error) s.error = s.error || `receiver: ${msg.error}`;
        else if (sample) {
          s.samples.push(sample);
          s.receivedBytes = msg.bytes;
        }
      });
      await waitFor(() => s.listening, s.receiver, READY_TIMEOUT_MS, `competing flow ${s.label}'s receiver on ${s.address}:${s.port}`);
    }
    if (link.watchAddresses) await link.watchAddresses(state.map((s) => s.address));
  } catch (err) {
    kill();
    throw err;
  }

  const startSender = (s) => {
    s.sender = spawnInNamespace(link.serverNs, 'bulk-sender.js', { host: s.address, port: s.port }, (msg) => {
      if (msg.connected) {
        s.connectedAt = labNowMs();
        s.timers.push(setTimeout(() => {
          congestionControlSeen(link.serverNs, s.address).then((cc) => { s.ccSeen = cc; });
        }, CC_CHECK_AFTER_MS));
      } else if (msg.error) s.error = s.error || `sender: ${msg.error}`;
      else if (typeof msg.sent === 'number') s.sentBytes = msg.sent;
    });
  };
  const stopSender = async (s) => {
    if (!s.sender || !running(s.sender)) return;
    s.stoppedAt = labNowMs();
    await endChild(s.sender);
  };

  return {
    flows: state.map(({ label, cc, address, port }) => ({ label, cc, address, port })),
    pids: () => state.flatMap((s) => [s.receiver, s.sender]).filter(running).map((c) => c.pid),
    /** Starts each sender at its startSeconds after startLabMs (lab-clock.js) and stops it at its stopSeconds. */
    start(startLabMs) {
      for (const s of state) {
        const at = (sec) => Math.max(0, startLabMs + sec * 1000 - labNowMs());
        s.timers.push(setTimeout(() => startSender(s), at(s.startSeconds)));
        if (s.stopSeconds !== null && s.stopSeconds !== undefined) s.timers.push(setTimeout(() => { stopSender(s); }, at(s.stopSeconds)));
      }
    },
    /** Ends every flow (senders first, so the receivers see their last bytes) and says what each did. */
    async stop() {
      for (const s of state) for (const t of s.timers) clearTimeout(t);
      await Promise.all(state.map(stopSender));
      await Promise.all(state.map((s) => endChild(s.receiver)));
      return state.map((s) => ({
        label: s.label,
        cc: s.cc,
        ccSeen: s.ccSeen,
        address: s.address,
        port: s.port,
        startSeconds: s.startSeconds,
        stopSeconds: s.stopSeconds,
        connectedAt: s.connectedAt,
        stoppedAt: s.stoppedAt,
        samples: s.samples,
        receivedBytes: s.receivedBytes,
        sentBytes: s.sentBytes,
        error: s.error || (s.connectedAt === null && s.sender ? 'the sender never connected' : null),
      }));
    },
    kill,
  };
}

module.exports = { prepareCompetingFlows, receiverSample, FIRST_HOST, FIRST_PORT };
