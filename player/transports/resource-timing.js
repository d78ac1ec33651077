'use strict';
// Reading Resource Timing back in the page: which protocol (nextHopProtocol) really carried a
// response. The HTTP transports check it for every response (http-fetch-transport.js), the
// parallel transport for every response's chunks (parallel/resource-timing-protocols.js).

// dash.js fetches hundreds of segments and the parallel transport thousands of chunks; the
// default buffer of 250 entries would silently stop recording protocols part-way through a run.
let bufferRaised = false;
function raiseResourceTimingBuffer() {
  if (!bufferRaised && typeof performance !== 'undefined' && performance.setResourceTimingBufferSize) {
    performance.setResourceTimingBufferSize(100000);
    bufferRaised = true;
  }
}

/**
 * What read() finds, waiting up to timeoutMs for a new Resource Timing entry if it finds nothing
 * yet: entries land after the response's body, so the newest may still be missing.
 * @param {() => *} read  returns null while there is nothing to report
 * @returns {Promise<*>} read()'s first non-null answer, or its answer at the timeout
 */
function whenResourceTimingHas(read, timeoutMs = 1000) {
  const now = read();
  if (now !== null) return Promise.resolve(now);
  return new Promise((resolve) => {
    const observer = new PerformanceObserver(() => {
      const found = read();
      if (found !== null) {
        observer.disconnect();
        clearTimeout(timer);
        resolve(found);
      }
    });
    observer.observe({ type: 'resource', buffered: false });
    const timer = setTimeout(() => {
      observer.disconnect();
      resolve(read());
    }, timeoutMs);
  });
}

module.exports = { raiseResourceTimingBuffer, whenResourceTimingHas };
