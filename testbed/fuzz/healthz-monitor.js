'use strict';
// Polls the origin's /healthz while the fuzzer attacks it, in a worker thread with its own
// event loop, so the figure is the origin's delay and not the fuzzer's own busy loop. An
// origin whose event loop is blocked (a quadratic regex on a hostile header) answers every
// listener late, so the poll goes to a listener the current batch is not attacking: a slow
// answer there is the whole process stalling, not one connection being busy.
//
// The machine is shared (2 cores, other test runs), and a thread that waits for a CPU answers
// late whatever its code does. The kernel counts that wait per thread (/proc/.../schedstat,
// run_delay), so each poll's time is also given without the time the origin's main thread and
// this worker spent runnable but not running: only that part is held against the origin (a
// blocked event loop runs, it does not wait). Polls slow only because of the wait are counted
// as "busy" and reported, not failed.
const fs = require('node:fs');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');

const POLL_INTERVAL_MS = 50;
const POLL_TIMEOUT_MS = 5000;

/** ns a thread has spent waiting on a run queue, or null where the kernel does not say. */
function runQueueWaitNs(file) {
  try {
    return Number(fs.readFileSync(file, 'utf8').split(' ')[1]);
  } catch {
    return null;
  }
}

/**
 * @param {{limitMs: number}} o
 * @returns {{target: (listener: {kind: 'http'|'h2', url: string, name: string, pid: number}) => void,
 *   take: () => Promise<{polls: number, maxMs: number, maxOwnMs: number, slow: number, busy: number,
 *     errors: number, worst: object|null, firstError: string|null}>,
 *   stop: () => Promise<void>}}
 *   take(): the figures since the last take(). maxMs: the slowest answer; maxOwnMs: the slowest
 *   without the run-queue waits; slow: polls whose own time was over the limit, or that failed;
 *   busy: polls over the limit only because of the waits.
 */
function startHealthzMonitor({ limitMs }) {
  const worker = new Worker(__filename, { workerData: { healthzMonitor: true, limitMs } });
  worker.unref();
  const waiting = [];
  let failed = null;
  const failedStats = () => ({ polls: 0, maxMs: 0, maxOwnMs: 0, slow: 1, busy: 0, errors: 1, worst: null, firstError: `the monitor itself failed: ${failed}` });
  worker.on('message', (m) => {
    if (m.type === 'stats') waiting.shift()(m.stats);
  });
  worker.on('error', (err) => {
    failed = err.message;
    for (const resolve of waiting.splice(0)) resolve(failedStats());
  });
  return {
    target(listener) {
      worker.postMessage({ type: 'target', listener });
    },
    take() {
      if (failed) return Promise.resolve(failedStats());
      return new Promise((resolve) => {
        waiting.push(resolve);
        worker.postMessage({ type: 'take' });
      });
    },
    async stop() {
      await worker.terminate();
    },
  };
}

function runWorker() {
  const http = require('node:http');
  const http2 = require('node:http2');
  const { limitMs } = workerData;
  let listener = null;
  let h2Session = null;
  let agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let stats = fresh();

  function fresh() {
    return { polls: 0, maxMs: 0, maxOwnMs: 0, slow: 0, busy: 0, errors: 0, worst: null, firstError: null };
  }

  function resetClients() {
    if (h2Session) h2Session.destroy();
    h2Session = null;
    agent.destroy();
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  }

  function pollHttp(url) {
    return new Promise((resolve) => {
      const req = http.get(`${url}/healthz`, { agent, timeout: POLL_TIMEOUT_MS }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200 ? null : `status ${res.statusCode}`));
      });
      req.on('timeout', () => req.destroy(new Error('no answer')));
      req.on('error', (err) => resolve(err.message));
    });
  }

  function pollH2(url) {
    return new Promise((resolve) => {
      if (!h2Session || h2Session.destroyed || h2Session.closed) {
        h2Session = http2.connect(url, { rejectUnauthorized: false });
        h2Session.on('error', () => {});
      }
      const req = h2Session.request({ ':path': '/healthz' });
      const timer = setTimeout(() => req.close(http2.constants.NGHTTP2_CANCEL), POLL_TIMEOUT_MS);
      let status = null;
      req.on('response', (h) => { status = h[':status']; });
      req.on('error', (err) => {
        clearTimeout(timer);
        resolve(err.message);
      });
      req.on('close', () => {
        clearTimeout(timer);
        resolve(status === 200 ? null : `status ${status ?? 'none'}`);
      });
      req.resume();
      req.end();
    });
  }

  /** Run-queue wait so far of the origin's main thread and of this worker thread, in ns. */
  function waits(pid) {
    const origin = runQueueWaitNs(`/proc/${pid}/task/${pid}/schedstat`);
    const self = runQueueWaitNs('/proc/thread-self/schedstat');
    return origin === null || self === null ? null : origin + self;
  }

  async function loop() {
    for (;;) {
      const target = listener;
      if (target) {
        const waitedBefore = waits(target.pid);
        const started = performance.now();
        const error = await (target.kind === 'h2' ? pollH2(target.url) : pollHttp(target.url));
        const ms = performance.now() - started;
        const waitedAfter = waits(target.pid);
        const waitMs = waitedBefore === null || waitedAfter === null ? 0 : Math.max(0, (waitedAfter - waitedBefore) / 1e6);
        const ownMs = Math.max(0, ms - waitMs);
        if (target === listener) {
          stats.polls += 1;
          if (error) {
            stats.errors += 1;
            stats.slow += 1;
            if (!stats.firstError) stats.firstError = error;
          } else if (ownMs > limitMs) stats.slow += 1;
          else if (ms > limitMs) stats.busy += 1;
          stats.maxOwnMs = Math.max(stats.maxOwnMs, ownMs);
          if (ms > stats.maxMs) {
            stats.maxMs = ms;
            stats.worst = { ms: Math.round(ms), waitMs: Math.round(waitMs), listener: target.name, at: new Date().toISOString(), error };
          }
        }
      }
      await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
    }
  }

  parentPort.on('message', (m) => {
    if (m.type === 'target') {
      listener = m.listener;
      resetClients();
    } else if (m.type === 'take') {
      parentPort.postMessage({ type: 'stats', stats });
      stats = fresh();
    }
  });
  loop();
}

if (!isMainThread && workerData && workerData.healthzMonitor) runWorker();

module.exports = { startHealthzMonitor, POLL_INTERVAL_MS };
