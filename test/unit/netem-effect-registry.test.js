'use strict';
// A network effect is one file plus one registry entry: the throw-away effect of
// test/fixtures/throwaway-effect.js, registered here and nowhere else, is validated in scenario
// profiles, becomes link settings, runs for every packet, and shows its counters in `npm run
// lab`'s counter lines. Removed again, nothing knows it.
const { registerEffect, listEffects } = require('../../testbed/netem/effects');
const { LinkDirection } = require('../../testbed/netem/link-direction');
const { validateProfile, profileToLinkSettings, describeProfile } = require('../../testbed/scenario/network-profile');
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { getPreset } = require('../../origin/content/presets');
const { formatCounters } = require('../../testbed/cli/lab');
const everyNth = require('../fixtures/throwaway-effect');

const scenario = (profile) => ({ content: 'sample', transports: ['http11'], abrs: ['bba2'], profiles: { lan: profile } });
const ctx = { source: 'test.yaml', defaultName: 'test', getPreset, readText: () => { throw new Error('no files'); } };

describe('with the throw-away effect registered after random loss', () => {
  let unregister;
  beforeAll(() => {
    unregister = registerEffect(everyNth, { after: 'loss' });
  });
  afterAll(() => unregister());

  test('it takes its place in the fixed order', () => {
    expect(listEffects().map((e) => e.name)).toEqual(['down', 'loss', 'every-nth', 'bottleneck', 'reorder', 'delay', 'corrupt', 'duplicate']);
  });

  test('scenario profiles accept its key, check it, and turn it into link settings', () => {
    const s = validateScenario(scenario({ rttMs: 20, dropEveryNth: 4 }), ctx);
    expect(s.profiles.lan).toEqual({ rttMs: 20, dropEveryNth: 4 });
    const problems = [];
    validateProfile({ rttMs: 20, dropEveryNth: 1.5 }, 'profiles.lan', problems);
    expect(problems).toEqual(['profiles.lan.dropEveryNth must be a whole number >= 2, got 1.5']);
    const { toClient, toServer } = profileToLinkSettings(s.profiles.lan);
    expect(toClient.dropEveryNth).toBe(4);
    expect(toServer.dropEveryNth).toBe(4);
    expect(profileToLinkSettings({ rttMs: 0 }).toClient.dropEveryNth).toBe(0);
    expect(describeProfile(s.profiles.lan)).toBe('RTT 20 ms, every 4th packet dropped');
  });

  test('it runs for every packet, before the queue, and counts what it did', () => {
    const { toClient, toServer } = profileToLinkSettings({ rttMs: 20, dropEveryNth: 4, queuePackets: 3, rate: { kind: 'constant', bitsPerSecond: 1.2e6 } });
    const down = new LinkDirection(toClient);
    const verdicts = Array.from({ length: 12 }, () => down.send(0, 1500).dropped);
    // Packets 4, 8, 12 dropped by it; of the other 9 arriving at once, the queue (3) keeps 3:
    // a packet it dropped took no room in the queue.
    expect(verdicts).toEqual([null, null, null, 'nth', 'queue', 'queue', 'queue', 'nth', 'queue', 'queue', 'queue', 'nth']);
    expect(down.counters.drops).toMatchObject({ nth: 3, queue: 6 });
    expect(down.counters.nthSeen).toBe(12);
    const up = new LinkDirection(toServer);
    up.send(0, 100);
    expect(() => new LinkDirection({ dropEveryNth: 1 })).toThrow(/dropEveryNth must be 0 \(off\) or a whole number >= 2, got 1/);
    const text = formatCounters({ toClient: down.counters, toServer: up.counters });
    expect(text).toMatch(/to browser: 3\/12 packets delivered, .*drops: down 0, loss 0, nth 3, queue 6, codel 0.*; every-nth saw 12/);
    expect(text).toMatch(/to origin : 1\/1 packets delivered, .*nth 0/);
  });

  test('a second effect of the same name or with a key another effect owns is refused', () => {
    expect(() => registerEffect(everyNth)).toThrow(/already/);
    expect(() => registerEffect({ ...everyNth, name: 'other' })).toThrow(/setting "dropEveryNth" belongs to effect "every-nth"/);
    expect(() => registerEffect({ ...everyNth, name: 'x', settings: {}, drops: [], counters: {}, profile: undefined }, { before: 'nope' })).toThrow(/no network effect "nope"/);
  });
});

test('unregistered, nothing knows it: its key is an unknown setting again', () => {
  const problems = [];
  validateProfile({ rttMs: 20, dropEveryNth: 4 }, 'profiles.lan', problems);
  expect(problems.join()).toMatch(/profiles\.lan: unknown setting "dropEveryNth"/);
  expect(() => new LinkDirection({ dropEveryNth: 4 })).toThrow(/unknown link setting "dropEveryNth"/);
  expect(listEffects().map((e) => e.name)).not.toContain('every-nth');
});
