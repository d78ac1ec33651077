'use strict';
// The IPv4 packets of a pcap file as a list, for reading a playback's capture (`npm run qoe --
// --capture`, testbed/netem/packet-capture.js) next to its record: when each packet was seen,
// between which addresses, TCP or UDP, how long, and a TCP packet's flags. Only what the
// headers say: a capture keeps the first 128 bytes of each packet. Pure: the file's bytes in.
// Link types: what tcpdump writes for `-i any` (Linux cooked v2, and v1 of older libpcap) and
// for a TUN device (raw IP).

const MAGIC_MICRO = 0xa1b2c3d4;
const MAGIC_NANO = 0xa1b23c4d;
// Bytes before the IP header, per link type.
const LINK_HEADER_BYTES = { 101: 0, 113: 16, 276: 20 };
const PROTOCOLS = { 6: 'tcp', 17: 'udp', 1: 'icmp' };
// In tcpdump's order, so a SYN-ACK reads "S." as in its output.
const TCP_FLAGS = [[0x01, 'F'], [0x02, 'S'], [0x04, 'R'], [0x08, 'P'], [0x10, '.']];

const ipv4 = (b, at) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

/**
 * @param {Buffer} buf  a pcap file (not pcapng), either byte order, micro- or nanosecond stamps
 * @returns {{t: number, src: string, dst: string, protocol: string, length: number, srcPort: number|null,
 *   dstPort: number|null, flags: string|null}[]}  t in seconds since 1970 (the capture's clock);
 *   length: the IP packet's total length as sent (not what was kept); flags: TCP's, in tcpdump's
 *   letters ("S", "S.", ".", "P.", "F.", "R"); packets that are not IPv4 are left out
 */
function readPcap(buf) {
  if (buf.length < 24) throw new Error(`not a pcap file: ${buf.length} bytes, a pcap header has 24`);
  let le;
  if ([MAGIC_MICRO, MAGIC_NANO].includes(buf.readUInt32LE(0))) le = true;
  else if ([MAGIC_MICRO, MAGIC_NANO].includes(buf.readUInt32BE(0))) le = false;
  else throw new Error(`not a pcap file (magic 0x${buf.readUInt32BE(0).toString(16)}; pcapng is not read)`);
  const u32 = (at) => (le ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const fraction = [buf.readUInt32LE(0), buf.readUInt32BE(0)].includes(MAGIC_NANO) ? 1e9 : 1e6;
  const linkType = u32(20) & 0xffff;
  const skip = LINK_HEADER_BYTES[linkType];
  if (skip === undefined) throw new Error(`pcap link type ${linkType} is not read (only ${Object.keys(LINK_HEADER_BYTES).join(', ')})`);
  const packets = [];
  for (let at = 24; at + 16 <= buf.length;) {
    const kept = u32(at + 8);
    const t = u32(at) + u32(at + 4) / fraction;
    const ip = at + 16 + skip;
    at += 16 + kept;
    if (at > buf.length) break; // the last record cut short (a capture killed mid-write)
    if (ip + 20 > at || buf[ip] >> 4 !== 4) continue;
    const headerBytes = (buf[ip] & 15) * 4;
    const number = buf[ip + 9];
    const protocol = PROTOCOLS[number] || String(number);
    const l4 = ip + headerBytes;
    const ports = (protocol === 'tcp' || protocol === 'udp') && l4 + 4 <= at;
    let flags = null;
    if (protocol === 'tcp' && l4 + 14 <= at) flags = TCP_FLAGS.filter(([bit]) => buf[l4 + 13] & bit).map(([, c]) => c).join('');
    packets.push({
      t,
      src: ipv4(buf, ip + 12),
      dst: ipv4(buf, ip + 16),
      protocol,
      length: buf.readUInt16BE(ip + 2),
      srcPort: ports ? buf.readUInt16BE(l4) : null,
      dstPort: ports ? buf.readUInt16BE(l4 + 2) : null,
      flags,
    });
  }
  return packets;
}

module.exports = { readPcap };
