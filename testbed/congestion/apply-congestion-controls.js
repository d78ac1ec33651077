'use strict';
// Gives the origin's sender its congestion control for one playback: the scenario's for the whole
// server namespace (its default), and a path's own where a multipath profile names one (the
// server's route to that path's client subnet gets `congctl NAME`, ip-route(8): every connection
// and MPTCP subflow toward that path then uses it, passive ones included). BPF ones
// (registry.js) are registered for the playback and unregistered after it.
const { execFileSync } = require('node:child_process');
const registry = require('./registry');
const { holdCongestionControl } = require('./bpf-loader');
const { setCongestionControl } = require('../netem/namespace-link');

/** The server namespace's connected route to a path's client subnet gets `congctl`. */
function setPathCongestionControl(ns, path, kernelName) {
  const prefix = `${path.clientIp.replace(/\.\d+$/, '.0')}/24`;
  const routes = execFileSync('ip', ['-n', ns, 'route', 'show', prefix], { encoding: 'utf8' }).trim();
  if (!routes) throw new Error(`no route to ${prefix} in ${ns}`);
  const route = routes.split('\n')[0].trim().split(/\s+/);
  const i = route.indexOf('congctl');
  if (i >= 0) route.splice(i, 2);
  execFileSync('ip', ['-n', ns, 'route', 'replace', ...route, 'congctl', kernelName]);
}

/**
 * @param {object} link  namespace-link.js's link (serverNs, paths)
 * @param {object} o
 * @param {string} o.namespaceDefault       registry name for the whole server namespace
 * @param {Array<string|undefined>} [o.perPath]  registry name per path (index = path), or undefined
 * @param {string[]} [o.others]             more names that must be registered (competing flows)
 * @returns {Promise<{release: () => Promise<void>, perPathKernelNames: Array<string|null>}>}
 */
async function applyCongestionControls(link, { namespaceDefault, perPath = [], others = [] }) {
  const names = [...new Set([namespaceDefault, ...perPath.filter(Boolean), ...others])];
  const held = [];
  const release = async () => { await Promise.all(held.map((h) => h.release())); };
  try {
    for (const name of names) held.push(await holdCongestionControl(registry.get(name)));
    setCongestionControl(link.serverNs, registry.get(namespaceDefault).kernelName);
    for (const [i, name] of perPath.entries()) {
      if (name) setPathCongestionControl(link.serverNs, link.paths[i], registry.get(name).kernelName);
    }
  } catch (err) {
    await release();
    throw err;
  }
  return { release, perPathKernelNames: link.paths.map((_, i) => (perPath[i] ? registry.get(perPath[i]).kernelName : null)) };
}

module.exports = { applyCongestionControls, setPathCongestionControl };
