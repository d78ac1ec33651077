'use strict';
// The hook bench:quic adds to the player page (bundled by bundle-page-hook.js): it drives the
// player's own transports (player/transports, the registry the page uses) so the bench
// measures the code a playback runs, not a copy of it. The player's bundle keeps its modules
// private and exposes no way to create a transport; this file is that way, for the bench only.
// Runs in the browser.
const { createTransport } = require('../../../player/transports');

/** One transport request as a promise of its response (transport.js's interface). */
function load(transport, url) {
  return new Promise((resolve, reject) => {
    transport.load({ url, range: null, responseType: 'arraybuffer', timeoutMs: 0 }, { onComplete: resolve, onError: reject });
  });
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * Fetches paths one after another over a transport of the registry, as dash.js would ask it
 * (no buffer, so no playout deadline: every response waits for all its datagrams or END's grace).
 * @param {object} o
 * @param {string} o.name          the registry name, e.g. 'webtransport'
 * @param {object} o.originInfo    the origin's ready line: urls, certSha256Hex
 * @param {object} o.options       the transport's options (bp, carrier, cc, ...)
 * @param {number} o.highestBandwidthBps  the content's top rung (a fixed-rate session's rate)
 * @param {string} o.warmup        fetched first, untimed: opens the sessions
 * @param {string[]} o.paths       the timed requests
 * @param {number} o.tailMs        wait after the last response before reading late chunks
 * @returns {Promise<object>} bytes and seconds of the timed requests, their accounting summed,
 *   the transport's stats() delta (late chunks, duplicates) and its carrier plan
 */
async function fetchOverTransport({ name, originInfo, options, highestBandwidthBps, warmup, paths, tailMs }) {
  const transport = createTransport(name, originInfo.urls, options, { bufferLevel: () => 0, highestBandwidthBps, certSha256Hex: originInfo.certSha256Hex });
  try {
    await load(transport, warmup);
    const before = transport.stats ? transport.stats() : {};
    const out = { bytes: 0, reliableBytes: 0, unreliableBytes: 0, unreliableChunks: 0, lostChunks: 0, finishedBy: {}, protocols: [] };
    const t0 = performance.now();
    for (const p of paths) {
      const { accounting: a } = await load(transport, p);
      out.bytes += a.bytes;
      out.reliableBytes += a.reliableBytes || 0;
      out.unreliableBytes += a.unreliableBytes || 0;
      out.unreliableChunks += a.unreliableChunks || 0;
      out.lostChunks += a.lostChunks || 0;
      out.finishedBy[a.finishedBy] = (out.finishedBy[a.finishedBy] || 0) + 1;
      if (!out.protocols.includes(a.protocol)) out.protocols.push(a.protocol);
    }
    out.seconds = (performance.now() - t0) / 1000;
    // Chunks that come after their response was handed over are not lost to the network: the
    // transport counts them late; give them time to come.
    await sleep(tailMs);
    const after = transport.stats ? transport.stats() : {};
    out.lateChunks = (after.lateChunks || 0) - (before.lateChunks || 0);
    out.duplicates = (after.duplicates || 0) - (before.duplicates || 0);
    out.plan = transport.plan ? { carrier: transport.plan.carrier, reliableCc: transport.plan.reliableCc, unreliableCc: transport.plan.unreliableCc, fixedRateKbps: transport.plan.fixedRateKbps } : null;
    return out;
  } finally {
    if (transport.session) transport.session.close();
  }
}

window.quicBench = { fetchOverTransport };
