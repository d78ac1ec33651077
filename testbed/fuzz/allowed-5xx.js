'use strict';
// The only 5xx answers the origin may give to hostile input, each with the reason it is not
// a defect. Everything else in 5xx, and any 500, fails the fuzz run: hostile input is the
// client's error (4xx), never the server's.

const ALLOWED_5XX = [
  {
    status: 503,
    where: 'the player page (/, /player/...) while dist/player/index.html is missing',
    why: 'the page is simply not built yet ("npm run build"); origin/routes.js says so in the body (a HEAD answer has none)',
    matches: ({ channel, path, body }) =>
      channel === 'http' && isPlayerPath(path) && (!body || /player page is not built/.test(body)),
  },
  {
    status: 503,
    where: 'the WebSocket upgrade to /fdsp while 32 DataChannel sessions are open',
    why: 'the documented origin-wide session limit (README, origin/datachannel/signaling-server.js)',
    matches: ({ channel }) => channel === 'ws-upgrade',
  },
];

/** Paths the router hands to the player page (everything outside its other mounts). */
function isPlayerPath(path) {
  if (typeof path !== 'string') return false;
  let p = path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, (m) => (m === path ? '/' : ''));
  p = p.split(/[?#]/, 1)[0];
  if (!p.startsWith('/')) return false;
  return !(p.startsWith('/content/') || p.startsWith('/vendor/') || ['/healthz', '/favicon.ico', '/api/info', '/player'].includes(p));
}

/**
 * @param {{status: number, channel: 'http'|'ws-upgrade'|'datachannel', path?: string, body?: string}} answer
 *   body: undefined when only the request log saw the answer
 * @returns {object|null} the rule that allows this 5xx, or null (a failure)
 */
function allowed5xx(answer) {
  if (!(answer.status >= 500 && answer.status <= 599)) return null;
  return ALLOWED_5XX.find((r) => r.status === answer.status && r.matches(answer)) || null;
}

module.exports = { ALLOWED_5XX, allowed5xx, isPlayerPath };
