'use strict';
// Competing bulk TCP flows through the real emulated link (testbed/competing/): a sender in the
// server namespace, a receiver in the client namespace, every packet through the emulator. The
// flow's congestion control is the one its route names, not the namespace's default; its bytes
// are counted by the receiver and, apart from everything else, by the emulator; it stops at its
// stop time; and every process it started is gone after stop() and after kill(). Needs root.
const { createEmulatedLink, setCongestionControl } = require('../../testbed/netem/namespace-link');
const { prepareCompetingFlows } = require('../../testbed/competing/competing-flows');
const { rebase } = require('../../testbed/runner/throughput-series');
const { labNowMs } = require('../../testbed/runner/lab-clock');

const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('competing-flows needs root (network namespaces, TUN): skipped\n');

const RATE = 4e6;
const sleep = (ms) => new Promise((r) => { setTimeout(r, ms); });
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describeAsRoot('competing flows through the emulated link', () => {
  let link;
  beforeAll(async () => {
    link = await createEmulatedLink({
      index: 212,
      toClient: { delayMs: 10, rate: RATE, queueLimitBytes: 60000 },
      toServer: { delayMs: 10 },
    });
    // The namespace's default is reno: a flow that says cubic must get cubic from its route.
    setCongestionControl(link.serverNs, 'reno');
  }, 30000);
  afterAll(async () => {
    if (link) await link.close();
  });

  test('two flows: their own congestion control, counted by receiver and emulator, stopped on time, gone after stop()', async () => {
    const flows = await prepareCompetingFlows({
      link,
      flows: [{ label: 'c', cc: 'cubic', startSeconds: 0, stopSeconds: 3 }, { label: 'b', cc: 'bbr', startSeconds: 1, stopSeconds: null }],
      sampleMs: 250,
    });
    const before = await link.counters();
    const start = labNowMs();
    flows.start(start);
    await sleep(6000);
    const pids = flows.pids();
    expect(pids.length).toBe(3); // two receivers, b's sender (c's has stopped)
    const results = await flows.stop();
    const after = await link.counters();
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(flows.pids()).toEqual([]);

    const [c, b] = results;
    expect(c).toMatchObject({ label: 'c', cc: 'cubic', ccSeen: 'cubic', error: null, address: link.serverIp.replace(/\.1$/, '.100') });
    expect(b).toMatchObject({ label: 'b', cc: 'bbr', ccSeen: 'bbr', error: null });
    // c stopped at 3 s: nothing arrived 500 ms after its stop (what was in flight: ~1 RTT and
    // the 120 ms queue; a FIN after the send buffer would have gone on for seconds).
    const cs = rebase(c.samples, start);
    const receivedBy = (ms) => cs.filter(([t]) => t <= ms).pop()[1];
    expect(c.stoppedAt - start).toBeGreaterThanOrEqual(2900);
    expect(c.stoppedAt - start).toBeLessThan(4000);
    expect(cs[cs.length - 1][1]).toBe(receivedBy(c.stoppedAt - start + 500));
    expect(receivedBy(2900)).toBeGreaterThan(0);
    // b started at 1 s: its receiver saw nothing before.
    expect(b.connectedAt - start).toBeGreaterThanOrEqual(1000);
    // Counted by the receiver and by the emulator for the flow's address alone: the IP bytes
    // the emulator delivered carry the payload plus 52-byte headers per 1448-byte segment.
    for (const f of [c, b]) {
      const em = after.byAddress[f.address].toClient.bytesOut - ((before.byAddress && before.byAddress[f.address]) ? before.byAddress[f.address].toClient.bytesOut : 0);
      expect(f.receivedBytes).toBeGreaterThan(200000);
      expect(em).toBeGreaterThan(f.receivedBytes);
      expect(em).toBeLessThan(f.receivedBytes * 1.06 + 100000);
      expect(f.sentBytes).toBeGreaterThanOrEqual(f.receivedBytes);
    }
    // Both through the one bottleneck: together no faster than its rate.
    const total = c.receivedBytes + b.receivedBytes;
    expect((8 * total) / 6).toBeLessThan(RATE * 1.05);
    expect((8 * total) / 6).toBeGreaterThan(RATE * 0.5);
    // And the downlink's own counter holds both flows.
    expect(after.toClient.bytesOut - before.toClient.bytesOut).toBeGreaterThanOrEqual(total);
  }, 60000);

  test('kill(): every process ends at once (the runner\'s error path)', async () => {
    // The first test's addresses are still on the link: a second set needs a link of its own.
    const other = await createEmulatedLink({ index: 213, toClient: { delayMs: 5, rate: RATE }, toServer: { delayMs: 5 } });
    try {
      const flows = await prepareCompetingFlows({ link: other, flows: [{ label: 'r', cc: 'reno', startSeconds: 0, stopSeconds: null }] });
      flows.start(labNowMs());
      await sleep(1500);
      const pids = flows.pids();
      expect(pids.length).toBe(2);
      flows.kill();
      await sleep(500);
      for (const pid of pids) expect(alive(pid)).toBe(false);
    } finally {
      await other.close();
    }
  }, 30000);

  test('a link without a client namespace is refused, clearly', async () => {
    await expect(prepareCompetingFlows({ link: { ...link, clientNs: null }, flows: [{ label: 'r', cc: 'reno', startSeconds: 0, stopSeconds: null }] }))
      .rejects.toThrow(/competing flows need the client end in its own namespace/);
  });
});
