'use strict';
const { parseSsTcpInfo, byPath } = require('../../testbed/netem/tcp-subflows');

// `ss -tin` in a server namespace with one MPTCP connection of two subflows (iproute2 6.1's
// format: a header, then per socket a state line and an indented details line).
const SS = `State Recv-Q Send-Q Local Address:Port  Peer Address:Port Process
ESTAB 0      1187200  10.77.213.1:5601   10.77.213.2:51234
\t cubic wscale:7,7 rto:224 rtt:21.5/2.1 ato:40 mss:1448 pmtu:1500 rcvmss:536 advmss:1448 cwnd:42 ssthresh:30 bytes_sent:2459012 bytes_retrans:14480 bytes_acked:2400000 segs_out:1700 segs_in:900 data_segs_out:1698 send 22.6Mbps lastsnd:4 lastrcv:4008 lastack:4 pacing_rate 27.1Mbps delivery_rate 4.9Mbps delivered:1660 busy:4004ms rwnd_limited:12ms(0.3%) unacked:38 retrans:0/10 reordering:4 rcv_space:14480 rcv_ssthresh:64088 notsent:1136512 minrtt:20.2
ESTAB 0      0       10.77.213.1:5601   10.78.213.2:40111
\t cubic wscale:7,7 rto:288 rtt:84.1/3 mss:1448 cwnd:30 bytes_sent:2279440 bytes_acked:2279441 segs_out:1575 retrans:0/0 minrtt:80.1
`;

test('ss -tin: each socket with its addresses, congestion control, bytes and retransmissions', () => {
  const s = parseSsTcpInfo(SS);
  expect(s).toEqual([
    { state: 'ESTAB', local: '10.77.213.1:5601', peer: '10.77.213.2:51234', cc: 'cubic', bytesSent: 2459012, bytesRetrans: 14480, bytesAcked: 2400000, retransSegs: 10, cwnd: 42, rttMs: 21.5 },
    { state: 'ESTAB', local: '10.77.213.1:5601', peer: '10.78.213.2:40111', cc: 'cubic', bytesSent: 2279440, bytesRetrans: 0, bytesAcked: 2279441, retransSegs: 0, cwnd: 30, rttMs: 84.1 },
  ]);
  expect(parseSsTcpInfo('State Recv-Q Send-Q Local Address:Port Peer Address:Port Process\n')).toEqual([]);
});

test('sockets by path: every subflow goes to the server\'s path-1 address; the client\'s address names the path', () => {
  const paths = [{ index: 0, serverIp: '10.77.213.1', clientIp: '10.77.213.2' }, { index: 1, serverIp: '10.78.213.1', clientIp: '10.78.213.2' }];
  expect(byPath(parseSsTcpInfo(SS), paths)).toEqual([
    { path: 0, sockets: 1, bytesSent: 2459012, bytesRetrans: 14480, retransSegs: 10, congestionControls: ['cubic'] },
    { path: 1, sockets: 1, bytesSent: 2279440, bytesRetrans: 0, retransSegs: 0, congestionControls: ['cubic'] },
  ]);
});

test('ss -tin: option flags before the congestion control (timestamps, SACK, ECN) are not it', () => {
  const line = 'ESTAB 0 0 10.77.5.1:8080 10.77.5.2:40000\n\t ts sack ecn lab_lia wscale:7,7 rto:204 rtt:3.1/1 cwnd:10 bytes_sent:500 retrans:0/0\n';
  expect(parseSsTcpInfo(line)[0].cc).toBe('lab_lia');
});
