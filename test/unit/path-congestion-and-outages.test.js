'use strict';
// A profile's congestion control and a path's outages (paper 004: a variant per run; a path lost
// and regained), the registry of congestion controls that scenario files and competing flows
// read, and what they refuse.
const { validateProfile, profileToLinkSettings, describeProfile, profileKeys } = require('../../testbed/scenario/network-profile');
const registry = require('../../testbed/congestion/registry');
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { fileMessages, VALID_SCENARIO, SCENARIO_CONTEXT } = require('../support/run-option-refusals');

const profile = (raw) => {
  const problems = [];
  const p = validateProfile(raw, 'profiles.x', problems, () => '');
  return { p, problems };
};

test('the registry is the one list of congestion controls: kernel ones by their name, BPF ones by the lab\'s', () => {
  expect(registry.names()).toEqual(['reno', 'cubic', 'bbr', 'vegas', 'lia']);
  expect(registry.get('lia')).toMatchObject({ kernelName: 'lab_lia', source: 'bpf', object: 'lab_lia.bpf.o' });
  expect(registry.get('cubic')).toMatchObject({ kernelName: 'cubic', source: 'kernel' });
  // The kernel's names are at most 15 characters (TCP_CA_NAME_MAX 16 with the NUL).
  for (const c of registry.list()) expect(c.kernelName.length).toBeLessThan(16);
  expect(() => registry.get('compound')).toThrow('unknown TCP congestion control "compound" (one of reno, cubic, bbr, vegas, lia)');
});

test('a profile names the origin\'s congestion control; a path of a multipath profile cannot', () => {
  const { p, problems } = profile({ rttMs: 50, congestionControl: 'lia', extraPaths: [{ rttMs: 100 }] });
  expect(problems).toEqual([]);
  expect(p.congestionControl).toBe('lia');
  expect(describeProfile(p)).toBe('path 1: RTT 50 ms, TCP lia; path 2: RTT 100 ms; Multipath TCP');
  expect(profile({ rttMs: 50, extraPaths: [{ rttMs: 100, congestionControl: 'vegas' }] }).problems).toEqual([
    "profiles.x.extraPaths[0].congestionControl: a path cannot have a congestion control of its own: Linux gives every subflow of an MPTCP connection the connection's (set congestionControl on the profile)",
  ]);
  expect(profile({ congestionControl: 'compound' }).problems).toEqual(['profiles.x.congestionControl must be one of reno, cubic, bbr, vegas, lia, got "compound"']);
  expect(fileMessages({ congestionControl: 'ccp' })).toEqual(['congestionControl must be one of reno, cubic, bbr, vegas, lia, got "ccp"']);
  expect(validateScenario({ ...VALID_SCENARIO, congestionControl: 'vegas' }, SCENARIO_CONTEXT).congestionControl).toBe('vegas');
});

test('outages: a path down from atSeconds for forSeconds, both directions, on its own path', () => {
  expect(profileKeys()).toContain('outages');
  const { p, problems } = profile({ rttMs: 50, extraPaths: [{ rttMs: 100, outages: [{ atSeconds: 20, forSeconds: 10 }, { atSeconds: 40, forSeconds: 2.5 }] }] });
  expect(problems).toEqual([]);
  const s = profileToLinkSettings(p);
  expect(s.toClient.downIntervals).toBeUndefined();
  const expected = [{ fromMs: 20000, toMs: 30000 }, { fromMs: 40000, toMs: 42500 }];
  expect(s.extraPaths[0].toClient.downIntervals).toEqual(expected);
  expect(s.extraPaths[0].toServer.downIntervals).toEqual(expected);
  expect(describeProfile(p)).toBe('path 1: RTT 50 ms; path 2: RTT 100 ms, down 10 s at 20 s, down 2.5 s at 40 s; Multipath TCP');
  const bad = 'must be a list of {atSeconds >= 0, forSeconds > 0} (the path is down from atSeconds for forSeconds)';
  expect(profile({ outages: [] }).problems).toEqual([`profiles.x.outages: ${bad}, got []`]);
  expect(profile({ outages: [{ atSeconds: 5 }] }).problems).toEqual([`profiles.x.outages: ${bad}, got [{"atSeconds":5}]`]);
  expect(profile({ outages: [{ atSeconds: 5, forSeconds: 0 }] }).problems).toHaveLength(1);
  expect(profile({ outages: [{ atSeconds: 5, forSeconds: 1, at: 3 }] }).problems).toHaveLength(1);
});

test('outages and switch schedules are not combined: both set the link\'s down intervals', () => {
  expect(fileMessages({ profiles: { lan: { rttMs: 20, outages: [{ atSeconds: 1, forSeconds: 1 }] } }, switchSchedules: { s: [{ atSeconds: 5, network: 'lan' }] } }))
    .toEqual(["switchSchedules cannot be combined with profiles that have outages (lan): use a switch's outageSeconds"]);
});
