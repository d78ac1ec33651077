'use strict';
// readPcap on pcap files built byte by byte as libpcap lays them out (the integration test
// packet-capture.test.js checks it against tcpdump's own reading of a real capture).
const { readPcap } = require('../../testbed/report/pcap-packets');
const { ipPacket, pcapFile } = require('../support/pcap-file');

const SYN = { sec: 1796574615, frac: 219043, cut: 0, bytes: ipPacket({ src: '10.77.1.3', dst: '10.77.1.1', protocol: 6, totalLength: 60, srcPort: 40524, dstPort: 8080, tcpFlags: 0x02 }) };
const SYN_ACK = { sec: 1796574616, frac: 500000, cut: 0, bytes: ipPacket({ src: '10.77.1.1', dst: '10.77.1.3', protocol: 6, totalLength: 60, srcPort: 8080, dstPort: 40524, tcpFlags: 0x12 }) };
const INITIAL = { sec: 1796574617, frac: 0, cut: 1250, bytes: ipPacket({ src: '10.77.1.3', dst: '10.77.1.1', protocol: 17, totalLength: 1278, srcPort: 50000, dstPort: 8444 }) };

test('Linux cooked v2 (tcpdump -i any): addresses, ports, TCP flags in tcpdump\'s letters, the length as sent', () => {
  const got = readPcap(pcapFile({ linkType: 276, linkBytes: 20, packets: [SYN, SYN_ACK, INITIAL] }));
  expect(got).toEqual([
    { t: 1796574615.219043, src: '10.77.1.3', dst: '10.77.1.1', protocol: 'tcp', length: 60, srcPort: 40524, dstPort: 8080, flags: 'S' },
    { t: 1796574616.5, src: '10.77.1.1', dst: '10.77.1.3', protocol: 'tcp', length: 60, srcPort: 8080, dstPort: 40524, flags: 'S.' },
    { t: 1796574617, src: '10.77.1.3', dst: '10.77.1.1', protocol: 'udp', length: 1278, srcPort: 50000, dstPort: 8444, flags: null },
  ]);
});

test('raw IP and cooked v1, big-endian files and nanosecond stamps read alike', () => {
  const one = (o) => readPcap(pcapFile({ ...o, packets: [SYN_ACK] }))[0];
  const expected = { src: '10.77.1.1', dst: '10.77.1.3', flags: 'S.', length: 60 };
  expect(one({ linkType: 101, linkBytes: 0 })).toMatchObject({ ...expected, t: 1796574616.5 });
  expect(one({ linkType: 113, linkBytes: 16, bigEndian: true })).toMatchObject({ ...expected, t: 1796574616.5 });
  const nano = readPcap(pcapFile({ linkType: 101, linkBytes: 0, nano: true, packets: [{ ...SYN_ACK, frac: 500000000 }] }))[0];
  expect(nano.t).toBe(1796574616.5);
});

test('a last record cut short (a capture killed mid-write) and packets that are not IPv4 are left out', () => {
  const notIp = { sec: 1, frac: 0, cut: 0, bytes: Buffer.from([0x60, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) };
  const file = pcapFile({ linkType: 276, linkBytes: 20, packets: [notIp, SYN, SYN_ACK] });
  expect(readPcap(file.subarray(0, file.length - 10)).map((p) => p.flags)).toEqual(['S']);
});

test('what it cannot read is said: not a pcap, pcapng, another link type', () => {
  expect(() => readPcap(Buffer.from('hello'))).toThrow('not a pcap file: 5 bytes, a pcap header has 24');
  expect(() => readPcap(Buffer.concat([Buffer.from([0x0a, 0x0d, 0x0d, 0x0a]), Buffer.alloc(28)]))).toThrow(/not a pcap file \(magic 0xa0d0d0a; pcapng is not read\)/);
  expect(() => readPcap(pcapFile({ linkType: 1, linkBytes: 14, packets: [SYN] }))).toThrow('pcap link type 1 is not read (only 101, 113, 276)');
});
