'use strict';
// Multipath in scenario files: a profile's extraPaths, their link settings and description,
// what a scenario refuses with them, and the record's arithmetic over several paths.
const { validateProfile, profileToLinkSettings, describeProfile } = require('../../testbed/scenario/network-profile');
const { sumCounters } = require('../../testbed/runner/link-counters');
const { resultColumns } = require('../../testbed/runner/results-table');
const { fileMessages } = require('../support/run-option-refusals');

const profile = (raw) => {
  const problems = [];
  const p = validateProfile(raw, 'profiles.x', problems, () => '');
  return { p, problems };
};

test('extra paths: each a profile of its own, its settings and seed apart, described path by path', () => {
  const { p, problems } = profile({ rttMs: 50, rateMbps: 5, seed: 3, extraPaths: [{ rttMs: 100, rateMbps: 5, lossPercent: 1 }] });
  expect(problems).toEqual([]);
  const s = profileToLinkSettings(p, { repetition: 2 });
  expect(s.toClient.delayMs).toBe(25);
  expect(s.extraPaths).toHaveLength(1);
  expect(s.extraPaths[0].toClient).toMatchObject({ delayMs: 50, lossRate: 0.01, rate: { kind: 'constant', bitsPerSecond: 5e6 } });
  // Path 2's randomness is its own: seed + 100, then the repetition's step.
  expect(s.extraPaths[0].toClient.seed).toBe(3 + 100 + 2);
  expect(s.toClient.seed).toBe(3 + 2);
  expect(describeProfile(p)).toBe('path 1: RTT 50 ms, 5 Mbit/s; path 2: RTT 100 ms, 5 Mbit/s, loss 1 %; Multipath TCP');
  expect(profileToLinkSettings(profile({ rttMs: 50 }).p).extraPaths).toBeUndefined();
});

test('extra paths refused: empty, too many, nested, in an override, with bad settings', () => {
  expect(profile({ extraPaths: [] }).problems).toEqual(['profiles.x.extraPaths must be a list of 1-3 path profiles, got []']);
  expect(profile({ extraPaths: [{}, {}, {}, {}] }).problems).toEqual([expect.stringMatching(/must be a list of 1-3/)]);
  expect(profile({ extraPaths: [{ extraPaths: [{}] }] }).problems).toEqual(['profiles.x.extraPaths[0].extraPaths: only a whole profile of its own can have extra paths']);
  expect(profile({ extraPaths: [{ rttMs: -1 }] }).problems).toEqual([expect.stringMatching(/^profiles\.x\.extraPaths\[0\]\.rttMs must be a number >= 0/)]);
  const problems = [];
  validateProfile({ extraPaths: [{}] }, 'abrs.q.link', problems, () => '', { partial: true });
  expect(problems).toEqual(['abrs.q.link.extraPaths: only a whole profile of its own can have extra paths']);
});

test('a scenario with a Multipath TCP profile refuses UDP transports and address switches', () => {
  const problems = fileMessages({ transports: ['http11', 'h3', 'datachannel'], profiles: { two: { rttMs: 50, extraPaths: [{ rttMs: 100 }] } }, switchSchedules: { s: [{ atSeconds: 5, network: 'two' }] } });
  expect(problems).toEqual([
    'transports[1]: "h3" runs over UDP, and profile two is Multipath TCP (extraPaths): use TCP transports (http11, http10, h2, parallel) or a profile of one path',
    'transports[2]: "datachannel" runs over UDP, and profile two is Multipath TCP (extraPaths): use TCP transports (http11, http10, h2, parallel) or a profile of one path',
    "switchSchedules cannot be combined with Multipath TCP profiles (two): a switch changes the client's path-1 address",
  ]);
});

test('several paths\' counters add up as one link\'s; maxima stay maxima', () => {
  const a = { toClient: { bytesOut: 10, packetsIn: 2, drops: { queue: 1 }, maxQueueDelayMs: 5 }, lateTimers: { count: 1, maxMs: 3 } };
  const b = { toClient: { bytesOut: 30, packetsIn: 4, drops: { queue: 2 }, maxQueueDelayMs: 9 }, lateTimers: { count: 0, maxMs: 7 } };
  expect(sumCounters([a, b])).toEqual({ toClient: { bytesOut: 40, packetsIn: 6, drops: { queue: 3 }, maxQueueDelayMs: 9 }, lateTimers: { count: 1, maxMs: 7 } });
});

test('results.csv: the extra paths\' share of the downlink and the origin\'s retransmissions', () => {
  const col = (name) => resultColumns().find((c) => c.name === name);
  const two = { pathCounters: [{ path: 1, toClient: { bytesOut: 600 } }, { path: 2, toClient: { bytesOut: 400 } }], tcp: { connections: 2, retransSegs: 7 } };
  expect(col('extraPathShare').get(two)).toBeCloseTo(0.4, 9);
  expect(col('extraPathShare').get({ pathCounters: null })).toBeNull();
  expect(col('tcpRetransSegments').get(two)).toBe(7);
  expect(col('tcpConnections').get(two)).toBe(2);
  expect(col('tcpRetransSegments').get({ tcp: null })).toBeNull();
});

test('results.csv: the congestion controls the kernel ran, per path on several paths', () => {
  const col = (name) => resultColumns().find((c) => c.name === name);
  const two = { tcp: { congestionControls: ['lab_lia'], byPath: [{ path: 1, congestionControls: ['lab_lia'] }, { path: 2, congestionControls: ['lab_lia', 'cubic'] }] } };
  expect(col('tcpCongestionControls').get(two)).toBe('lab_lia|lab_lia+cubic');
  expect(col('tcpCongestionControls').get({ tcp: { congestionControls: ['cubic'] } })).toBe('cubic');
  expect(col('tcpCongestionControls').get({ tcp: { byPath: [{ path: 1, congestionControls: [] }, { path: 2, congestionControls: ['bbr'] }] } })).toBe('-|bbr');
  expect(col('tcpCongestionControls').get({ tcp: null })).toBeNull();
});
