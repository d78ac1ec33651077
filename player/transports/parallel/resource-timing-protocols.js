'use strict';
// Which protocols carried the parallel transport's chunks of one response, read back from
// Resource Timing (nextHopProtocol), as http-fetch-transport.js does for whole responses: the
// transport claims HTTP/1.1 connections and must not silently measure something else. A
// response's chunks went to several URLs (the same path on each pool port), each fetched many
// times; every entry of those URLs counts. Entries land after their body, so the last chunk's
// may still be missing when the response completes: waits briefly for at least one.
const { raiseResourceTimingBuffer, whenResourceTimingHas } = require('../resource-timing');

/**
 * @param {string[]} urls
 * @param {number} [timeoutMs]
 * @returns {Promise<string[]>} the nextHopProtocol of every entry (empty ones, such as an aborted
 *   request may leave, left out); [] if none came within timeoutMs
 */
function resourceTimingProtocols(urls, timeoutMs = 1000) {
  const read = () => {
    const found = urls.flatMap((u) => performance.getEntriesByName(u, 'resource')).map((e) => e.nextHopProtocol).filter(Boolean);
    return found.length ? found : null;
  };
  return whenResourceTimingHas(read, timeoutMs).then((found) => found || []);
}

module.exports = { resourceTimingProtocols, raiseResourceTimingBuffer };
