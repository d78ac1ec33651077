'use strict';
// Gives the origin's sender its congestion control for one playback: the server namespace's
// default, which every connection and every MPTCP subflow of the origin then runs (Linux copies
// an MPTCP connection's congestion control to each new subflow once the application has set a
// socket option, as the origin's HTTP server does, so it cannot differ per path). BPF ones
// (registry.js) are registered for the playback and unregistered after it, with any that
// competing flows name (they set theirs on their own routes: testbed/competing/).
const registry = require('./registry');
const { holdCongestionControl } = require('./bpf-loader');
const { setCongestionControl } = require('../netem/namespace-link');

/**
 * @param {object} link  namespace-link.js's link (serverNs)
 * @param {object} o
 * @param {string} o.namespaceDefault  registry name for the whole server namespace
 * @param {string[]} [o.others]        more names that must be registered (competing flows)
 * @returns {Promise<{release: () => Promise<void>}>}
 */
async function applyCongestionControls(link, { namespaceDefault, others = [] }) {
  const names = [...new Set([namespaceDefault, ...others])];
  const held = [];
  const release = async () => { await Promise.all(held.map((h) => h.release())); };
  try {
    for (const name of names) held.push(await holdCongestionControl(registry.get(name)));
    setCongestionControl(link.serverNs, registry.get(namespaceDefault).kernelName);
  } catch (err) {
    await release();
    throw err;
  }
  return { release };
}

module.exports = { applyCongestionControls };
