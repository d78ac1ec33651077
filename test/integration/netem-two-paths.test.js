'use strict';
// Two emulated paths between the same two namespaces (paper 004's two Wi-Fi paths), each with
// its own delay and counters, and Multipath TCP over them: a connection the client opens on
// path 0 grows a subflow on path 1, carries bytes on both paths' counters, and survives path 0
// going down and coming back. Real kernel MPTCP, real packets through the emulator. Needs root.
const { spawn, execFileSync } = require('node:child_process');
const { createEmulatedLink, inNamespace } = require('../../testbed/netem/namespace-link');
const { enableMptcp, mptcpCounters } = require('../../testbed/netem/mptcp');
const { startBulkTransfer } = require('../support/bulk-transfer');
const { measureAgainIfOff } = require('../support/measure-again');
const { earliestRoundTripMs } = require('../../testbed/netem/udp-relay');

const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('netem-two-paths needs root (network namespaces, TUN): skipped\n');

const sleep = (ms) => new Promise((r) => { setTimeout(r, ms); });
const PATH0 = { toClient: { delayMs: 10, rate: 5e6, queueLimitBytes: 60000 }, toServer: { delayMs: 10 } };
const PATH1 = { toClient: { delayMs: 40, rate: 5e6, queueLimitBytes: 100000 }, toServer: { delayMs: 40 } };

const run = (argv, o) => spawn(argv[0], argv.slice(1), o);
// An echo server (the server namespace, every address) and a client that times five one-byte
// round trips on an established connection and prints the shortest, in ms.
const ECHO = `require('net').createServer((c)=>c.pipe(c)).listen(5600,'0.0.0.0',()=>console.log('listening'));`;
const RTT = `const c=require('net').connect(5600,process.argv[1],()=>{const r=[];let t;const go=()=>{t=process.hrtime.bigint();c.write('x')};c.on('data',()=>{r.push(Number(process.hrtime.bigint()-t)/1e6);if(r.length<5)go();else{console.log(Math.min(...r));c.destroy()}});go()});`;

function rttMs(ns, address) {
  return Number(execFileSync('ip', inNamespace(ns, [process.execPath, '-e', RTT, address]).slice(1), { encoding: 'utf8' }).trim());
}

describeAsRoot('two emulated paths and MPTCP over them', () => {
  let link;
  const children = [];
  beforeAll(async () => {
    link = await createEmulatedLink({ index: 213, ...PATH0, extraPaths: [PATH1] });
  }, 30000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    if (link) await link.close();
  });

  test('each path has its own addresses, delay and counters', async () => {
    expect(link.paths.map((p) => [p.serverIp, p.clientIp])).toEqual([['10.77.213.1', '10.77.213.2'], ['10.78.213.1', '10.78.213.2']]);
    const echo = run(inNamespace(link.serverNs, [process.execPath, '-e', ECHO]), { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(echo);
    await new Promise((resolve) => echo.stdout.once('data', resolve));
    // Measured again if off (test/support/measure-again.js): 6 ms above the configured RTT is
    // little room for a starved relay or echo process. Below it, the relay may deliver each
    // packet up to EARLY_MS early by design (udp-relay.js), twice per round trip, and the
    // shortest of five round trips finds that edge (a CI run measured 18.9-19.0 ms three times).
    const rtts = [PATH0, PATH1].map((p) => p.toClient.delayMs + p.toServer.delayMs);
    const bounds = rtts.map((rtt) => [earliestRoundTripMs(rtt), rtt + 6]); // ms per path: the measure-again rule and the assertions share them
    const inside = (ms, [low, high]) => ms > low && ms < high;
    const [rtt0, rtt1] = await measureAgainIfOff('netem-two-paths RTT', {
      measure: async () => [rttMs(link.clientNs, link.paths[0].serverIp), rttMs(link.clientNs, link.paths[1].serverIp)],
      within: (rtts) => rtts.every((ms, i) => inside(ms, bounds[i])),
      describe: ([a, b]) => `shortest of five round trips: path 0 ${a.toFixed(1)} ms, path 1 ${b.toFixed(1)} ms`,
    });
    echo.kill('SIGKILL');
    [rtt0, rtt1].forEach((ms, i) => {
      expect(ms).toBeGreaterThan(bounds[i][0]);
      expect(ms).toBeLessThan(bounds[i][1]);
    });
    const [c0, c1] = await Promise.all(link.paths.map((p) => p.counters()));
    expect(c0.toClient.packetsOut).toBeGreaterThanOrEqual(5);
    expect(c1.toClient.packetsOut).toBeGreaterThanOrEqual(5);
  });

  test('an MPTCP connection opened on path 0 carries bytes on both paths and survives path 0 going down and back', async () => {
    enableMptcp(link);
    const before = mptcpCounters(link.serverNs);
    const bulk = await startBulkTransfer({ serverNs: link.serverNs, clientNs: link.clientNs, address: link.paths[0].serverIp, port: 5601, mptcp: true, children });
    const { client } = bulk;
    const start = await Promise.all(link.paths.map((p) => p.counters()));
    await sleep(4000);
    const mid = await Promise.all(link.paths.map((p) => p.counters()));
    const down = (a, b) => b.toClient.bytesOut - a.toClient.bytesOut;
    const both = [down(start[0], mid[0]), down(start[1], mid[1])];
    // Each path alone carries at most 5 Mbit/s = 2.5 MB in 4 s; MPTCP used both.
    expect(both[0]).toBeGreaterThan(500000);
    expect(both[1]).toBeGreaterThan(500000);
    // Path 1's subflow lives on path 1 both ways: its ACKs come back over path 1's uplink (the
    // client routes by source address), not over path 0's.
    expect(mid[1].toServer.packetsOut - start[1].toServer.packetsOut).toBeGreaterThan(200);
    const after = mptcpCounters(link.serverNs);
    expect(after.MPTcpExtMPCapableSYNRX - (before.MPTcpExtMPCapableSYNRX || 0)).toBe(1);
    expect(after.MPTcpExtMPJoinSynRx - (before.MPTcpExtMPJoinSynRx || 0)).toBeGreaterThanOrEqual(1);

    // Path 0 down for 4 s: the connection goes on over path 1, and keeps going once path 0 is back.
    // The client's byte counts are taken fresh (bulk.next()) where a window starts or ends.
    const bytesAtDown = (await bulk.next()).bytes;
    const downAt = Date.now(); // taken before the outage starts, so the elapsed times below overstate it
    await link.paths[0].configure('toClient', { ...PATH0.toClient, downIntervals: [{ fromMs: 0, toMs: 4000 }], timeOriginMs: 'now' });
    await link.paths[0].configure('toServer', { ...PATH0.toServer, downIntervals: [{ fromMs: 0, toMs: 4000 }], timeOriginMs: 'now' });
    const p1AtDown = (await link.paths[1].counters()).toClient.bytesOut;
    // In order, the client gets bytes only once MPTCP has sent path 0's lost data again over path 1,
    // which it does after path 0's retransmission timeouts: seen here 397 KB to 1.46 MB in 2.5 s,
    // once in CI 149 KB (the timeouts fell late). 150 KB is more than path 0's queue and round trip
    // held, so it cannot arrive without that reinjection. The count is read until it passes 150 KB or
    // 3.4 s have gone (a read waits up to 250 ms for the client's next report); the last count must
    // have been read while path 0 was still down (4 s).
    // Path 1's count (over 300 KB) is read in the same turns.
    let appBytes = 0;
    let path1Bytes = 0;
    let appAt = 0;
    do {
      await sleep(250);
      appBytes = (await bulk.next()).bytes - bytesAtDown;
      appAt = Date.now();
      path1Bytes = (await link.paths[1].counters()).toClient.bytesOut - p1AtDown;
    } while ((appBytes <= 150000 || path1Bytes <= 300000) && appAt - downAt < 3400);
    const outage = { app: appBytes, path1: path1Bytes, ms: appAt - downAt };
    process.stderr.write(`two paths: path 0 down: ${JSON.stringify(outage)} (bytes, ms since path 0 went down)\n`);
    expect(outage.ms).toBeLessThan(4000);
    expect(outage.app).toBeGreaterThan(150000);
    expect(outage.path1).toBeGreaterThan(300000);
    // The loop above ends anywhere from 0.25 s to 3.4 s into the outage, so the window after it is
    // timed from downAt: it starts just under 1 s after path 0 is back (downAt was read just before
    // the outage was configured, so the outage ends a little after downAt + 4 s).
    await sleep(Math.max(0, downAt + 5000 - Date.now()));
    const bytesBack = (await bulk.next()).bytes;
    await sleep(1500);
    expect((await bulk.next()).bytes - bytesBack).toBeGreaterThan(300000);
    expect(bulk.last().error).toBeUndefined();
    expect(client.exitCode).toBeNull();
    process.stderr.write(`two paths: ${JSON.stringify(both)} bytes down in 4 s on path 0 / path 1; MPTCP counters ${JSON.stringify(Object.fromEntries(Object.entries(after).filter(([, v]) => v)))}\n`);
  }, 60000);
});
