'use strict';
// pcap files built byte by byte as libpcap lays them out, for the tests that read captures
// without making one (pcap-packets, switch-timeline).

/** An IPv4 packet's first bytes: header, then a TCP (flags) or UDP header. */
function ipPacket({ src, dst, protocol, totalLength, srcPort, dstPort, tcpFlags = 0 }) {
  const ip = Buffer.alloc(20);
  ip[0] = 0x45;
  ip.writeUInt16BE(totalLength, 2);
  ip[9] = protocol;
  src.split('.').forEach((n, i) => { ip[12 + i] = Number(n); });
  dst.split('.').forEach((n, i) => { ip[16 + i] = Number(n); });
  const l4 = Buffer.alloc(protocol === 6 ? 20 : 8);
  l4.writeUInt16BE(srcPort, 0);
  l4.writeUInt16BE(dstPort, 2);
  if (protocol === 6) l4[13] = tcpFlags;
  return Buffer.concat([ip, l4]);
}

/** A pcap file: global header, then each packet behind a link header of linkBytes, cut to snap bytes. */
function pcapFile({ linkType, linkBytes, bigEndian = false, nano = false, packets }) {
  const u32 = (v) => { const b = Buffer.alloc(4); if (bigEndian) b.writeUInt32BE(v); else b.writeUInt32LE(v); return b; };
  const u16 = (v) => { const b = Buffer.alloc(2); if (bigEndian) b.writeUInt16BE(v); else b.writeUInt16LE(v); return b; };
  const parts = [u32(nano ? 0xa1b23c4d : 0xa1b2c3d4), u16(2), u16(4), u32(0), u32(0), u32(128), u32(linkType)];
  for (const p of packets) {
    const data = Buffer.concat([Buffer.alloc(linkBytes), p.bytes]);
    parts.push(u32(p.sec), u32(p.frac), u32(data.length), u32(data.length + p.cut), data);
  }
  return Buffer.concat(parts);
}

module.exports = { ipPacket, pcapFile };
