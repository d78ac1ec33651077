'use strict';
// Playbacks without the emulator (--no-emulation, asked for explicitly): one in-process origin on
// loopback for the whole run, each playback in a fresh Chromium in this machine's own network.
// No link, so no counters, switches or wire series. The origin's request log is split by
// playback and written to each playback's log file, as the emulated origin writes its own.
const fs = require('node:fs');
const { runPlayback } = require('../run-playback');
const { runThroughput } = require('../throughput/run-throughput');
const { startOrigin } = require('../../origin/start-origin');

/**
 * @param {object} o
 * @param {string} o.contentDir, o.dataDir
 * @returns {Promise<{play: (p: object, each: object) => Promise<object>, close: () => Promise<void>}>}
 *   play(p, {playerConfig, logFile, signal, onPlaying}): one playback, with the same result
 *   fields as emulated-playback.js (counters null, no switches)
 */
async function startLoopbackPlaybacks({ scenario = {}, contentDir, dataDir }) {
  let requests = [];
  const origin = await startOrigin({ host: '127.0.0.1', http11Port: 0, http10Port: 0, h2Port: 0, contentDir, dataDir, log: (e) => requests.push(e) });
  async function play(p, { playerConfig, logFile, signal = null, onPlaying = () => {} }) {
    requests = [];
    try {
      const drive = p.kind === 'throughput' ? runThroughput : runPlayback;
      const result = await drive({
        pageBase: origin.urls.http11,
        originInfo: origin,
        config: playerConfig,
        transport: { name: p.transportName, options: p.transportOptions || {} },
        throughput: scenario.throughput,
        timeoutMs: p.timeoutSeconds * 1000,
        signal,
        onPlaying: ({ chromiumPid }) => onPlaying({ originPid: process.pid, serverNs: null, chromiumPid, clientNs: null }),
      });
      return { qoe: result.qoe || null, throughput: result.throughput || null, competingFlows: null, pageErrors: result.pageErrors, console: result.console, counters: null, switchLog: [], pageToLinkMs: 0 };
    } finally {
      // A failed playback's requests too: its record summarizes them, as an emulated one's does.
      fs.writeFileSync(logFile, requests.map((e) => JSON.stringify(e)).join('\n') + (requests.length ? '\n' : ''));
    }
  }
  return { play, close: () => origin.close() };
}

module.exports = { startLoopbackPlaybacks };
