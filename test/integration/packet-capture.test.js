'use strict';
// `npm run qoe -- --capture`'s capture on its own, with real packets: tcpdump in an emulated
// link's client namespace while TCP connects and downloads across the link, read back with
// `tcpdump -r` and as pcap bytes. Needs root (namespaces, TUN, capture), which CI has.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { createEmulatedLink } = require('../../testbed/netem/namespace-link');
const { tcpConnectTimes, tcpDownload } = require('../../testbed/netem/probes');
const { startPacketCapture } = require('../../testbed/netem/packet-capture');
const { readPcap } = require('../../testbed/report/pcap-packets');

const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('packet-capture tests need root (network namespaces, TUN, capture): skipped\n');

/** The pcap file's snap length and each record's captured and original length. */
function pcapRecords(file) {
  const b = fs.readFileSync(file);
  expect(b.readUInt32LE(0)).toBe(0xa1b2c3d4); // microsecond pcap, little-endian
  const records = [];
  for (let at = 24; at + 16 <= b.length; at += 16 + b.readUInt32LE(at + 8)) {
    records.push({ captured: b.readUInt32LE(at + 8), original: b.readUInt32LE(at + 12) });
  }
  return { snapBytes: b.readUInt32LE(16), records };
}

describeAsRoot('packet capture in the client namespace', () => {
  let link;
  let tmp;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-capture-test-'));
    link = await createEmulatedLink({ index: 219, toClient: { delayMs: 10 }, toServer: { delayMs: 10 } });
  });
  afterAll(async () => {
    if (link) await link.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('TCP across the link is in the pcap, headers only, and tcpdump reads as many packets as it counted', async () => {
    const file = path.join(tmp, 'a.pcap');
    const capture = await startPacketCapture({ netns: link.clientNs, file, snapBytes: 96 });
    await tcpConnectTimes(link, 9401, 3);
    await tcpDownload(link, 9402, 300000);
    const got = await capture.stop();
    expect(() => process.kill(capture.pid, 0)).toThrow(); // ended
    expect(got).toMatchObject({ file, snapBytes: 96, filter: 'net 10.0.0.0/8', droppedByKernel: 0 });

    const lines = execFileSync('tcpdump', ['-r', file, '-n', '-tt'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n');
    expect(lines.length).toBe(got.packets);
    // 300 kB in 1448-byte segments, their ACKs and four handshakes
    expect(got.packets).toBeGreaterThan(250);
    const syn = (port) => lines.filter((l) => l.includes(`${link.clientIp}.`) && l.includes(` > ${link.serverIp}.${port}: Flags [S]`)).length;
    expect([syn(9401), syn(9402)]).toEqual([3, 1]);
    expect(lines.filter((l) => l.includes(`${link.serverIp}.9402 > ${link.clientIp}.`) && l.includes('Flags [S.]'))).toHaveLength(1);
    // the link's addresses only: none of the namespace's loopback traffic
    expect(lines.every((l) => / 10\.77\.219\.[12]\.\d+ > 10\.77\.219\.[12]\.\d+:/.test(l))).toBe(true);

    const pcap = pcapRecords(file);
    expect(pcap.snapBytes).toBe(96);
    expect(pcap.records).toHaveLength(got.packets);
    expect(pcap.records.every((r) => r.captured <= 96 + 20)).toBe(true); // -i any adds a 20-byte link header
    expect(pcap.records.filter((r) => r.original > 1400).length).toBeGreaterThan(150); // full segments, kept truncated

    // The lab's own reader (switch-timeline reads captures with it) agrees with tcpdump's.
    const packets = readPcap(fs.readFileSync(file));
    expect(packets).toHaveLength(lines.length);
    expect(packets.map((p) => `${p.src}.${p.srcPort} > ${p.dst}.${p.dstPort}: Flags [${p.flags}]`))
      .toEqual(lines.map((l) => / (\S+ > \S+ Flags \[[^\]]+\])/.exec(l)[1]));
    expect(packets.map((p) => p.t.toFixed(6))).toEqual(lines.map((l) => l.split(' ')[0]));
  });

  test('a namespace that does not exist: a clear error, and no tcpdump left running', async () => {
    const before = execFileSync('sh', ['-c', 'pgrep -x tcpdump || true'], { encoding: 'utf8' }).trim();
    await expect(startPacketCapture({ netns: 'labcli-no-such-namespace', file: path.join(tmp, 'b.pcap') }))
      .rejects.toThrow(/tcpdump could not capture in labcli-no-such-namespace \(exit \d+\)/);
    expect(execFileSync('sh', ['-c', 'pgrep -x tcpdump || true'], { encoding: 'utf8' }).trim()).toBe(before);
  });

  test('a capture left running ends with the link', async () => {
    const capture = await startPacketCapture({ netns: link.clientNs, file: path.join(tmp, 'c.pcap') });
    expect(() => process.kill(capture.pid, 0)).not.toThrow(); // running
    await link.close();
    link = null;
    const got = await capture.stop();
    expect(() => process.kill(capture.pid, 0)).toThrow(); // ended
    expect(fs.statSync(got.file).size).toBeGreaterThanOrEqual(24); // at least the pcap header
  });
});
