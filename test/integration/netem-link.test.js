'use strict';
// The link emulator with real packets: two network namespaces, TUN devices, socat, the relay,
// and the kernels' own TCP in between. Needs root, which CI has; without root the suite says
// why and checks only that a non-root user gets a clear refusal.
const { execFileSync, spawnSync } = require('node:child_process');
const path = require('node:path');
const { createEmulatedLink } = require('../../testbed/netem/namespace-link');
const { tcpConnectTimes, tcpGoodput, udpLoss } = require('../../testbed/netem/probes');
const { measureAgainIfOff } = require('../support/measure-again');

const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('netem-link tests need root (network namespaces, TUN): skipped\n');

describeAsRoot('emulated link between namespaces', () => {
  let link;
  beforeAll(async () => {
    link = await createEmulatedLink({ index: 211, toClient: { delayMs: 50 }, toServer: { delayMs: 50 } });
  });
  afterAll(async () => {
    if (link) await link.close();
  });

  // Each measurement is taken again if it misses its bounds (test/support/measure-again.js says
  // why); the assertions judge the last attempt. Late emulator timers are printed with a miss:
  // the relay saying it was starved of CPU.
  const late = async () => {
    const t = (await link.counters()).lateTimers;
    return `emulator timers late ${t.count}x so far, max ${t.maxMs.toFixed(1)} ms`;
  };

  test('a configured 100 ms RTT shows up in TCP handshakes', async () => {
    const [low, high] = [98, 115]; // ms: the measure-again rule and the assertions share them
    const { median } = await measureAgainIfOff('netem-link RTT', {
      measure: async () => ({ median: (await tcpConnectTimes(link, 9001, 7)).sort((a, b) => a - b)[3], late: await late() }),
      within: (r) => r.median > low && r.median < high,
      describe: (r) => `median handshake ${r.median.toFixed(1)} ms; ${r.late}`,
    });
    expect(median).toBeGreaterThan(low);
    expect(median).toBeLessThan(high);
  });

  test('a 10 Mbit/s rate cap shows up in TCP throughput; counters see the packets', async () => {
    await link.configure('toClient', { rate: 10e6, queueLimitBytes: 150000, delayMs: 10 });
    await link.configure('toServer', { delayMs: 10 });
    const bytes = 4 * 1000 * 1000;
    // TCP goodput is about 96.5 % of the link rate (IP/TCP headers); slow start costs a little.
    const [low, high] = [8.5, 10.05]; // Mbit/s
    const { mbps } = await measureAgainIfOff('netem-link rate', {
      measure: async () => ({ mbps: (await tcpGoodput(link, 9002, bytes)) / 1e6, late: await late() }),
      within: (r) => r.mbps > low && r.mbps < high,
      describe: (r) => `${r.mbps.toFixed(2)} Mbit/s; ${r.late}`,
    });
    expect(mbps).toBeGreaterThan(low);
    expect(mbps).toBeLessThan(high);
    const c = await link.counters();
    expect(c.toClient.bytesIn).toBeGreaterThan(bytes);
    expect(c.toServer.packetsIn).toBeGreaterThan(100); // ACKs
    expect(c.toClient.queueDelayMsMax).toBeGreaterThan(0);
  });

  test('CoDel drops at the head and keeps TCP\'s queueing delay below drop-tail\'s, at the same rate', async () => {
    // 10 Mbit/s, 20 ms RTT, a 300 KB (240 ms) queue: TCP (cubic) keeps a standing queue
    // behind the bottleneck, which drop-tail leaves alone (it never fills here: the receive
    // window limits it first) and CoDel drains by dropping at the head. Measured here:
    // mean queueing delay 25-28 ms drop-tail, 12-13 ms CoDel (60-110 drops), 9.6 Mbit/s both.
    const transfer = async (queueDiscipline, port) => {
      await link.configure('toClient', { rate: 10e6, queueLimitBytes: 300000, delayMs: 10, queueDiscipline });
      await link.configure('toServer', { delayMs: 10 });
      const before = (await link.counters()).toClient;
      const goodput = await tcpGoodput(link, port, 4 * 1000 * 1000);
      const after = (await link.counters()).toClient;
      return {
        goodput,
        meanQueueMs: (after.queueDelayMsTotal - before.queueDelayMsTotal) / (after.packetsOut - before.packetsOut),
        codelDrops: after.drops.codel - before.drops.codel,
        queueDrops: after.drops.queue - before.drops.queue,
      };
    };
    try {
      const { tail, codel } = await measureAgainIfOff('netem-link CoDel', {
        measure: async () => ({ tail: await transfer('droptail', 9007), codel: await transfer('codel', 9008), late: await late() }),
        within: (p) => p.codel.meanQueueMs < 0.8 * p.tail.meanQueueMs && p.tail.goodput > 8e6 && p.codel.goodput > 8e6,
        describe: (p) => `drop-tail ${JSON.stringify(p.tail)}, CoDel ${JSON.stringify(p.codel)}; ${p.late}`,
      });
      process.stderr.write(`netem-link: drop-tail ${JSON.stringify(tail)}, CoDel ${JSON.stringify(codel)}\n`);
      expect(tail.codelDrops).toBe(0);
      expect(codel.codelDrops).toBeGreaterThan(5);
      expect(codel.queueDrops).toBe(0);
      expect(codel.meanQueueMs).toBeLessThan(0.8 * tail.meanQueueMs);
      for (const r of [tail, codel]) expect(r.goodput).toBeGreaterThan(8e6);
    } finally {
      await link.configure('toClient', { queueDiscipline: 'droptail' });
    }
  });

  test('random loss: TCP still delivers everything, UDP loses the configured share', async () => {
    await link.configure('toClient', { rate: null, queueLimitBytes: null, lossRate: 0.02, delayMs: 5 });
    const before = (await link.counters()).toClient.drops.loss;
    await tcpGoodput(link, 9003, 500000); // throws unless every byte arrived
    expect((await link.counters()).toClient.drops.loss).toBeGreaterThan(before);
    await link.configure('toServer', { lossRate: 0.05, delayMs: 5 });
    const lost = await udpLoss(link, 9004, 4000, 500);
    // Binomial(4000, 0.05): sd 0.0034.
    expect(lost).toBeGreaterThan(0.035);
    expect(lost).toBeLessThan(0.065);
  });

  test('corrupting every packet breaks the packets, not the link', async () => {
    // Small packets make a flip in the IP version nibble likely (4 of ~544 bits each); before
    // the relay spared that nibble, the TUN refused such a packet and socat exited.
    await link.configure('toServer', { lossRate: 0, corruptRate: 1, delayMs: 5 });
    const lost = await udpLoss(link, 9005, 2000, 40);
    expect(lost).toBeGreaterThan(0.95); // IP and UDP checksums catch the flipped bits
    expect(link.broken).toBeNull();
    expect((await link.counters()).toServer.corrupted).toBeGreaterThanOrEqual(2000);
    await link.configure('toServer', { corruptRate: 0, delayMs: 5 });
    expect(await tcpConnectTimes(link, 9006, 3)).toHaveLength(3);
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
