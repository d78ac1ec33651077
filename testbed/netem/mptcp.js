'use strict';
// Multipath TCP between the link's two namespaces over all of its paths (namespace-link.js
// extraPaths; paper 004: one video over two Wi-Fi paths). The kernel does MPTCP
// (net.mptcp.enabled = 1); which subflow carries a packet is its scheduler's choice. Here:
//   - limits in both namespaces: as many subflows and accepted ADD_ADDRs as there are paths;
//   - the client opens a subflow from its own address on each extra path (a "subflow" endpoint)
//     to the server's address, so a connection it opens on path 0 grows one subflow per path;
//   - the client routes by source address (a rule and a table per extra path): a subflow from
//     its path-k address leaves over path k, and the server answers that address over path k
//     too, so each subflow lives on one path both ways (without the rule its ACKs went out over
//     path 0 and its RTT mixed the two paths' delays);
//   - programs that open plain TCP sockets (Node, Chromium) get MPTCP ones under `mptcpize run`
//     (Debian's mptcpize: an LD_PRELOAD of libmptcpwrap), installed by npm run setup.
const { execFileSync } = require('node:child_process');
const { ip } = require('./ip-netns');

/** The argv that runs a program with MPTCP sockets; throws when mptcpize is missing. */
function mptcpizeArgv(argv) {
  try {
    execFileSync('sh', ['-c', 'command -v mptcpize'], { stdio: 'ignore' });
  } catch {
    throw new Error('Multipath TCP needs "mptcpize" (Debian package mptcpize): run "npm run setup"');
  }
  return ['mptcpize', 'run', ...argv];
}

/**
 * Sets MPTCP limits and endpoints in both namespaces for every path of the link.
 * @param {object} link  createEmulatedLink's result, with its client in a namespace
 */
function enableMptcp(link) {
  if (!link.clientNs) throw new Error('MPTCP between namespaces needs the client end in its own namespace');
  const extra = link.paths.slice(1);
  const n = String(Math.max(1, extra.length));
  for (const ns of [link.serverNs, link.clientNs]) {
    const enabled = execFileSync('ip', ['netns', 'exec', ns, 'sysctl', '-n', 'net.mptcp.enabled'], { encoding: 'utf8' }).trim();
    if (enabled !== '1') throw new Error(`MPTCP is disabled in namespace ${ns} (net.mptcp.enabled = ${enabled})`);
    ip('-n', ns, 'mptcp', 'endpoint', 'flush');
    ip('-n', ns, 'mptcp', 'limits', 'set', 'subflow', n, 'add_addr_accepted', n);
  }
  const subnet0 = `${link.paths[0].serverIp.replace(/\.\d+$/, '')}.0/24`;
  for (const p of extra) {
    const table = String(100 + p.index);
    ip('-n', link.clientNs, 'rule', 'add', 'from', p.clientIp, 'lookup', table);
    ip('-n', link.clientNs, 'route', 'add', subnet0, 'dev', p.clientTun, 'table', table);
    ip('-n', link.clientNs, 'mptcp', 'endpoint', 'add', p.clientIp, 'dev', p.clientTun, 'subflow');
  }
}

/** The namespace's MPTCP counters (nstat), e.g. MPTcpExtMPCapableSYNRX, MPTcpExtMPJoinAckRx. */
function mptcpCounters(ns) {
  const out = execFileSync('ip', ['netns', 'exec', ns, 'nstat', '-az', '--json'], { encoding: 'utf8' });
  const all = JSON.parse(out).kernel || {};
  return Object.fromEntries(Object.entries(all).filter(([k]) => k.startsWith('MPTcp')));
}

module.exports = { mptcpizeArgv, enableMptcp, mptcpCounters };
