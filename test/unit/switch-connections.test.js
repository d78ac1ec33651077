'use strict';
const { connectionsAcrossSwitches, countOutcomes } = require('../../testbed/runner/switch-connections');

const t = (s) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const switchLog = [
  { atSeconds: 10, at: t(10), network: 'lte', clientIp: '10.77.0.3' },
  { atSeconds: 20, at: t(20), network: 'wifi', clientIp: '10.77.0.4' },
  { atSeconds: 30, at: t(30), network: 'lte', clientIp: '10.77.0.5' },
  { atSeconds: 40, at: t(40), network: 'wifi', clientIp: '10.77.0.6' },
];

test('a QUIC connection that carries on from the new address is a migration; a new id is a new connection', () => {
  const log = [
    { time: t(1), listener: 'h3', connectionId: 'h3-1', peer: '10.77.0.2:50000' },
    { time: t(9), listener: 'h3', connectionId: 'h3-1', peer: '10.77.0.2:50000' },
    // After the first switch: the same connection, from the new address.
    { time: t(13), listener: 'h3', connectionId: 'h3-1', peer: '10.77.0.3:50000' },
    // After the second: a request on the old connection that died with it, then a new connection (a handshake).
    { time: t(21), listener: 'h3', connectionId: 'h3-1', peer: '10.77.0.3:50000', aborted: true },
    { time: t(22), listener: 'h3', connectionId: 'h3-2', peer: '10.77.0.4:41000' },
    // After the third: TCP-style, the same id with no peer recorded stays "same connection".
    { time: t(31), listener: 'h3', connectionId: 'h3-2' },
  ];
  const out = connectionsAcrossSwitches(switchLog, log);
  expect(out.map((e) => e.outcome)).toEqual(['migrated', 'new connection', 'same connection', 'no request']);
  expect(out[0]).toMatchObject({ connectionId: 'h3-1', peerBefore: '10.77.0.2:50000', peerAfter: '10.77.0.3:50000', network: 'lte' });
  expect(out[1]).toMatchObject({ connectionId: 'h3-2', peerBefore: null, peerAfter: '10.77.0.4:41000' });
  expect(countOutcomes(out)).toEqual({ migrated: 1, 'new connection': 1, 'same connection': 1, 'no request': 1 });
  // How long each switch's first request took to reach the origin (the aborted one at 21 s is not it).
  expect(out.map((e) => e.requestAfterSeconds)).toEqual([3, 2, 1, null]);
});

test('connection ids are per listener: http11-1 after a switch is new if only h2-1 was used before', () => {
  const log = [
    { time: t(5), listener: 'h2', connectionId: 'h2-1' },
    { time: t(12), listener: 'http11', connectionId: 'h2-1' },
  ];
  expect(connectionsAcrossSwitches(switchLog.slice(0, 1), log)[0].outcome).toBe('new connection');
});

test('a request from the old address that reaches the origin after the switch was in flight: skipped', () => {
  const log = [
    { time: t(5), listener: 'h2', connectionId: 'h2-1', peer: '10.77.0.2:40000' },
    // Sent on the old network just before the switch, logged (answered into the socket) after it.
    { time: t(10.02), listener: 'h2', connectionId: 'h2-1', peer: '10.77.0.2:40000' },
    { time: t(12), listener: 'h2', connectionId: 'h2-2', peer: '10.77.0.3:40100' },
  ];
  const [out] = connectionsAcrossSwitches(switchLog.slice(0, 1), log);
  expect(out).toMatchObject({ outcome: 'new connection', connectionId: 'h2-2', peerAfter: '10.77.0.3:40100' });
});

test('over TCP, a switch back to an address the client had lets a connection opened there carry on', () => {
  const back = [
    { atSeconds: 10, at: t(10), network: 'lte', clientIp: '10.77.0.3' },
    { atSeconds: 20, at: t(20), network: 'wifi', clientIp: '10.77.0.2' },
  ];
  const log = [
    { time: t(5), listener: 'h2', connectionId: 'h2-1', peer: '10.77.0.2:40000' },
    { time: t(12), listener: 'h2', connectionId: 'h2-2', peer: '10.77.0.3:40100' },
    { time: t(22), listener: 'h2', connectionId: 'h2-1', peer: '10.77.0.2:40000' },
  ];
  const out = connectionsAcrossSwitches(back, log);
  expect(out.map((e) => e.outcome)).toEqual(['new connection', 'same connection']);
  expect(out[1]).toMatchObject({ connectionId: 'h2-1', peerBefore: '10.77.0.2:40000', peerAfter: '10.77.0.2:40000' });
});

test('after a switch, a request with a logged peer is taken before an earlier one logged without a peer', () => {
  const log = [
    { time: t(5), listener: 'http11', connectionId: 'c1', peer: '10.77.0.2:40000' },
    { time: t(11), listener: 'http11', connectionId: 'c2' }, // no peer logged: says nothing of the address
    { time: t(12), listener: 'http11', connectionId: 'c3', peer: '10.77.0.3:40100' },
  ];
  const [e] = connectionsAcrossSwitches(switchLog.slice(0, 1), log);
  expect(e).toMatchObject({ outcome: 'new connection', connectionId: 'c3', peerAfter: '10.77.0.3:40100' });
  // Only one without a peer after the switch: it stands in (as before).
  const [only] = connectionsAcrossSwitches(switchLog.slice(0, 1), log.slice(0, 2));
  expect(only).toMatchObject({ outcome: 'new connection', connectionId: 'c2', peerAfter: null });
});

test('with monotonic stamps in both logs, a wall-clock step between a switch and its requests misleads nothing', () => {
  // The wall clock stepped 13 s forward between the switch (at wall 10 s) and the requests
  // after it; on the monotonic clock (mono, ms) the switch came at 10 000 and they at 11 000+.
  const switches = [{ atSeconds: 10, at: t(10), mono: 10000, network: 'lte', clientIp: '10.77.0.3' },
    { atSeconds: 20, at: t(20), mono: 20000, network: 'wifi', clientIp: '10.77.0.4' }];
  const log = [
    { time: t(5), mono: 5000, listener: 'h3', connectionId: 'h3-1', peer: '10.77.0.2:50000' },
    { time: t(24), mono: 11000, listener: 'h3', connectionId: 'h3-1', peer: '10.77.0.3:50000' },
    { time: t(35), mono: 22345.6, listener: 'h3', connectionId: 'h3-2', peer: '10.77.0.4:41000' },
  ];
  const out = connectionsAcrossSwitches(switches, log);
  expect(out.map((e) => e.outcome)).toEqual(['migrated', 'new connection']);
  expect(out.map((e) => e.clock)).toEqual(['mono', 'mono']);
  // Seconds from the switch to its first request on the same (monotonic) clock, to the millisecond.
  expect(out.map((e) => e.requestAfterSeconds)).toEqual([1, 2.346]);
  // By the wall clock alone (a log from before the origin stamped mono) the request at wall 24 s
  // falls after the second switch: the first switch would have seen no request.
  const wall = connectionsAcrossSwitches(switches.map(({ mono, ...s }) => s), log);
  expect(wall.map((e) => e.outcome)).toEqual(['no request', 'new connection']);
  expect(wall[0].clock).toBe('wall');
  // Only one log stamped: the wall clock for both, never a mix of clocks.
  const mixed = connectionsAcrossSwitches(switches, log.map(({ mono, ...e }) => e));
  expect(mixed.map((e) => e.outcome)).toEqual(['no request', 'new connection']);
});
