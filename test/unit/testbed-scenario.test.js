'use strict';
// Scenario files: validation with clear errors, profile -> link settings, the cross product.
const path = require('node:path');
const { validateScenario, ScenarioError } = require('../../testbed/scenario/validate-scenario');
const { profileToLinkSettings, mergeProfile } = require('../../testbed/scenario/network-profile');
const { expandMatrix, viewedSeconds } = require('../../testbed/scenario/expand-matrix');
const { loadScenario, parseScenarioText } = require('../../testbed/scenario/load-scenario');
const { getPreset } = require('../../origin/content/presets');
const { parseOnly } = require('../../testbed/runner/run-plan');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const ctx = { source: 'test.yaml', defaultName: 'test', getPreset, readText: (f) => ({ 'trace.csv': 'seconds,kbps\n0,1000\n10,6000\n' })[f] ?? (() => { throw new Error(`ENOENT ${f}`); })() };
const base = () => ({
  content: 'sample', transports: ['http11', 'h2'], abrs: ['bba2'],
  profiles: { lan: { rttMs: 20, rateMbps: 10 } },
});

function problemsOf(raw) {
  try {
    validateScenario(raw, ctx);
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError);
    return err.problems;
  }
  throw new Error('expected the scenario to be refused');
}

describe('validation', () => {
  test('a minimal scenario gets its defaults', () => {
    const s = validateScenario(base(), ctx);
    expect(s).toMatchObject({
      name: 'test', durationSeconds: 60, contentSeconds: 60, segmentSeconds: 2, repetitions: 1, congestionControl: 'cubic',
      networks: ['lan'], seekSchedules: { none: [] }, switchSchedules: { none: [] }, keepBitrateOnSeek: false,
    });
    expect(s.abrs).toEqual([{ name: 'bba2', label: 'bba2', params: {}, link: null, networks: null }]);
    expect(s.profiles.lan).toEqual({ rttMs: 20, rate: { kind: 'constant', bitsPerSecond: 10e6 } });
  });

  test('every problem is reported at once, with its path', () => {
    const problems = problemsOf({
      content: 'nope', transports: ['http3'], abrs: ['bba2', { name: 'sara', label: 'bba2' }, { name: 'mpc' }, { name: 'basic', label: 'b', params: { switchUpFactr: 2 } }],
      profiles: { lan: { rttMs: -5, lossPercent: 120, rateMbps: 'fast', latency: 3 } },
      networks: ['lan', 'wan'], repetitions: 0, colour: 'blue',
      seekSchedules: { bad: '40-100' },
      switchSchedules: { s: [{ atSeconds: 10, network: 'lte' }] },
    });
    const text = problems.join('\n');
    expect(text).toMatch(/unknown key "colour"/);
    expect(text).toMatch(/content: unknown content preset "nope"/);
    expect(text).toMatch(/transports\[0\] "http3" is not a transport/);
    expect(text).toMatch(/abrs: label "bba2" is used twice/);
    expect(text).toMatch(/abrs\[2\]\.name "mpc" is not an ABR/);
    expect(text).toMatch(/abrs\[3\]\.params: basic has no parameter "switchUpFactr"/);
    expect(text).toMatch(/profiles\.lan\.rttMs must be a number >= 0, got -5/);
    expect(text).toMatch(/profiles\.lan\.lossPercent must be a number >= 0 and <= 100, got 120/);
    expect(text).toMatch(/profiles\.lan\.rateMbps must be a number > 0, got "fast"/);
    expect(text).toMatch(/profiles\.lan: unknown setting "latency"/);
    expect(text).toMatch(/networks\[1\] "wan" is not a profile/);
    expect(text).toMatch(/repetitions must be a whole number >= 1, got 0/);
    expect(text).toMatch(/seekSchedules\.bad: "40-100" is not "AT:TO"/);
    expect(text).toMatch(/switchSchedules\.s\[0\]\.network "lte" is not a profile/);
    expect(problems.length).toBeGreaterThanOrEqual(14);
  });

  test('durations and seeks must fit the content', () => {
    expect(problemsOf({ ...base(), durationSeconds: 61 }).join()).toMatch(/longer than the content \(60 s\)/);
    expect(problemsOf({ ...base(), seekSchedules: { s: '10:70' } }).join()).toMatch(/seek to 70 s is past the content's end/);
    expect(problemsOf({ ...base(), seekSchedules: { s: [[20, 30], [10, 40]] } }).join()).toMatch(/seek times must increase/);
  });

  test('rate schedules: square wave, step trace from a file next to the scenario, bad files named', () => {
    const s = validateScenario({ ...base(), profiles: {
      dyn: { rate: { square: { lowMbps: 4, highMbps: 6, periodSeconds: 4 } } },
      trace: { rate: { steps: 'trace.csv' } },
      inline: { rate: { steps: [[0, 1], [5, 2]] } },
    } }, ctx);
    expect(s.profiles.dyn.rate).toEqual({ kind: 'square', lowBitsPerSecond: 4e6, highBitsPerSecond: 6e6, periodMs: 4000 });
    expect(s.profiles.trace.rate.steps).toEqual([{ atMs: 0, bitsPerSecond: 1e6 }, { atMs: 10000, bitsPerSecond: 6e6 }]);
    expect(s.profiles.inline.rate.steps[1]).toEqual({ atMs: 5000, bitsPerSecond: 2e6 });
    const problems = problemsOf({ ...base(), profiles: { a: { rate: { steps: 'missing.csv' } }, b: { rate: { sine: 3 } }, c: { rateMbps: 1, rate: { square: {} } } } }).join('\n');
    expect(problems).toMatch(/profiles\.a\.rate: steps trace "missing.csv": ENOENT/);
    expect(problems).toMatch(/unknown rate schedule "sine"/);
    expect(problems).toMatch(/give rateMbps or rate, not both/);
  });

  test('transport entries: the DataChannel with a fixed or dynamic BP, labels unique', () => {
    const s = validateScenario({ ...base(), transports: ['http11', { name: 'datachannel', bp: 25 }, { name: 'datachannel', bp: 'auto:25-75' }, { name: 'datachannel', label: 'dc', bp: 'auto' }] }, ctx);
    expect(s.transports).toEqual(['http11', { name: 'datachannel', label: 'datachannel-bp25', bp: 25 }, { name: 'datachannel', label: 'datachannel-bpauto-25-75', bp: 'auto:25-75' }, { name: 'datachannel', label: 'dc', bp: 'auto' }]);
    expect(expandMatrix(s).map((p) => [p.id, p.transportName, p.bp])[1]).toEqual(['datachannel-bp25.bba2.lan.r1', 'datachannel', 25]);
    const text = problemsOf({ ...base(), transports: [{ name: 'h2', bp: 5 }, { name: 'datachannel', bp: 'auto:80-20' }, { name: 'datachannel', bp: 101 }, { name: 'datachannel', bp: 5 }, { name: 'datachannel', bp: 5 }] }).join('\n');
    expect(text).toMatch(/transports\[0\]\.bp: only the datachannel and webtransport transports have a BP/);
    expect(text).toMatch(/transports\[1\]\.bp: a BP range must be within 0-100 with min <= max/);
    expect(text).toMatch(/transports\[2\]\.bp must be 0-100/);
    expect(text).toMatch(/label "datachannel-bp5" is used twice/);
  });

  test('YAML and JSON parse errors name the file', () => {
    expect(() => parseScenarioText('content: [sample', 'x.yaml')).toThrow(/x\.yaml: 1 problem[\s\S]*not valid YAML/);
    expect(() => parseScenarioText('{"content":', 'x.json')).toThrow(/not valid JSON/);
    expect(parseScenarioText('content: sample\ntransports: [h2]\n', 'x.yml')).toEqual({ content: 'sample', transports: ['h2'] });
  });
});

describe('network profiles become link settings', () => {
  test('paper 000 Table 1 (RTT 100 ms): 50 ms each way, jitter 20 % of the delay, the 0.2 % effects both ways', () => {
    const { toClient, toServer } = profileToLinkSettings({ rttMs: 100, jitterPercent: 20, lossPercent: 0.2, duplicatePercent: 0.2, corruptPercent: 0.2, reorderPercent: 0.2 });
    for (const d of [toClient, toServer]) {
      expect(d).toMatchObject({ delayMs: 50, jitterMs: 10, lossRate: 0.002, duplicateRate: 0.002, corruptRate: 0.002, reorderRate: 0.002, rate: null });
    }
    expect(toClient.queueLimitBytes).toBeNull();
    expect(toServer.seed).toBe(toClient.seed + 1);
  });

  test('each repetition draws its own random losses; the same repetition always the same ones', () => {
    const p = { rttMs: 100, lossPercent: 0.2 };
    const seeds = [1, 2, 3].map((repetition) => profileToLinkSettings(p, { repetition }));
    expect(seeds.map((s) => [s.toClient.seed, s.toServer.seed])).toEqual([[1, 2], [3, 4], [5, 6]]);
    expect(profileToLinkSettings(p, { repetition: 2 })).toEqual(seeds[1]);
    expect(profileToLinkSettings({ ...p, seed: 10 }, { repetition: 3 }).toClient.seed).toBe(14);
  });

  test('a rate gets a 100 ms drop-tail queue at its peak unless the profile says otherwise', () => {
    // 8 Mbit/s x 100 ms = 100 000 bytes
    expect(profileToLinkSettings({ rttMs: 0, rate: { kind: 'constant', bitsPerSecond: 8e6 } }).toClient.queueLimitBytes).toBe(100000);
    // square 4-6 Mbit/s: the peak (6) x 50 ms = 37 500 bytes
    expect(profileToLinkSettings({ rttMs: 0, queueMs: 50, rate: { kind: 'square', lowBitsPerSecond: 4e6, highBitsPerSecond: 6e6, periodMs: 4000 } }).toClient.queueLimitBytes).toBe(37500);
    expect(profileToLinkSettings({ rttMs: 0, queuePackets: 20, rate: { kind: 'constant', bitsPerSecond: 1e6 } }).toClient).toMatchObject({ queueLimitPackets: 20, queueLimitBytes: null });
    expect(profileToLinkSettings({ rttMs: 0, uplinkRateMbps: 1 }).toServer.rate).toEqual({ kind: 'constant', bitsPerSecond: 1e6 });
  });

  test('an ABR entry\'s link overrides replace the rate whole (paper 003: bandwidth = media bitrate)', () => {
    const merged = mergeProfile({ rttMs: 50, rate: { kind: 'square', lowBitsPerSecond: 1, highBitsPerSecond: 2, periodMs: 4 } }, { rate: { kind: 'constant', bitsPerSecond: 7e5 } });
    expect(merged).toEqual({ rttMs: 50, rate: { kind: 'constant', bitsPerSecond: 7e5 } });
  });
});

describe('the cross product', () => {
  test('transports x abrs x networks x seek and switch schedules x repetitions, stable ids, overrides applied', () => {
    const s = validateScenario({
      ...base(),
      abrs: ['bba2', { name: 'fixed', label: 'q700', params: { bitrateKbps: 700 }, link: { rateMbps: 0.7 } }],
      profiles: { wifi: { rttMs: 69, rateMbps: 3.9 }, lte: { rttMs: 128, rateMbps: 2.4 } },
      networks: ['wifi'],
      seekSchedules: { none: [], one: '10:30' },
      switchSchedules: { none: [], sw: [{ atSeconds: 20, network: 'lte', outageSeconds: 1 }] },
      repetitions: 2,
    }, ctx);
    const plan = expandMatrix(s);
    expect(plan).toHaveLength(2 * 2 * 1 * 2 * 2 * 2);
    expect(new Set(plan.map((p) => p.id)).size).toBe(plan.length);
    expect(plan[0].id).toBe('http11.bba2.wifi.none.none.r1');
    const q = plan.find((p) => p.id === 'h2.q700.wifi.one.sw.r2');
    expect(q.profile.rate).toEqual({ kind: 'constant', bitsPerSecond: 7e5 });
    expect(q.profile.rttMs).toBe(69);
    expect(q.switches).toEqual([{ atSeconds: 20, network: 'lte', outageSeconds: 1, newAddress: true }]);
    expect(q.seeks).toEqual([{ at: 10, to: 30 }]);
    // Repetition is the outer loop: a run cut short has every combination once before any twice.
    expect(plan.slice(0, 16).every((p) => p.repetition === 1)).toBe(true);
    const only = plan.filter(parseOnly('transport=h2,abr=q700,abr=bba2,repetition=1'));
    expect(only).toHaveLength(8);
    expect(() => parseOnly('colour=red')).toThrow(/KEY=VALUE/);
  });

  test('viewing time follows the seeks: paper 002 Table 3 watches 340 s of 600', () => {
    expect(viewedSeconds(600, [{ at: 40, to: 100 }, { at: 150, to: 200 }, { at: 280, to: 350 }, { at: 420, to: 500 }])).toBe(340);
    expect(viewedSeconds(30, [{ at: 40, to: 100 }])).toBe(30);
  });
});

test('every shipped scenario loads and validates', () => {
  const dir = path.join(__dirname, '..', '..', 'testbed', 'scenarios');
  const names = require('node:fs').readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f));
  expect(names.length).toBeGreaterThanOrEqual(7);
  for (const f of names) {
    const { scenario } = loadScenario(path.join(dir, f));
    expect(expandMatrix(scenario).length).toBeGreaterThan(0);
  }
  expect(() => loadScenario('scenarios/does-not-exist')).toThrow(/no scenario file "scenarios\/does-not-exist"[\s\S]*shipped scenarios: .*scenarios\/smoke/);
});

test('a run directory resumes across a changed time limit, not across a changed experiment', () => {
  const fs = require('node:fs');
  const os = require('node:os');
  const { openRunDirectory } = require('../../testbed/runner/run-directory');
  const dir = makeLabTempDir('rundir');
  try {
    const s = validateScenario(base(), ctx);
    openRunDirectory(dir, s);
    const reference = { source: 'paper', entries: [{ transport: 'h2', network: 'lan', values: { rebufferSeconds: 1 } }] };
    openRunDirectory(dir, { ...s, timeoutSeconds: 900, description: 'longer', reference });
    const saved = JSON.parse(fs.readFileSync(path.join(dir, 'scenario.json'), 'utf8'));
    expect(saved.timeoutSeconds).toBe(900);
    // The paper's figures can be added to a run that is already under way: they change the report only.
    expect(saved.reference).toEqual(reference);
    expect(() => openRunDirectory(dir, { ...s, repetitions: 5 })).toThrow(/different scenario[\s\S]*repetitions changed/);
    fs.writeFileSync(path.join(dir, 'playbacks', 'x.json'), '{broken');
    expect(openRunDirectory(dir, s).read()).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'playbacks', 'x.json.corrupt'))).toBe(true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('reference: the paper\'s figures beside ours', () => {
  test('entries are checked against the scenario\'s labels and the metrics, all problems at once', () => {
    const problems = problemsOf({
      ...base(),
      reference: {
        entries: [
          { transport: 'h3', network: 'lan', rebufferSeconds: 1 },
          { transport: 'h2', abr: 'mpc', network: 'wan', rebufferMs: 3 },
          { transport: 'h2', network: 'lan', rebufferSeconds: '1.2 s' },
          { transport: 'http11', network: 'lan', rebufferInstances: 2 },
          { transport: 'http11', network: 'lan', rebufferSeconds: 2 },
        ],
      },
    });
    const text = problems.join('\n');
    expect(text).toMatch(/reference.source must say where the figures come from/);
    expect(text).toMatch(/entries\[0\].transport "h3" is not one of the scenario's transports \(http11, h2\)/);
    expect(text).toMatch(/entries\[1\].abr "mpc" is not one of the scenario's ABRs \(bba2\)/);
    expect(text).toMatch(/entries\[1\].network "wan" is not one of the scenario's networks \(lan\)/);
    expect(text).toMatch(/entries\[1\]: "rebufferMs" is not a metric/);
    expect(text).toMatch(/entries\[2\].rebufferSeconds must be a number/);
    expect(text).toMatch(/entries\[4\]: http11 on lan is given twice/);
    expect(problemsOf({ ...base(), reference: { source: 'x', entries: [] } }).join()).toMatch(/reference.entries must be a non-empty list/);
  });

  test('a valid reference is kept in the normal form; without one there is no key', () => {
    const s = validateScenario({ ...base(), reference: { source: 'paper 000 Table 3', entries: [{ transport: 'h2', network: 'lan', rebufferSeconds: 0.093, rebufferInstances: 2 }] } }, ctx);
    expect(s.reference).toEqual({ source: 'paper 000 Table 3', entries: [{ transport: 'h2', network: 'lan', values: { rebufferSeconds: 0.093, rebufferInstances: 2 } }] });
    expect('reference' in validateScenario(base(), ctx)).toBe(false);
  });

  test('an entry may name a switch schedule, which must be one of the scenario\'s', () => {
    const withSwitches = { ...base(), profiles: { lan: { rttMs: 20, rateMbps: 10 }, lte: { rttMs: 100, rateMbps: 2 } }, networks: ['lan'], switchSchedules: { away: [{ atSeconds: 5, network: 'lte' }] } };
    const s = validateScenario({ ...withSwitches, reference: { source: 'p', entries: [{ transport: 'h2', network: 'lan', switch: 'away', rebufferRate: 0.03 }] } }, ctx);
    expect(s.reference.entries).toEqual([{ transport: 'h2', network: 'lan', switch: 'away', values: { rebufferRate: 0.03 } }]);
    expect(problemsOf({ ...withSwitches, reference: { source: 'p', entries: [{ transport: 'h2', network: 'lan', switch: 'home', rebufferRate: 0 }] } }).join())
      .toMatch(/entries\[0\].switch "home" is not one of the scenario's switch schedules \(away\)/);
    expect(problemsOf({ ...base(), reference: { source: 'p', entries: [{ transport: 'h2', network: 'lan', switch: 'away', rebufferRate: 0 }] } }).join())
      .toMatch(/switch "away" is not one of the scenario's switch schedules \(it has none\)/);
  });

  test('paper 002\'s scenarios carry its TCP (http11) and QUIC (h3) figures: Tables 5-7 per ABR and network, Tables 8-9 per ABR and switch pattern', () => {
    const dir = path.join(__dirname, '..', '..', 'testbed', 'scenarios');
    const seek = loadScenario(path.join(dir, 'paper002-frameseek.yaml')).scenario.reference.entries;
    expect(seek).toHaveLength(18);
    expect(seek.find((e) => e.transport === 'http11' && e.abr === 'sara' && e.network === '3g').values).toEqual({ averageDownloadedBitrate: 2870000, meanSeekWaitSeconds: 2.42, rebufferRate: 0.06 });
    expect(seek.find((e) => e.transport === 'h3' && e.abr === 'bba2' && e.network === 'lte').values).toEqual({ averageDownloadedBitrate: 2750000, meanSeekWaitSeconds: 1.3, rebufferRate: 0.02 });
    const sw = loadScenario(path.join(dir, 'paper002-connswitch.yaml')).scenario.reference.entries;
    expect(sw).toHaveLength(12);
    expect(sw.find((e) => e.transport === 'http11' && e.abr === 'basic' && e.switch === 'wifi-3g').values).toEqual({ averageDownloadedBitrate: 2910000, rebufferRate: 0.13 });
    expect(sw.find((e) => e.transport === 'h3' && e.abr === 'basic' && e.switch === 'wifi-3g').values).toEqual({ averageDownloadedBitrate: 2950000, rebufferRate: 0.06 });
  });

  test('paper000-fdsp carries paper 000 Table 3 for every BP and TCP at every RTT', () => {
    const { scenario } = loadScenario(path.join(__dirname, '..', '..', 'testbed', 'scenarios', 'paper000-fdsp.yaml'));
    expect(scenario.reference.entries).toHaveLength(30);
    const tcp250 = scenario.reference.entries.find((e) => e.transport === 'http11' && e.network === 'rtt250');
    expect(tcp250.values).toEqual({ rebufferSecondsWithStartup: 14.497, rebufferInstancesWithStartup: 5 }); // the paper counts startup as instance 1
  });
});
