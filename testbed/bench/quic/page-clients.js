'use strict';
// The HTTP side of bench:quic inside Chromium's page (page.evaluate serializes the function,
// so it is self-contained): a plain fetch() loop over HTTP/1.1 or HTTP/3, the same segments one
// after another, each response's protocol read from Resource Timing. FDSP over WebTransport is
// not here: it runs the player's own transport (page-hook.js).

/**
 * @param {{base: string, warmup: string, urls: string[]}} o  base: the listener's URL; warmup:
 *   fetched first and not timed (the connection's handshake is not the transfer's)
 * @returns {Promise<{bytes: number, seconds: number, protocols: string[], perResponse: string[]}>}
 *   perResponse: every timed response's nextHopProtocol, in order
 */
async function fetchSegments({ base, warmup, urls }) {
  performance.setResourceTimingBufferSize(10000);
  await (await fetch(base + warmup, { cache: 'no-store' })).arrayBuffer();
  performance.clearResourceTimings();
  const t0 = performance.now();
  let bytes = 0;
  for (const u of urls) bytes += (await (await fetch(base + u, { cache: 'no-store' })).arrayBuffer()).byteLength;
  const seconds = (performance.now() - t0) / 1000;
  // An entry lands once its body is read; the last one may need a moment.
  const entries = async () => performance.getEntriesByType('resource').filter((e) => e.name.startsWith(base));
  let found = await entries();
  for (let i = 0; i < 20 && found.length < urls.length; i += 1) {
    await new Promise((r) => { setTimeout(r, 50); });
    found = await entries();
  }
  const perResponse = urls.map((u) => {
    const e = found.filter((x) => x.name === base + u).pop();
    return e ? e.nextHopProtocol || '(empty)' : '(no entry)';
  });
  return { bytes, seconds, protocols: [...new Set(perResponse)], perResponse };
}

module.exports = { fetchSegments };
