'use strict';
// One 'upgrade' handler for a listener with `upgrades: true`: hands the request to the attachment
// whose path it names, and answers anything else with an HTTP status instead of a hang.
const { refuseUpgrade: refuse } = require('../answer-and-drop');

/**
 * @param {Array<{path: string, handleUpgrade: (req, socket, head) => void}>} endpoints
 * @returns {(req, socket, head) => void} for an http.Server's 'upgrade' event
 */
function routeUpgrades(endpoints) {
  const byPath = new Map(endpoints.map((e) => [e.path, e]));
  return function onUpgrade(req, socket, head) {
    // A client that resets before we answer must not become an uncaught 'error'.
    socket.on('error', () => {});
    let pathname;
    try {
      pathname = new URL(req.url, 'http://origin.invalid').pathname;
    } catch {
      return refuse(socket, 400, 'Bad Request');
    }
    const endpoint = byPath.get(pathname);
    if (!endpoint) return refuse(socket, 404, 'Not Found');
    return endpoint.handleUpgrade(req, socket, head);
  };
}

module.exports = { routeUpgrades };
