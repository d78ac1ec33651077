'use strict';
// One scripted playback: a fresh Chromium opens the player page with a run configuration in
// its URL (player/run-config.js), waits for the run to stop, and returns the page's QoE JSON,
// the same JSON a person downloads from the page.
const { launchChromium, describeExit } = require('./chromium');
const { runConfigToSearch } = require('../player/run-config');
const { chromiumArgsFor } = require('../player/transports');
const { pageOriginOnLabClock } = require('./runner/lab-clock');

/**
 * @param {object} opts
 * @param {string} opts.pageBase   origin URL serving the page, e.g. http://127.0.0.1:8080
 * @param {object} opts.config     run configuration (content, transport, abr, seeks, stopAt, ...)
 * @param {number} [opts.timeoutMs]  the whole run's limit (default 5 min)
 * @param {string[]} [opts.chromiumArgs]
 * @param {{urls: object, spkiSha256?: string}} [opts.originInfo]  the origin's ready line (or
 *   startOrigin()'s result): the flags its transports need (HTTP/3's forced QUIC and pinned
 *   certificate, ...) come from the transport registry (player/transports: chromiumArgsFor)
 * @param {string} [opts.netns]   run the browser inside this network namespace (the testbed)
 * @param {boolean} [opts.mptcp]  the browser's TCP connections are Multipath TCP (with netns)
 * @param {() => Promise<void>} [opts.beforeStart]  runs after the page has loaded and before
 *   the playback starts (the page holds until then): the runner snapshots the link's counters
 *   and starts its schedules here, so page and script bytes do not count as streaming
 * @param {AbortSignal} [opts.signal]  aborting closes the browser and rejects
 * @param {Promise<Error>} [opts.failWhen]  resolves when the playback can no longer succeed (the
 *   runner's origin process died): the playback fails at once with that error, the page's
 *   state and QoE so far attached, instead of waiting for the timeout
 * @param {(p: {chromiumPid: number|null}) => void} [opts.onPlaying]  called once the playback
 *   has started, with the browser's PID
 * @returns {Promise<{qoe: object, pageErrors: string[], console: string[], pageTimeOrigin: number}>}
 *   pageTimeOrigin: the page's time 0, to which the QoE times are relative, on the runner's
 *   lab clock (runner/lab-clock.js: the wall clock can step during a run)
 */
async function runPlayback({ pageBase, config, timeoutMs = 5 * 60 * 1000, chromiumArgs = [], originInfo = null, netns = null, mptcp = false, beforeStart = null, signal = null, failWhen = null, onPlaying = null }) {
  if (signal && signal.aborted) throw new Error('aborted');
  const args = [...chromiumArgsFor(originInfo), ...chromiumArgs];
  // A caller passing a signal handles Ctrl-C itself (and aborts us through it).
  const browser = await launchChromium({ timeoutMs: timeoutMs + 30000, args, netns, mptcp, handleSignals: !signal });
  const pageErrors = [];
  const consoleLines = [];
  const onAbort = () => browser.close();
  if (signal) signal.addEventListener('abort', onAbort, { once: true });
  // Chromium ending by itself (killed, crashed) fails the playback, named as such. close()
  // below ends it too, but only once nothing waits on a step any more.
  const chromiumDied = browser.exited.then((e) => new Error(`Chromium exited (${describeExit(e)}) during the playback`));
  const fatal = failWhen ? Promise.race([chromiumDied, failWhen]) : chromiumDied;
  // Each step of the playback ends early, with that error, when the playback cannot succeed.
  const step = (promise) => Promise.race([promise, fatal.then((e) => { throw e; })]);
  try {
    const { page } = browser;
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleLines.push(`${m.type()}: ${m.text()}`);
    });
    const url = `${pageBase}/${runConfigToSearch({ ...config, autostart: true, hold: Boolean(beforeStart) })}`;
    const response = await step(page.goto(url, { timeout: 30000 }));
    if (!response || response.status() !== 200) throw new Error(`player page ${url} answered ${response ? response.status() : 'nothing'}`);
    if (beforeStart) {
      await step(page.waitForFunction(() => window.lab && ['held', 'error'].includes(window.lab.state), null, { timeout: 30000, polling: 100 }));
      // Not raced: quick (the runner's own link), and left running after a failure it would
      // start the link's schedules after the cleanup.
      await beforeStart();
      await step(page.evaluate(() => window.lab.go && window.lab.go()));
    }
    if (onPlaying) onPlaying({ chromiumPid: browser.pid });
    const pageTimeOrigin = await step(pageOriginOnLabClock(page));
    // window.lab.done resolves when the run stops (stop time or end of media).
    await step(page.waitForFunction(() => window.lab && (window.lab.state === 'done' || window.lab.state === 'error'), null, { timeout: timeoutMs, polling: 500 }));
    const result = await step(page.evaluate(async () => ({ state: window.lab.state, errors: window.lab.errors, qoe: window.lab.state === 'done' ? await window.lab.done : null })));
    if (result.state === 'error') throw new Error(`the player failed: ${result.errors.join('; ')}`);
    return { qoe: result.qoe, pageErrors, console: consoleLines, pageErrorsOnPage: result.errors, pageTimeOrigin };
  } catch (caught) {
    if (signal && signal.aborted) throw new Error('aborted');
    // Playwright sees a dead browser's pipe close (and fails the step with "Target page,
    // context or browser has been closed" and its whole log) a moment before we learn how
    // the browser ended: name what happened instead.
    const err = browser.browser.isConnected() ? caught
      : (await within(4000, chromiumDied)) || new Error('Chromium disconnected during the playback (its process did not end)');
    // What the page was doing when the run failed (a timeout above all): without it a failed
    // playback is one line, and a player stuck with the whole media downloaded looks exactly
    // like one starved by the network.
    err.diagnostics = await within(5000, pageDiagnostics(browser.page));
    if (err.diagnostics) err.diagnostics.console = consoleLines.slice(-50);
    err.partialQoe = await within(5000, browser.page.evaluate(() => (window.lab && window.lab.qoe ? window.lab.qoe() : null)));
    throw err;
  } finally {
    if (signal) signal.removeEventListener('abort', onAbort);
    await browser.close();
  }
}

/** The media element's and the page's state, for a failed playback's record. */
function pageDiagnostics(page) {
  return page.evaluate(() => {
    const v = document.querySelector('video');
    const ranges = (r) => Array.from({ length: r ? r.length : 0 }, (_, i) => [r.start(i), r.end(i)].map((x) => Math.round(x * 1000) / 1000));
    return {
      labState: window.lab ? window.lab.state : null,
      labErrors: window.lab ? window.lab.errors.slice(-20) : [],
      video: v ? {
        currentTime: v.currentTime,
        duration: Number.isFinite(v.duration) ? v.duration : null,
        paused: v.paused,
        ended: v.ended,
        seeking: v.seeking,
        readyState: v.readyState,
        networkState: v.networkState,
        error: v.error ? `${v.error.code}: ${v.error.message}` : null,
        buffered: ranges(v.buffered),
      } : null,
    };
  });
}

/** The promise's value, or null if it fails or a hung page keeps it waiting past ms. */
function within(ms, promise) {
  let timer;
  return Promise.race([
    promise.catch(() => null),
    new Promise((resolve) => { timer = setTimeout(() => resolve(null), ms); }),
  ]).finally(() => clearTimeout(timer));
}

module.exports = { runPlayback };
