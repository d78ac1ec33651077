'use strict';
// One throughput run (a scenario with `throughput`): a fresh Chromium opens the player page
// without starting a playback, gets the throughput hook (page-hook.js, bundled once per process
// with the player's transports), and fetches the origin's byte source over the transport for
// the run's seconds. The counterpart of run-playback.js, with the same options where they mean
// the same, so the runner drives either one.
const path = require('node:path');
const { launchChromium, describeExit } = require('../chromium');
const { chromiumArgsFor } = require('../../player/transports');
const { pageOriginOnLabClock } = require('../runner/lab-clock');
const { bundlePageHook } = require('../bench/quic/bundle-page-hook');

// The origin's /bytes/<n> limit (origin/byte-source.js's MAX_BYTES): the source never runs out.
const SOURCE_BYTES = 2 ** 40;
const SOURCE_PATH = `/bytes/${SOURCE_BYTES}`;
// The page samples its in-order bytes this often; the record cuts them into sampleSeconds windows.
const PAGE_SAMPLE_MS = 1000;
const MIB = 1024 * 1024;
// The page's own connections (its scripts came over the HTTP/1.1 listener, on the clean link)
// must not carry the measurement: one would start with the congestion window the page load
// opened, while every other connection (the parallel transport's pool, a competing flow) starts
// in slow start on the shaped link. The origin closes HTTP/1.x connections idle for 5 s
// (http1-app.js's keepAliveTimeout): the run waits that out first.
const IDLE_BEFORE_START_MS = 6000;

let hookScript = null;
/** The bundled hook, built on first use (webpack, a few seconds) and kept for the process. */
function throughputHook() {
  if (!hookScript) {
    hookScript = bundlePageHook(path.join(__dirname, 'page-hook.js'));
    hookScript.catch(() => { hookScript = null; });
  }
  return hookScript;
}

/**
 * @param {object} o
 * @param {string} o.pageBase       the origin's HTTP/1.1 URL (the page is loaded from it)
 * @param {object} o.originInfo     the origin's ready line (urls, certificate hashes)
 * @param {{name: string, options: object}} o.transport  the registry name and the entry's options
 * @param {{seconds: number, requestMiB: number}} o.throughput  the scenario's throughput key
 * @param {number} [o.timeoutMs]    the whole run's limit
 * @param {string} [o.netns]        Chromium's network namespace
 * @param {() => Promise<void>} [o.beforeStart]  after the page and hook have loaded, before
 *   fetching starts: the runner shapes the link and starts competing flows here
 * @param {AbortSignal} [o.signal]
 * @param {Promise<Error>} [o.failWhen]  fails the run at once (the origin died)
 * @param {(p: {chromiumPid: number}) => void} [o.onPlaying]
 * @returns {Promise<{throughput: object, pageErrors: string[], console: string[], pageTimeOrigin: number}>}
 *   throughput: page-hook.js's result (samples [ms since its start, in-order bytes], ...)
 */
async function runThroughput({ pageBase, originInfo, transport, throughput, timeoutMs = 15 * 60 * 1000, netns = null, beforeStart = null, signal = null, failWhen = null, onPlaying = null }) {
  if (signal && signal.aborted) throw new Error('aborted');
  const script = await throughputHook();
  const browser = await launchChromium({ timeoutMs: timeoutMs + 30000, args: chromiumArgsFor(originInfo), netns, handleSignals: !signal });
  const pageErrors = [];
  const consoleLines = [];
  const onAbort = () => browser.close();
  if (signal) signal.addEventListener('abort', onAbort, { once: true });
  const chromiumDied = browser.exited.then((e) => new Error(`Chromium exited (${describeExit(e)}) during the throughput run`));
  const fatal = failWhen ? Promise.race([chromiumDied, failWhen]) : chromiumDied;
  const step = (promise) => Promise.race([promise, fatal.then((e) => { throw e; })]);
  try {
    const { page } = browser;
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleLines.push(`${m.type()}: ${m.text()}`);
    });
    const response = await step(page.goto(`${pageBase}/`, { timeout: 30000 }));
    if (!response || response.status() !== 200) throw new Error(`player page ${pageBase}/ answered ${response ? response.status() : 'nothing'}`);
    await step(page.waitForFunction(() => window.lab && ['ready', 'error'].includes(window.lab.state), null, { timeout: 30000, polling: 100 }));
    if (await page.evaluate(() => window.lab.state) !== 'ready') throw new Error(`the player page failed: ${await page.evaluate(() => window.lab.errors.join('; '))}`);
    await step(page.addScriptTag({ content: script }));
    await step(new Promise((resolve) => { setTimeout(resolve, IDLE_BEFORE_START_MS); }));
    if (beforeStart) await beforeStart();
    if (onPlaying) onPlaying({ chromiumPid: browser.pid });
    const pageTimeOrigin = await step(pageOriginOnLabClock(page));
    page.setDefaultTimeout(timeoutMs);
    const result = await step(page.evaluate((o) => window.labThroughput.measureThroughput(o), {
      name: transport.name,
      // Plain data only: the loopback venue's origin object also carries its methods.
      originInfo: { urls: originInfo.urls, certSha256Hex: originInfo.certSha256Hex },
      options: transport.options || {},
      sourcePath: SOURCE_PATH,
      sourceBytes: SOURCE_BYTES,
      requestBytes: Math.round(throughput.requestMiB * MIB),
      seconds: throughput.seconds,
      sampleMs: PAGE_SAMPLE_MS,
    }));
    return { throughput: result, pageErrors, console: consoleLines, pageTimeOrigin };
  } catch (caught) {
    if (signal && signal.aborted) throw new Error('aborted');
    if (!browser.browser.isConnected()) throw (await Promise.race([chromiumDied, new Promise((r) => { setTimeout(() => r(null), 4000); })])) || caught;
    caught.diagnostics = { console: consoleLines.slice(-50), pageErrors: pageErrors.slice(-20) };
    throw caught;
  } finally {
    if (signal) signal.removeEventListener('abort', onAbort);
    await browser.close();
  }
}

module.exports = { runThroughput, throughputHook, SOURCE_PATH, SOURCE_BYTES, PAGE_SAMPLE_MS };
