'use strict';
// The lab's BPF congestion controls (testbed/congestion): each registers with the real kernel, is
// selectable by its name in a namespace, carries a transfer through the emulator, and
// is gone once released. Vegas must behave as a delay-based control (a short queue where Cubic
// fills a long one); LIA must see both subflows of one Multipath TCP connection (its coupling
// state has one entry with two subflows). Needs root; skipped with the reason otherwise.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync, spawn } = require('node:child_process');
const { createEmulatedLink } = require('../../testbed/netem/namespace-link');
const { enableMptcp } = require('../../testbed/netem/mptcp');
const { tcpSockets } = require('../../testbed/netem/tcp-subflows');
const registry = require('../../testbed/congestion/registry');
const { holdCongestionControl, unavailableReason, availableCongestionControls, BUILD_DIR } = require('../../testbed/congestion/bpf-loader');
const { applyCongestionControls } = require('../../testbed/congestion/apply-congestion-controls');
const { startBulkTransfer } = require('../support/bulk-transfer');

// Registrations are global: while another run holds lab_vegas or lab_lia, these tests would
// measure and unregister its programs, so they wait for a quiet kernel.
const held = () => availableCongestionControls().filter((n) => n === 'lab_vegas' || n === 'lab_lia');
const why = unavailableReason(registry.get('vegas'))
  || (held().length ? `${held().join(' and ')} registered by another process (a lab run?); npm run cleanup removes leftovers` : null);
const BPFTOOL = fs.existsSync('/usr/sbin/bpftool') ? '/usr/sbin/bpftool' : 'bpftool';
const describeIfPossible = why ? describe.skip : describe;
if (why) process.stderr.write(`bpf-congestion-control skipped: ${why}\n`);

const sleep = (ms) => new Promise((r) => { setTimeout(r, ms); });
const serverSockets = (ns) => tcpSockets(ns).filter((s) => s.state === 'ESTAB' && s.bytesSent > 100000);

// LIA's coupling state (lab_lia_coupling.h struct coupled: 8 u64 subflow sockets, 8 u64 stamps,
// 8 u32 windows, 8 u32 RTTs, little-endian), read from the newest map of that name: copies of
// earlier loads live on while sockets that used them linger.
function liaConnections() {
  const maps = JSON.parse(execFileSync(BPFTOOL, ['--json', 'map', 'show', 'name', 'lab_lia_connect'], { encoding: 'utf8' }));
  const id = Math.max(...[].concat(maps).map((m) => m.id)); // one map: an object, several: a list
  const entries = JSON.parse(execFileSync(BPFTOOL, ['--json', 'map', 'dump', 'id', String(id)], { encoding: 'utf8' }));
  return entries.map((e) => {
    const b = Buffer.from(e.value.map((x) => parseInt(x, 16)));
    const subflow = [...Array(8).keys()].map((i) => b.readBigUInt64LE(8 * i));
    const u32s = (at) => [...Array(8).keys()].map((i) => b.readUInt32LE(at + 4 * i));
    const stamps = [...Array(8).keys()].map((i) => b.readBigUInt64LE(64 + 8 * i));
    return { subflows: subflow.filter((x) => x !== 0n).length, stamped: stamps.filter((x) => x !== 0n).length, cwnd: u32s(128), srttUs: u32s(160) };
  });
}

describeIfPossible('BPF congestion controls in the kernel', () => {
  const children = [];
  const links = [];
  const holds = [];
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
    for (const l of links.splice(0)) await l.close();
    for (const h of holds.splice(0)) await h.release();
  });

  test('vegas registers, carries a transfer keeping the queue short where cubic fills it, and is gone when released', async () => {
    const h = await holdCongestionControl(registry.get('vegas'));
    holds.push(h);
    expect(availableCongestionControls()).toContain('lab_vegas');
    // 10 Mbit/s, RTT 40 ms, a 250 ms queue: a loss-based control fills the queue before it backs off.
    const link = await createEmulatedLink({ index: 215, toClient: { delayMs: 20, rate: 10e6, queueLimitBytes: 312500 }, toServer: { delayMs: 20 } });
    links.push(link);
    // sampleAt: when (s into the transfer) the three RTT samples end.
    const rttOf = async (cc, port, sampleAt) => {
      holds.push(await applyCongestionControls(link, { namespaceDefault: cc }));
      const bulk = await startBulkTransfer({ serverNs: link.serverNs, clientNs: link.clientNs, address: link.serverIp, port, children });
      // The smoothed RTT at three seconds in a row, the smallest: one late emulator timer must not decide.
      const rtts = [];
      let s = null;
      for (const at of [(sampleAt - 2) * 1000, 1000, 1000]) {
        await sleep(at);
        [s] = serverSockets(link.serverNs).filter((x) => x.local.endsWith(`:${port}`));
        rtts.push(s.rttMs);
      }
      const bytes = bulk.last().bytes;
      bulk.client.kill('SIGKILL');
      bulk.server.kill('SIGKILL');
      return { cc: s.cc, rttMs: Math.min(...rtts), bytes };
    };
    // Vegas is sampled later (10-12 s) than Cubic (6-8 s): Vegas drains its slow-start overshoot
    // by one segment per RTT (~13 ms of queue a second here), and at 8 s it had still left 91 ms
    // of RTT once (a CI failure, 2026-11-27) where Cubic had only reached 163 ms. Later samples
    // can only favour Cubic's side of the comparison, which keeps filling its queue.
    const vegas = await rttOf('vegas', 5611, 12);
    const cubic = await rttOf('cubic', 5612, 8);
    process.stderr.write(`vegas: ${JSON.stringify(vegas)}; cubic: ${JSON.stringify(cubic)}\n`);
    expect(vegas.cc).toBe('lab_vegas');
    expect(cubic.cc).toBe('cubic');
    // Both filled most of the link (8 s at 10 Mbit/s = 10 MB, Cubic's share; slow start and headers cost some).
    expect(vegas.bytes).toBeGreaterThan(6e6);
    expect(cubic.bytes).toBeGreaterThan(6e6);
    // Cubic builds a standing queue; Vegas aims at 2-4 queued segments (~5 ms at 10 Mbit/s),
    // draining its slow-start overshoot by one segment per RTT (seen: 46-97 ms after 8 s, 46-47 ms
    // after 12 s). How far Cubic has filled the 250 ms queue by 8 s varies (HyStart may leave slow
    // start early; seen: 153-289 ms), so the test asks for a third of it, and for Vegas below half
    // of Cubic.
    expect(cubic.rttMs).toBeGreaterThan(40 + 75);
    expect(vegas.rttMs).toBeLessThan(cubic.rttMs / 2);
    for (const x of holds.splice(0)) await x.release();
    expect(availableCongestionControls()).not.toContain('lab_vegas');
  }, 60000);

  test('lia runs on every subflow of an MPTCP connection over two paths and couples them', async () => {
    const link = await createEmulatedLink({
      index: 216,
      toClient: { delayMs: 10, rate: 5e6, queueLimitBytes: 60000 },
      toServer: { delayMs: 10 },
      extraPaths: [{ toClient: { delayMs: 40, rate: 5e6, queueLimitBytes: 100000 }, toServer: { delayMs: 40 } }],
    });
    links.push(link);
    enableMptcp(link);
    const cc = await applyCongestionControls(link, { namespaceDefault: 'lia' });
    holds.push(cc);
    const bulk = await startBulkTransfer({ serverNs: link.serverNs, clientNs: link.clientNs, address: link.paths[0].serverIp, port: 5613, mptcp: true, children });
    await sleep(4000);
    const subflows = serverSockets(link.serverNs);
    expect(subflows.map((s) => s.cc)).toEqual(['lab_lia', 'lab_lia']);
    // The coupling state: one connection, both subflows with their windows and RTTs.
    const mine = liaConnections().filter((c) => c.subflows === 2);
    expect(mine).toHaveLength(1);
    expect(mine[0].cwnd.filter((x) => x > 0)).toHaveLength(2);
    expect(mine[0].srttUs.filter((x) => x > 0)).toHaveLength(2);
    expect(mine[0].stamped).toBe(2);
    expect(bulk.last().bytes).toBeGreaterThan(2e6);
    bulk.client.kill('SIGKILL');
    bulk.server.kill('SIGKILL');

    expect(bulk.last().error).toBeUndefined();
  }, 60000);

  test('a loader killed with SIGKILL leaves its registration; npm run cleanup removes it', async () => {
    const loader = spawn(path.join(BUILD_DIR, 'load-congestion-control'), [path.join(BUILD_DIR, 'lab_vegas.bpf.o')], { stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(loader);
    await new Promise((resolve, reject) => {
      loader.stdout.once('data', resolve);
      loader.once('exit', (code) => reject(new Error(`the loader exited ${code} before registering`)));
    });
    loader.kill('SIGKILL');
    await new Promise((resolve) => loader.once('exit', resolve));
    expect(availableCongestionControls()).toContain('lab_vegas');
    const out = execFileSync(process.execPath, [path.join(__dirname, '../../testbed/cli/cleanup.js')], { encoding: 'utf8' });
    expect(out).toContain('cleanup: unregistered TCP congestion control lab_vegas');
    expect(availableCongestionControls()).not.toContain('lab_vegas');
  }, 30000);

  test('a congestion control the kernel does not know is refused by name', async () => {
    const link = await createEmulatedLink({ index: 217, toClient: {}, toServer: {} });
    links.push(link);
    await expect(applyCongestionControls(link, { namespaceDefault: 'compound' })).rejects.toThrow('unknown TCP congestion control "compound"');
  }, 30000);
});
