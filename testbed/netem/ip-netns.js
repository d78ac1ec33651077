'use strict';
// The few iproute2 calls the emulator and its cleanup share: run `ip`, list namespaces, list
// the PIDs inside one, remove a link's namespaces and devices. Errors (no such namespace, no
// iproute2) are the caller's to handle, except in removeLinkNamespaces, which removes what is there.
const { execFileSync } = require('node:child_process');

function ip(...args) {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Names of the network namespaces on this machine (`ip netns list` adds " (id: N)"). */
function namespaceNames() {
  return ip('netns', 'list').split('\n').map((l) => l.split(' ')[0]).filter(Boolean);
}

/** PIDs of the processes running in a namespace now. */
function namespacePids(name) {
  return ip('netns', 'pids', name).split(/\s+/).filter(Boolean).map(Number);
}

/**
 * Removes an emulated link's own namespaces and devices, whatever of them is still there: first
 * every process inside each namespace, by PID (they survive `ip netns del`), then the namespace,
 * then the devices (a TUN device usually goes with its namespace or its socat). One rule for the
 * three places that take a link down: its close(), a new link clearing a killed run's leftovers
 * of the same index, and the relay when its parent is gone (relay-process.js).
 * @param {{namespaces?: string[], devices?: string[]}} link
 */
function removeLinkNamespaces({ namespaces = [], devices = [] }) {
  for (const ns of namespaces) {
    try {
      for (const pid of namespacePids(ns)) {
        try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
      }
      ip('netns', 'del', ns);
    } catch { /* absent */ }
  }
  for (const dev of devices) {
    try { ip('link', 'del', dev); } catch { /* went with its namespace or its socat */ }
  }
}

module.exports = { ip, namespaceNames, namespacePids, removeLinkNamespaces };
