'use strict';
const { parseUdpCounters, diffDrops } = require('../../testbed/netem/endpoint-drops');

const SNMP = `Ip: Forwarding DefaultTTL InReceives
Ip: 1 64 100
Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors
Udp: 9218609 39 1220 9219881 1217 3 0 0 0
UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors
UdpLite: 0 0 0 0 0 0 0 0 0
`;

test('reads the Udp error counters by name, not UdpLite', () => {
  expect(parseUdpCounters(SNMP)).toEqual({ InErrors: 1220, RcvbufErrors: 1217, SndbufErrors: 3 });
});

test('no Udp lines: a clear error', () => {
  expect(() => parseUdpCounters('Ip: a\nIp: 1\n')).toThrow(/no Udp lines/);
});

test('the difference is taken field by field through the nesting', () => {
  const before = { client: { udp: { RcvbufErrors: 5 }, tun: { txDropped: 1 } }, host: { udp: { RcvbufErrors: 100 } } };
  const after = { client: { udp: { RcvbufErrors: 26 }, tun: { txDropped: 1 } }, host: { udp: { RcvbufErrors: 100 } } };
  expect(diffDrops(after, before)).toEqual({ client: { udp: { RcvbufErrors: 21 }, tun: { txDropped: 0 } }, host: { udp: { RcvbufErrors: 0 } } });
});
