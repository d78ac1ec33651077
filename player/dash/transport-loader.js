'use strict';
// Plugs the lab's transports into dash.js: dash.js 5 sends the MPD, init and media segment
// requests through its XHRLoader class, and player.extend('XHRLoader', Factory, false) swaps
// that class for this one (docs/platform-notes.md). dash.js keeps its own retry, metrics and
// throughput logic; it only needs the response filled in, progress events (at least two per
// response, or it stores no throughput sample) and onloadend.
const { parseDashRange } = require('../transports/transport');

function rangeFromHeaders(headers) {
  const value = headers && (headers.Range || headers.range);
  if (!value) return null;
  const m = /^bytes=(.*)$/.exec(value);
  return m ? parseDashRange(m[1]) : null;
}

/**
 * @param {object} hooks
 * @param {() => object} hooks.transport     the transport to use for the next request
 * @param {(info: object) => void} [hooks.onResponse]  after each completed response
 *   ({url, requestType, range, accounting, status, request, data})
 * @param {(info: object) => void} [hooks.onError]     a transport error ({url, error})
 * @returns {Function} a dash.js class factory function named XHRLoader
 */
function createTransportLoader(hooks) {
  function XHRLoader() {
    let handle = null;
    let current = null;

    function load(request, response) {
      const custom = request.customData || {};
      const transport = hooks.transport();
      let progressEvents = 0;
      let dataForwarded = false;
      current = { request, custom };
      const requestType = custom.request ? custom.request.type : null;
      const range = rangeFromHeaders(request.headers);
      handle = transport.load(
        // A media segment's duration: FDSP asks for the next one while this one plays (substream overlapping).
        { url: request.url, range, responseType: request.responseType || 'text', timeoutMs: request.timeout || 0, ...(requestType === 'MediaSegment' && custom.request.duration > 0 ? { durationSeconds: custom.request.duration } : {}) },
        {
          onProgress(e) {
            if (!custom.onprogress) return;
            // Bytes ahead of the whole (FDSP's fragments at their deadlines): dash.js appends them
            // now and takes no throughput sample from them (docs/platform-notes.md).
            if (e.data) {
              custom.onprogress({ data: e.data, lengthComputable: false, noTrace: true });
              dataForwarded = true;
              return;
            }
            progressEvents += 1;
            custom.onprogress({ loaded: e.loaded, total: e.total, lengthComputable: e.lengthComputable });
          },
          onComplete(r) {
            handle = null;
            response.url = r.url;
            response.status = r.status;
            response.statusText = r.statusText;
            response.headers = r.headers;
            // When parts went ahead, dash.js gets only the rest (the whole again would be appended twice).
            response.data = dataForwarded && r.appendData !== undefined ? r.appendData : r.data;
            const total = r.accounting.bytes;
            // A response that arrived in one chunk still needs two progress events for dash.js
            // to record a throughput sample.
            while (progressEvents < 2 && custom.onprogress) {
              progressEvents += 1;
              custom.onprogress({ loaded: total, total, lengthComputable: true });
            }
            if (hooks.onResponse) hooks.onResponse({ url: r.url, requestType, range, status: r.status, accounting: r.accounting, request: custom.request, data: r.data });
            if (custom.onloadend) custom.onloadend();
          },
          onError(error) {
            handle = null;
            response.status = 0;
            response.statusText = error && error.message ? error.message : String(error);
            response.data = null;
            if (hooks.onError) hooks.onError({ url: request.url, requestType, error });
            if (custom.onloadend) custom.onloadend();
          },
        },
      );
      custom.abort = abort;
      return true;
    }

    function abort() {
      if (!handle) return;
      handle.abort();
      handle = null;
      if (current && current.custom.onabort) current.custom.onabort();
    }

    return {
      load,
      abort,
      getXhr: () => null,
      reset: abort,
      resetInitialSettings: abort,
    };
  }
  XHRLoader.__dashjs_factory_name = 'XHRLoader';
  return XHRLoader;
}

module.exports = { createTransportLoader, rangeFromHeaders };
