'use strict';
// An emulated network between two network namespaces, so the origin and the browser talk
// through real kernel TCP/UDP stacks and every packet between them crosses the link emulator:
//
//   [server ns] tunS --socat--> UDP --> relay (LinkDirection x2) --> UDP --socat--> tunC [client ns]
//
// Needs root (CAP_NET_ADMIN) for namespaces and TUN devices. Everything it starts (socats,
// relay, namespaces, and any process left inside them) is ended by close(), by PID, and on
// process exit; should this process end without either (a crash, SIGKILL, Ctrl-C under Jest),
// the relay sees its stdin close and removes the namespaces itself (relay-process.js).
const fs = require('node:fs');
const path = require('node:path');
const dgram = require('node:dgram');
const { spawn, execFileSync } = require('node:child_process');
const readline = require('node:readline');
const { ip, removeLinkNamespaces } = require('./ip-netns');

class EmulationUnavailableError extends Error {}

function requireRoot() {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new EmulationUnavailableError(
      'network emulation needs root (network namespaces and TUN devices need CAP_NET_ADMIN); run as root, or ask for a run without emulation',
    );
  }
  for (const cmd of ['ip', 'socat']) {
    try {
      execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    } catch {
      throw new EmulationUnavailableError(`network emulation needs "${cmd}": run "npm run setup" (installs iproute2 and socat)`);
    }
  }
}

async function freeUdpPorts(n) {
  const sockets = await Promise.all(Array.from({ length: n }, () => new Promise((resolve, reject) => {
    const s = dgram.createSocket('udp4');
    s.once('error', reject);
    s.bind(0, '127.0.0.1', () => resolve(s));
  })));
  const ports = sockets.map((s) => s.address().port);
  await Promise.all(sockets.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

const live = new Set();
process.on('exit', () => {
  for (const link of live) link.closeSync();
});

function waitFor(check, timeoutMs, what) {
  const until = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (check()) return resolve();
      if (Date.now() > until) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

function linkExists(name) {
  try {
    ip('link', 'show', name);
    return true;
  } catch {
    return false;
  }
}

// Paths beyond the first: names and subnets apart from path 0's (labts<index>, 10.77.<index>).
const MAX_EXTRA_PATHS = 3;
const extraPathNames = (index, k) => ({ serverTun: `labts${index}p${k}`, clientTun: `labtc${index}p${k}` });
const extraPathAddresses = (index, k) => ({ serverIp: `10.${77 + k}.${index}.1`, clientIp: `10.${77 + k}.${index}.2` });

/**
 * @param {object} [o]
 * @param {number} [o.index]     a small number that keeps names and subnets apart (default pid-based)
 * @param {object} [o.toClient]  LinkDirection settings, server -> client (downlink)
 * @param {object} [o.toServer]  client -> server (uplink)
 * @param {boolean} [o.realtime] run relay and socats at real-time priority (default true)
 * @param {{toClient?: object, toServer?: object}[]} [o.extraPaths]  more paths between the same
 *   two namespaces (at most 3), each with its own TUN pair, subnet 10.(77+k).<index> and
 *   relay: link.paths[k] (path 0 is the link itself) has its addresses, configure() and counters()
 * @param {boolean} [o.clientInHost] leave the client end in this (the host's) namespace, so any
 *   browser on the machine reaches the server's address through the emulator (npm run lab);
 *   no client namespace is made
 */
async function createEmulatedLink(o = {}) {
  requireRoot();
  if ((o.extraPaths || []).length > MAX_EXTRA_PATHS) throw new Error(`at most ${MAX_EXTRA_PATHS} extra paths, got ${o.extraPaths.length}`);
  if (o.extraPaths && o.extraPaths.length && o.clientInHost) throw new Error('extra paths need the client end in its own namespace');
  const index = o.index ?? (process.pid % 200) + 20;
  const names = { serverNs: `labsrv${index}`, clientNs: `labcli${index}`, serverTun: `labts${index}`, clientTun: `labtc${index}` };
  const subnet = `10.77.${index}`;
  const serverIp = `${subnet}.1`;
  const clientIp = `${subnet}.2`;
  const children = [];
  const link = {
    ...names,
    serverIp,
    clientIp,
    closed: false,
    broken: null, // why the link stopped carrying packets, if it did
    closeSync() {
      if (link.closed) return;
      link.closed = true;
      live.delete(link);
      for (const c of children) {
        try { process.kill(c.pid, 'SIGKILL'); } catch { /* gone */ }
      }
      removeLinkNamespaces({
        namespaces: [names.serverNs, names.clientNs],
        devices: [names.serverTun, names.clientTun, ...(link.paths || []).slice(1).flatMap((p) => [p.serverTun, p.clientTun])],
      });
    },
    async close() {
      const exits = children.filter((c) => c.exitCode === null && c.signalCode === null)
        .map((c) => new Promise((resolve) => {
          c.once('exit', resolve);
          setTimeout(resolve, 3000).unref();
        }));
      link.closeSync();
      // Reaped, not just signalled: a caller checking right after close() finds them gone.
      await Promise.all(exits);
    },
  };
  live.add(link);
  try {
    // Leftovers of a run of ours that was killed hard (same index): remove them first.
    removeLinkNamespaces({ namespaces: [names.serverNs, names.clientNs] });
    if (o.clientInHost && linkExists(names.clientTun)) ip('link', 'del', names.clientTun);
    const namespaces = o.clientInHost ? [names.serverNs] : [names.serverNs, names.clientNs];
    for (const ns of namespaces) {
      ip('netns', 'add', ns);
      ip('-n', ns, 'link', 'set', 'lo', 'up');
    }
    if (o.clientInHost) link.clientNs = null;

    const realtime = o.realtime !== false;
    const rt = (cmd) => (realtime ? ['chrt', '-f', '20', ...cmd] : cmd);

    /**
     * One path: a relay (the emulated link, one LinkDirection per direction) between two TUN
     * devices, the server's in the server namespace and the client's in the client namespace
     * (or the host), each fed by a socat. Path 0 is the link's own; more paths (paper 004's two
     * Wi-Fi paths) join the same two namespaces with their own devices, subnet and relay.
     */
    const startPath = async (k, pathNames, addresses, settings) => {
      const [serverSidePort, serverSocatPort, clientSidePort, clientSocatPort] = await freeUdpPorts(4);
      const relayArgs = rt([process.execPath, path.join(__dirname, 'relay-process.js'),
        JSON.stringify({ serverSidePort, serverSocatPort, clientSidePort, clientSocatPort, toClient: settings.toClient || {}, toServer: settings.toServer || {} }),
        // Path 0's relay removes the link if this process ends without close() (relay-process.js).
        ...(k === 0 ? [JSON.stringify({ namespaces, devices: [names.serverTun, names.clientTun] })] : [])]);
      const relay = spawn(relayArgs[0], relayArgs.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
      children.push(relay);
      let relayErr = '';
      relay.stderr.on('data', (c) => { relayErr += c; });
      const lines = readline.createInterface({ input: relay.stdout });
      const pending = [];
      lines.on('line', (line) => {
        const msg = JSON.parse(line);
        const waiter = pending.shift();
        if (waiter) waiter(msg);
      });
      const ask = (obj) => new Promise((resolve, reject) => {
        if (link.closed) return reject(new Error('the emulated link is closed'));
        pending.push((msg) => (msg.error ? reject(new Error(msg.error)) : resolve(msg)));
        relay.stdin.write(`${JSON.stringify(obj)}\n`);
      });
      await new Promise((resolve, reject) => {
        pending.push(resolve);
        relay.once('exit', (code) => reject(new Error(`relay of path ${k} exited (${code}): ${relayErr}`)));
      });

      const socat = (tun, listenPort, relayPort) => {
        const args = rt(['socat', `TUN,tun-name=${tun},iff-no-pi,tun-type=tun`,
          `UDP-DATAGRAM:127.0.0.1:${relayPort},bind=127.0.0.1:${listenPort},rcvbuf=4194304,sndbuf=4194304`]);
        const child = spawn(args[0], args.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
        children.push(child);
        let err = '';
        child.stderr.on('data', (c) => { err = (err + c).slice(-500); });
        // A socat that exits takes its TUN device, and the link, with it: say so where it is seen.
        child.once('exit', (code, signal) => {
          if (!link.closed && !link.broken) link.broken = `socat for ${tun} exited (${signal || code}): ${err.trim()}`;
        });
        return child;
      };
      socat(pathNames.serverTun, serverSocatPort, serverSidePort);
      socat(pathNames.clientTun, clientSocatPort, clientSidePort);
      for (const [tun, ns, addr] of [[pathNames.serverTun, names.serverNs, addresses.serverIp], [pathNames.clientTun, link.clientNs, addresses.clientIp]]) {
        await waitFor(() => linkExists(tun), 5000, `TUN device ${tun}`);
        // The address and queue length are set after the move: a move resets them.
        if (ns) ip('link', 'set', tun, 'netns', ns);
        const inNs = ns ? ['-n', ns] : [];
        ip(...inNs, 'addr', 'add', `${addr}/24`, 'dev', tun);
        ip(...inNs, 'link', 'set', tun, 'txqueuelen', '2000', 'up');
      }
      return {
        index: k,
        ...pathNames,
        ...addresses,
        relayPid: relay.pid,
        configure: (direction, pathSettings) => ask({ configure: { direction, settings: pathSettings } }),
        counters: async () => (await ask({ counters: true })).counters,
        watchAddresses: async (list) => { await ask({ watch: list }); },
      };
    };

    const main = await startPath(0, { serverTun: names.serverTun, clientTun: names.clientTun }, { serverIp, clientIp }, { toClient: o.toClient, toServer: o.toServer });
    link.paths = [main];
    for (const [i, extra] of (o.extraPaths || []).entries()) {
      const k = i + 1;
      link.paths.push(await startPath(k, extraPathNames(index, k), extraPathAddresses(index, k), extra || {}));
    }
    link.configure = main.configure;
    /**
     * A network interface change as a phone sees it (paper 002's WiFi <-> LTE switches): the
     * client gets a new address, so its TCP connections die and must be re-established.
     * The old sockets are destroyed (ss -K, like a kernel dropping an interface's sockets);
     * Chromium also sees the address change and drops its pooled connections.
     */
    link.switchClientAddress = () => {
      if (!link.clientNs) throw new Error('switchClientAddress needs the client end in its own namespace');
      const last = Number(link.clientIp.split('.')[3]);
      const next = `${subnet}.${last === 2 ? 3 : 2}`;
      // Delete before add: deleting a primary address also deletes its secondaries.
      ip('-n', names.clientNs, 'addr', 'del', `${link.clientIp}/24`, 'dev', names.clientTun);
      ip('-n', names.clientNs, 'addr', 'add', `${next}/24`, 'dev', names.clientTun);
      try {
        execFileSync('ip', ['netns', 'exec', names.clientNs, 'ss', '-K', 'src', link.clientIp], { stdio: 'ignore' });
      } catch { /* nothing to kill */ }
      link.clientIp = next;
      link.paths[0].clientIp = next;
      return next;
    };
    link.counters = main.counters;
    /** Counts the packets of these client-side addresses apart (counters().byAddress). */
    link.watchAddresses = main.watchAddresses;
    link.relayPid = main.relayPid;
    return link;
  } catch (err) {
    link.closeSync();
    throw err;
  }
}

/** argv to run a command inside a namespace. */
function inNamespace(ns, argv) {
  return ['ip', 'netns', 'exec', ns, ...argv];
}

/** Sets a namespace's default TCP congestion control, by the kernel's name (testbed/congestion/registry.js kernelName). */
function setCongestionControl(ns, algorithm) {
  const allowed = fs.readFileSync('/proc/sys/net/ipv4/tcp_allowed_congestion_control', 'utf8').trim().split(/\s+/);
  if (!allowed.includes(algorithm)) {
    // A namespace may only pick what the root namespace allows.
    const available = fs.readFileSync('/proc/sys/net/ipv4/tcp_available_congestion_control', 'utf8').trim().split(/\s+/);
    if (!available.includes(algorithm)) throw new Error(`TCP congestion control "${algorithm}" is not available (available: ${available.join(', ')})`);
    fs.writeFileSync('/proc/sys/net/ipv4/tcp_allowed_congestion_control', [...allowed, algorithm].join(' '));
  }
  execFileSync('ip', ['netns', 'exec', ns, 'sysctl', '-q', '-w', `net.ipv4.tcp_congestion_control=${algorithm}`]);
}

module.exports = { createEmulatedLink, inNamespace, setCongestionControl, EmulationUnavailableError, requireRoot };
