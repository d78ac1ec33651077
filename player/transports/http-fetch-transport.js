'use strict';
// HTTP transports (HTTP/1.0-style, HTTP/1.1, HTTP/2) over the browser's fetch(): one class,
// three listeners. Which protocol really carried a response is read back from Resource Timing
// (nextHopProtocol), never assumed: Chromium silently falls back (h2 -> http/1.1) in some
// setups, and a lab that measured the wrong protocol is worse than one that stops.
const { rangeHeader, rebaseUrl } = require('./transport');
const { raiseResourceTimingBuffer, whenResourceTimingHas } = require('./resource-timing');

/** The newest Resource Timing entry's protocol for url ('' if it has none), waiting briefly. */
function protocolOf(url, timeoutMs = 1000) {
  return whenResourceTimingHas(() => {
    const entries = performance.getEntriesByName(url, 'resource');
    return entries.length ? entries[entries.length - 1].nextHopProtocol || '' : null;
  }, timeoutMs);
}

class HttpFetchTransport {
  /**
   * @param {object} opts
   * @param {string} opts.name, opts.label
   * @param {string} opts.baseUrl           the listener, e.g. https://127.0.0.1:8443
   * @param {string[]} opts.expectedProtocols  nextHopProtocol values that count as this transport
   */
  constructor({ name, label, baseUrl, expectedProtocols }) {
    this.name = name;
    this.label = label;
    this.baseUrl = baseUrl;
    this.expectedProtocols = expectedProtocols;
    raiseResourceTimingBuffer();
  }

  load(request, { onProgress = () => {}, onComplete, onError }) {
    const controller = new AbortController();
    let aborted = false;
    let timer = null;
    const url = rebaseUrl(request.url, this.baseUrl, location.href);
    const headers = {};
    const range = rangeHeader(request.range);
    if (range) headers.Range = range;
    const accounting = { transport: this.name, protocol: null, bytes: 0, requestStart: performance.now(), firstByte: null, lastByte: null };
    if (request.timeoutMs > 0) timer = setTimeout(() => controller.abort(new Error(`timed out after ${request.timeoutMs} ms`)), request.timeoutMs);

    const run = async () => {
      // cache: 'no-store' so every request really crosses the transport being measured.
      const res = await fetch(url, { headers, cache: 'no-store', signal: controller.signal, mode: 'cors' });
      accounting.firstByte = performance.now();
      const total = Number(res.headers.get('content-length')) || 0;
      const chunks = [];
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        accounting.bytes += value.byteLength;
        onProgress({ loaded: accounting.bytes, total, lengthComputable: total > 0 });
      }
      accounting.lastByte = performance.now();
      const body = new Uint8Array(accounting.bytes);
      let offset = 0;
      for (const c of chunks) {
        body.set(c, offset);
        offset += c.byteLength;
      }
      accounting.protocol = await protocolOf(url);
      if (!this.expectedProtocols.includes(accounting.protocol)) {
        throw new Error(
          `${this.label}: the response for ${url} came over "${accounting.protocol || 'unknown'}", expected ${this.expectedProtocols.join(' or ')}`,
        );
      }
      const responseHeaders = {};
      res.headers.forEach((v, k) => {
        responseHeaders[k] = v;
      });
      return {
        url,
        status: res.status,
        statusText: res.statusText,
        headers: responseHeaders,
        data: request.responseType === 'arraybuffer' ? body.buffer : new TextDecoder().decode(body),
        accounting,
      };
    };

    run().then(
      (response) => {
        clearTimeout(timer);
        if (!aborted) onComplete(response);
      },
      (err) => {
        clearTimeout(timer);
        if (!aborted) onError(controller.signal.aborted && controller.signal.reason ? controller.signal.reason : err);
      },
    );
    return {
      abort() {
        aborted = true;
        clearTimeout(timer);
        controller.abort();
      },
    };
  }
}

module.exports = { HttpFetchTransport, protocolOf };
