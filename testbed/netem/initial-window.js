'use strict';
// The origin's TCP initial congestion window, as an older kernel had it. Linux sends 10 segments
// in a new connection's (or an idle connection's restarted) first flight since 2.6.39 (RFC 6928);
// paper 001's 2.6.27 sent 3 (RFC 3390: 4380 bytes at a 1460-byte MSS). Request-response streams
// fetching 20480-byte chunks (15 segments) feel it in every chunk that starts from the initial
// window. ip-route(8)'s `initcwnd` sets it per route: here on every route the origin's namespace
// has towards the client (each path's /24) and, in competing-flows.js, on each competing flow's
// host route, so every sender of the playback starts alike.
const { ip } = require('./ip-netns');

const INITIAL_WINDOW_LIMITS = { min: 1, max: 100 };

/** Pure: the problem with a scenario's initialWindow, or null. */
function initialWindowProblem(value) {
  if (value === undefined) return null;
  const { min, max } = INITIAL_WINDOW_LIMITS;
  if (!(Number.isInteger(value) && value >= min && value <= max)) return `initialWindow must be a whole number of segments, ${min}-${max} (Linux's own is 10; paper 001's kernel 2.6.27 used 3), got ${JSON.stringify(value)}`;
  return null;
}

/** The `ip route` words that give a route this initial window ([] for the kernel's own). */
function initialWindowRouteArgs(packets) {
  return packets === undefined || packets === null ? [] : ['initcwnd', String(packets)];
}

/**
 * Sets the initial window on the server namespace's route to each path's client subnet.
 * @param {object} link  namespace-link.js's link (serverNs, paths[] with serverTun, serverIp)
 * @param {number} packets
 */
function setInitialWindow(link, packets) {
  for (const p of link.paths) {
    const subnet = `${p.serverIp.split('.').slice(0, 3).join('.')}.0/24`;
    // `change` keeps the connected route's identity; proto, scope and src are restated because
    // a replaced route takes only the attributes given.
    ip('-n', link.serverNs, 'route', 'change', subnet, 'dev', p.serverTun, 'proto', 'kernel', 'scope', 'link', 'src', p.serverIp, ...initialWindowRouteArgs(packets));
  }
}

module.exports = { setInitialWindow, initialWindowProblem, initialWindowRouteArgs, INITIAL_WINDOW_LIMITS };
