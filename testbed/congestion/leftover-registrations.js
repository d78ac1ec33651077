'use strict';
// BPF congestion controls left registered by a loader that was killed with SIGKILL (its own
// exit paths unregister them: bpf/load-congestion-control.c). Only the lab's (names lab_*) are
// touched, and none while a loader process still runs (a run is using them).
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const registry = require('./registry');

const LOADER_NAME = 'load-congestion-control';

function bpftool(args) {
  const cmd = fs.existsSync('/usr/sbin/bpftool') ? '/usr/sbin/bpftool' : 'bpftool';
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Whether any process of the lab's BPF loader runs (ours or another run's). */
function loaderRunning() {
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith(LOADER_NAME.slice(0, 15))) return true;
    } catch { /* the process ended */ }
  }
  return false;
}

/**
 * @param {{dryRun?: boolean}} [o]
 * @returns {{removed: string[], kept: {name: string, why: string}[], errors: {name: string, message: string}[]}}
 */
function removeLeftoverRegistrations({ dryRun = false } = {}) {
  const out = { removed: [], kept: [], errors: [] };
  const ours = registry.list().filter((c) => c.source === 'bpf').map((c) => c.kernelName);
  const available = fs.readFileSync('/proc/sys/net/ipv4/tcp_available_congestion_control', 'utf8').trim().split(/\s+/);
  const left = ours.filter((n) => available.includes(n));
  if (!left.length) return out;
  if (loaderRunning()) {
    for (const name of left) out.kept.push({ name, why: 'a lab run holds it (its loader process is running)' });
    return out;
  }
  let maps;
  try {
    maps = JSON.parse(bpftool(['--json', 'struct_ops', 'show']));
  } catch (err) {
    for (const name of left) out.errors.push({ name, message: `bpftool cannot list struct_ops: ${err.message.split('\n')[0]}` });
    return out;
  }
  for (const name of left) {
    if (dryRun) { out.removed.push(name); continue; }
    // Maps of earlier, already unregistered loads keep the name while sockets use them:
    // unregistering those fails harmlessly; one of them is the registered one.
    for (const m of maps.filter((x) => x.name === name)) {
      try { bpftool(['struct_ops', 'unregister', 'id', String(m.id)]); } catch { /* not registered */ }
    }
    const still = fs.readFileSync('/proc/sys/net/ipv4/tcp_available_congestion_control', 'utf8').trim().split(/\s+/).includes(name);
    if (still) out.errors.push({ name, message: 'still registered after bpftool struct_ops unregister' });
    else out.removed.push(name);
  }
  return out;
}

module.exports = { removeLeftoverRegistrations, loaderRunning };
