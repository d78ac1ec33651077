'use strict';
// The abusive clients, in a process of their own (forked by the load bench): their CPU work
// (a rapid reset loop is busy) must not stall the simulated players' event loop and be
// counted as the origin's latency. Gets {urls, plan, abuse, durationMs} in its first IPC
// message, reports its counters every few seconds and when done, then exits. It exits at once
// if the bench goes away (IPC disconnect), so it never outlives it.
const { setMaxListeners } = require('node:events');
const { runNonReader } = require('./non-reader');
const { runSlowloris } = require('./slowloris');
const { runRapidReset } = require('./rapid-reset');

const REPORT_EVERY_MS = 5000;

function newStats() {
  return {
    nonreaders: { connections: 0, closedByServer: 0, errors: {} },
    slowloris: { connections: 0, closedByServer: 0, answered408: 0, secondsHeld: 0, errors: {} },
    rapidreset: { connections: 0, streams: 0, goaways: {}, closedByServer: 0, errors: {} },
  };
}

async function runAbuse({ urls, plan, abuse, durationMs }, report) {
  const until = Date.now() + durationMs;
  const controller = new AbortController();
  // Every abusive client waits on this one signal.
  setMaxListeners(0, controller.signal);
  const stopTimer = setTimeout(() => controller.abort(), durationMs + 1000);
  const stats = newStats();
  const top = plan.rungs[plan.rungs.length - 1];
  const bigPaths = top.segments.slice(0, 8).map((s) => s.path);
  const runs = [];
  for (let i = 0; i < abuse.nonreaders; i += 1) {
    runs.push(runNonReader({ protocol: i % 2 ? 'h2' : 'http11', url: i % 2 ? urls.h2 : urls.http11, paths: bigPaths, until, signal: controller.signal, stats: stats.nonreaders }));
  }
  for (let i = 0; i < abuse.slowloris; i += 1) {
    runs.push(runSlowloris({ url: i % 2 ? urls.http10 : urls.http11, path: plan.mpdPath, byteEveryMs: 2000, until, signal: controller.signal, stats: stats.slowloris }));
  }
  for (let i = 0; i < abuse.rapidreset; i += 1) {
    runs.push(runRapidReset({ url: urls.h2, path: top.segments[0].path, streamsPerBatch: 100, batchEveryMs: 10, until, signal: controller.signal, stats: stats.rapidreset }));
  }
  const ticker = setInterval(() => report({ type: 'progress', stats }), REPORT_EVERY_MS);
  await Promise.all(runs);
  clearInterval(ticker);
  clearTimeout(stopTimer);
  report({ type: 'done', stats });
}

if (require.main === module) {
  process.on('disconnect', () => process.exit(0));
  process.once('message', (config) => {
    runAbuse(config, (m) => process.send(m))
      .then(() => process.disconnect())
      .catch((err) => {
        process.send({ type: 'error', message: err.stack || err.message });
        process.exit(1);
      });
  });
}

module.exports = { runAbuse };
