'use strict';
// Packets lost outside the emulator's own accounting: a UDP socket whose receive buffer was
// full (Chromium's, the origin's, or the relay's and socat's on the host's loopback) or a
// TUN device whose queue overflowed. The relay's counters only see what reaches it, so a
// "clean" link can still lose packets here, and for an unreliable DataChannel that is loss
// the emulator did not configure. The runner records these per playback beside the
// emulator's counters.
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');

const UDP_FIELDS = ['InErrors', 'RcvbufErrors', 'SndbufErrors'];

/** The Udp counters of /proc/net/snmp text. */
function parseUdpCounters(snmpText) {
  const lines = snmpText.split('\n').filter((l) => l.startsWith('Udp:'));
  if (lines.length < 2) throw new Error('no Udp lines in /proc/net/snmp');
  const names = lines[0].trim().split(/\s+/).slice(1);
  const values = lines[1].trim().split(/\s+/).slice(1).map(Number);
  const out = {};
  for (const f of UDP_FIELDS) out[f] = values[names.indexOf(f)] ?? 0;
  return out;
}

/** One namespace's UDP counters (ns null: the host's), and its TUN device's drops if named. */
function readNamespace(ns, tun) {
  const snmp = ns ? execFileSync('ip', ['netns', 'exec', ns, 'cat', '/proc/net/snmp'], { encoding: 'utf8' }) : fs.readFileSync('/proc/net/snmp', 'utf8');
  const out = { udp: parseUdpCounters(snmp) };
  if (tun) {
    const [dev] = JSON.parse(execFileSync('ip', ['-n', ns, '-s', '-j', 'link', 'show', 'dev', tun], { encoding: 'utf8' }));
    out.tun = { txDropped: dev.stats64.tx.dropped, rxDropped: dev.stats64.rx.dropped };
  }
  return out;
}

/**
 * @param {{serverNs: string, clientNs: string, serverTun: string, clientTun: string}} names
 * @returns {{server: object, client: object, host: object}}  host: the relay's and socat's
 *   loopback sockets, shared with everything else on the machine
 */
function readEndpointDrops(names) {
  return {
    server: readNamespace(names.serverNs, names.serverTun),
    client: readNamespace(names.clientNs, names.clientTun),
    host: readNamespace(null, null),
  };
}

/** after - before, field by field (same shape). */
function diffDrops(after, before) {
  if (typeof after === 'number') return after - (before || 0);
  const out = {};
  for (const k of Object.keys(after)) out[k] = diffDrops(after[k], before ? before[k] : undefined);
  return out;
}

module.exports = { readEndpointDrops, readNamespace, diffDrops, parseUdpCounters };
