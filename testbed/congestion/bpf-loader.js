'use strict';
// Registers a BPF congestion control (registry.js, source 'bpf') with the kernel for as long as
// the caller holds it. The registration lives in a child process (bpf/load-congestion-control.c)
// that unregisters when its stdin closes, so it ends with this process on every exit path, a
// crash or SIGKILL included. A registration is global to the kernel (every namespace sees the
// name); holders in one process share one child.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { removeLeftoverRegistrations, loaderRunning } = require('./leftover-registrations');

const BUILD_DIR = path.join(__dirname, 'bpf', 'build');
const LOADER = path.join(BUILD_DIR, 'load-congestion-control');
const held = new Map(); // kernelName -> {child, users, ready: Promise}

/** A BPF congestion control that cannot be used on this machine, with the reason (for the user). */
class CongestionControlUnavailableError extends Error {}

function available() {
  return fs.readFileSync('/proc/sys/net/ipv4/tcp_available_congestion_control', 'utf8').trim().split(/\s+/);
}

/** Why the BPF congestion controls cannot be used here, or null. */
function unavailableReason(entry) {
  if (process.getuid && process.getuid() !== 0) return `TCP congestion control "${entry.name}" is a BPF program, and registering it needs root`;
  const failed = path.join(BUILD_DIR, 'build-failed.log');
  if (fs.existsSync(failed)) return `the BPF congestion controls failed to build (${failed}); "${entry.name}" cannot be used`;
  if (!fs.existsSync(LOADER) || !fs.existsSync(path.join(BUILD_DIR, entry.object))) {
    return fs.existsSync('/sys/kernel/btf/vmlinux')
      ? `TCP congestion control "${entry.name}" is not built: run "npm run setup" (needs clang, bpftool, libbpf-dev)`
      : `TCP congestion control "${entry.name}" needs a kernel with BTF (/sys/kernel/btf/vmlinux), which this one lacks`;
  }
  return null;
}

function startChild(entry) {
  const child = spawn(LOADER, [path.join(BUILD_DIR, entry.object)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  // A loader that is gone (spawn failed, killed) must not crash the run when we write to it.
  child.stdin.on('error', () => {});
  const ready = new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => { child.kill('SIGTERM'); reject(new Error(`registering ${entry.kernelName} took over 20 s`)); }, 20000);
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes(`registered ${entry.kernelName}`)) { clearTimeout(timer); resolve(); }
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot start the BPF loader for "${entry.name}": ${err.message}`));
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      // After registering, a loader that ends has unregistered: later holders must start anew.
      if (held.get(entry.kernelName) && held.get(entry.kernelName).child === child) held.delete(entry.kernelName);
      reject(new Error(`the kernel refused TCP congestion control "${entry.name}" (${entry.kernelName}): ${stderr.trim().split('\n').slice(-3).join(' ') || `loader exit ${code}`}`));
    });
  });
  // Node must not wait for the child; the pipe stays open until release or exit.
  child.unref();
  child.stdout.unref?.();
  child.stderr.unref?.();
  return { child, ready };
}

/**
 * Makes `entry` (a registry entry) usable by name in every namespace until the returned release()
 * is called. Kernel congestion controls need nothing. A BPF one already registered by another
 * process (another run of the lab) is used as it is.
 * @returns {Promise<{release: () => Promise<void>, registeredHere: boolean}>}
 */
async function holdCongestionControl(entry) {
  if (entry.source !== 'bpf') return { release: async () => {}, registeredHere: false };
  const why = unavailableReason(entry);
  if (why) throw new CongestionControlUnavailableError(why);
  let h = held.get(entry.kernelName);
  if (!h) {
    if (available().includes(entry.kernelName)) {
      // Registered already: by another lab run (its loader runs; use it as it is), or left by a
      // loader killed with SIGKILL (no loader runs): that one may be an older build, so it goes.
      if (loaderRunning()) return { release: async () => {}, registeredHere: false };
      const left = removeLeftoverRegistrations();
      if (left.errors.length) throw new Error(`${entry.kernelName} is registered by no running loader and could not be removed: ${left.errors[0].message}`);
    }
    h = { ...startChild(entry), users: 0 };
    held.set(entry.kernelName, h);
    h.ready.catch(() => held.delete(entry.kernelName));
  }
  h.users++;
  try {
    await h.ready;
  } catch (err) {
    h.users--;
    throw err;
  }
  let released = false;
  return {
    registeredHere: true,
    release: async () => {
      if (released) return;
      released = true;
      if (--h.users > 0) return;
      held.delete(entry.kernelName);
      const gone = new Promise((resolve) => {
        if (h.child.exitCode !== null || h.child.signalCode !== null) resolve();
        else h.child.once('exit', resolve);
      });
      h.child.stdin.end(); // the loader unregisters and exits
      const timer = setTimeout(() => h.child.kill('SIGTERM'), 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}

module.exports = { holdCongestionControl, unavailableReason, availableCongestionControls: available, CongestionControlUnavailableError, BUILD_DIR };
