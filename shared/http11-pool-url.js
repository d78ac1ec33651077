'use strict';
// How the origin's HTTP/1.1 pool (origin/listeners/http11-pool.js: the same routes on several
// ports) publishes its ports, and how the parallel transport reads them. A browser opens at most
// 6 HTTP/1.1 connections per scheme+host+port, so n_c parallel streams need ceil(n_c / 6) ports.
// The pool has one entry in GET /api/info's `urls` like every listener; its URL is the first
// port's, with every port listed in the fragment, which no request carries:
//   urls.http11pool = "http://127.0.0.1:41234/#ports=41234,41235"

/** The suffix after scheme://host:port for a pool on these ports. */
function poolUrlSuffix(ports) {
  if (!Array.isArray(ports) || !ports.length || !ports.every((p) => Number.isInteger(p) && p > 0 && p <= 65535)) {
    throw new RangeError(`an HTTP/1.1 pool needs its ports (1-65535), got ${JSON.stringify(ports)}`);
  }
  return `/#ports=${ports.join(',')}`;
}

/**
 * The base URL (scheme://host:port) of each pool port; a URL without the fragment is a pool of
 * its own port only.
 * @returns {string[]}
 */
function poolBaseUrls(url) {
  const u = new URL(url);
  // A trailing "/" is the origin's printed line (origin/cli.js adds the page path "/").
  const m = /^#ports=(\d{1,5}(?:,\d{1,5})*)\/?$/.exec(u.hash);
  if (!u.hash) return [u.origin];
  if (!m) throw new RangeError(`an HTTP/1.1 pool URL lists its ports as #ports=P1,P2,..., got "${u.hash}" in ${url}`);
  return m[1].split(',').map((p) => `${u.protocol}//${u.hostname}:${p}`);
}

module.exports = { poolUrlSuffix, poolBaseUrls };
