'use strict';
// The few iproute2 calls the emulator and its cleanup share: run `ip`, list namespaces, list
// the PIDs inside one. Errors (no such namespace, no iproute2) are the caller's to handle.
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

module.exports = { ip, namespaceNames, namespacePids };
