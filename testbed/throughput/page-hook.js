'use strict';
// The hook a throughput run adds to the player page (bundled by
// testbed/bench/quic/bundle-page-hook.js with the player's own transports): it fetches the
// origin's unbounded byte source over a transport of the registry (createTransport, as the
// page's player would get it), so whatever transport is registered (parallel included) is
// measured with the code a playback runs. Runs in the browser.
//
// The source is fetched as consecutive byte ranges of requestBytes, one after another; the
// in-order bytes so far (finished ranges plus the in-order progress of the one in flight) are
// sampled every sampleMs. At `seconds` the range in flight is aborted and the run ends.
const { createTransport } = require('../../player/transports');

/** The transport's load() as a promise, with the handle to abort it. */
function startLoad(transport, request, onProgress) {
  let handle;
  const response = new Promise((resolve, reject) => {
    handle = transport.load(request, { onProgress, onComplete: resolve, onError: reject });
  });
  return { response, abort: () => handle.abort() };
}

/**
 * @param {object} o
 * @param {string} o.name          the registry name (http11, parallel, h2, ...)
 * @param {object} o.originInfo    the origin's ready line: urls, certSha256Hex
 * @param {object} o.options       the transport's options (streams, chunkBytes, gapMs, ...)
 * @param {string} o.sourcePath    the byte source, e.g. /bytes/1099511627776
 * @param {number} o.sourceBytes   its size (ranges never pass it)
 * @param {number} o.requestBytes  bytes per range request
 * @param {number} o.seconds       how long to fetch
 * @param {number} o.sampleMs      how often to sample the in-order bytes
 * @returns {Promise<{startedAtPageMs: number, seconds: number, bytes: number, samples: [number, number][],
 *   requests: number, completedRequests: number, protocols: string[], transportStats: object|null}>}
 *   samples: [ms since the start, in-order bytes]; startedAtPageMs: the start on the page's
 *   performance.now() clock, which the runner puts on its own (not the wall clock, which steps
 *   when a VM is resumed from a snapshot)
 */
async function measureThroughput({ name, originInfo, options, sourcePath, sourceBytes, requestBytes, seconds, sampleMs }) {
  const transport = createTransport(name, originInfo.urls, options, { bufferLevel: () => 0, certSha256Hex: originInfo.certSha256Hex });
  const out = { startedAtPageMs: null, seconds: null, bytes: 0, samples: [], requests: 0, completedRequests: 0, protocols: [], transportStats: null };
  let finished = 0; // bytes of the ranges that have completed
  let inFlight = 0; // in-order bytes of the range in flight
  const t0 = performance.now();
  out.startedAtPageMs = t0;
  const sample = () => out.samples.push([Math.round(performance.now() - t0), finished + inFlight]);
  sample();
  const sampler = setInterval(sample, sampleMs);
  let stopTimer = null;
  const stop = new Promise((resolve) => { stopTimer = setTimeout(() => resolve('stop'), seconds * 1000); });
  try {
    for (let start = 0; ; start += requestBytes) {
      if (start + requestBytes > sourceBytes) throw new Error(`the byte source (${sourceBytes} bytes) ran out`);
      const load = startLoad(transport, { url: sourcePath, range: { start, end: start + requestBytes - 1 }, responseType: 'arraybuffer', timeoutMs: 0 }, (e) => {
        inFlight = e.loaded;
      });
      out.requests += 1;
      const r = await Promise.race([load.response, stop]);
      if (r === 'stop') {
        load.response.catch(() => {}); // the abort's own error, if the transport reports one
        load.abort();
        break;
      }
      if (r.data.byteLength !== requestBytes) throw new Error(`range ${start}-${start + requestBytes - 1} of ${sourcePath} came with ${r.data.byteLength} bytes`);
      finished += r.data.byteLength;
      inFlight = 0;
      out.completedRequests += 1;
      if (!out.protocols.includes(r.accounting.protocol)) out.protocols.push(r.accounting.protocol);
    }
  } finally {
    clearInterval(sampler);
    clearTimeout(stopTimer);
  }
  sample();
  out.seconds = (performance.now() - t0) / 1000;
  out.bytes = finished + inFlight;
  out.transportStats = transport.stats ? transport.stats() : null;
  try {
    if (transport.close) await transport.close();
    else if (transport.session) transport.session.close();
  } catch { /* the measurement is over */ }
  return out;
}

window.labThroughput = { measureThroughput };
