'use strict';
// The link emulator with real packets: two network namespaces, TUN devices, socat, the relay,
// and the kernels' own TCP in between. Needs root, which CI has; without root the suite says
// why and checks only that a non-root user gets a clear refusal.
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const path = require('node:path');
const { createEmulatedLink } = require('../../testbed/netem/namespace-link');

const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('netem-link tests need root (network namespaces, TUN): skipped\n');

/** Runs node code inside a namespace and returns its stdout. */
function nodeIn(ns, code, timeout = 60000) {
  return execFileSync('ip', ['netns', 'exec', ns, process.execPath, '-e', code], { encoding: 'utf8', timeout });
}

/** A TCP server in the server namespace: on connect it sends `bytes` bytes and closes. */
function startSender(link, port, bytes) {
  const child = spawn('ip', ['netns', 'exec', link.serverNs, process.execPath, '-e', `
    const buf = Buffer.alloc(${bytes}, 7);
    require('net').createServer((s) => s.end(buf)).listen(${port}, '${link.serverIp}', () => console.log('up'));`], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => child.stdout.once('data', () => resolve(child)));
}

describeAsRoot('emulated link between namespaces', () => {
  let link;
  beforeAll(async () => {
    link = await createEmulatedLink({ index: 211, toClient: { delayMs: 50 }, toServer: { delayMs: 50 } });
  });
  afterAll(async () => {
    if (link) await link.close();
  });

  test('a configured 100 ms RTT shows up in TCP handshakes', async () => {
    const sender = await startSender(link, 9001, 1);
    try {
      const times = JSON.parse(nodeIn(link.clientNs, `
        const net = require('net'); const times = [];
        (function go() {
          const t = process.hrtime.bigint();
          const s = net.connect(9001, '${link.serverIp}', () => {
            times.push(Number(process.hrtime.bigint() - t) / 1e6); s.destroy();
            if (times.length < 7) go(); else console.log(JSON.stringify(times));
          });
        })();`));
      const median = times.sort((a, b) => a - b)[3];
      expect(median).toBeGreaterThan(98);
      expect(median).toBeLessThan(115);
    } finally {
      sender.kill('SIGKILL');
    }
  });

  test('a 10 Mbit/s rate cap shows up in TCP throughput; counters see the packets', async () => {
    await link.configure('toClient', { rate: 10e6, queueLimitBytes: 150000, delayMs: 10 });
    await link.configure('toServer', { delayMs: 10 });
    const bytes = 4 * 1000 * 1000;
    const sender = await startSender(link, 9002, bytes);
    try {
      const seconds = Number(nodeIn(link.clientNs, `
        const s = require('net').connect(9002, '${link.serverIp}'); let n = 0; let t0;
        s.on('data', (c) => { if (t0 === undefined) t0 = process.hrtime.bigint(); n += c.length; });
        s.on('end', () => console.log(Number(process.hrtime.bigint() - t0) / 1e9));`));
      const mbps = (bytes * 8) / seconds / 1e6;
      // TCP goodput is about 96.5 % of the link rate (IP/TCP headers); slow start costs a little.
      expect(mbps).toBeGreaterThan(8.5);
      expect(mbps).toBeLessThan(10.05);
      const c = await link.counters();
      expect(c.toClient.bytesIn).toBeGreaterThan(bytes);
      expect(c.toServer.packetsIn).toBeGreaterThan(100); // ACKs
      expect(c.toClient.queueDelayMsMax).toBeGreaterThan(0);
    } finally {
      sender.kill('SIGKILL');
    }
  });

  test('random loss drops packets and says so; TCP still delivers everything', async () => {
    await link.configure('toClient', { rate: null, queueLimitBytes: null, lossRate: 0.02, delayMs: 5 });
    const before = (await link.counters()).toClient.drops.loss;
    const sender = await startSender(link, 9003, 500000);
    try {
      const got = Number(nodeIn(link.clientNs, `
        const s = require('net').connect(9003, '${link.serverIp}'); let n = 0;
        s.on('data', (c) => { n += c.length; }); s.on('end', () => console.log(n));`));
      expect(got).toBe(500000);
      expect((await link.counters()).toClient.drops.loss).toBeGreaterThan(before);
    } finally {
      sender.kill('SIGKILL');
    }
  });

  test('close() removes namespaces, TUN devices and every process it started', async () => {
    const spare = await createEmulatedLink({ index: 212 });
    const pids = [spare.relayPid];
    await spare.close();
    const namespaces = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
    expect(namespaces).not.toMatch(/labsrv212|labcli212/);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    expect(spawnSync('ip', ['link', 'show', 'labts212']).status).not.toBe(0);
  });
});

test('a non-root user asking for emulation gets a clear refusal', () => {
  const code = `try { require(${JSON.stringify(path.join(__dirname, '../../testbed/netem/namespace-link'))}).requireRoot(); console.log('allowed'); } catch (e) { console.log(e.message); }`;
  const r = isRoot
    ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', code], { encoding: 'utf8' })
    : spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  expect(r.stdout).toMatch(/network emulation needs root/);
});
