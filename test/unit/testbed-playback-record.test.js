'use strict';
// The record a playback leaves in the run directory: its fields in order, what an "ok" and a
// "failed" playback add, and what a playback without the emulator leaves out.
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { expandMatrix } = require('../../testbed/scenario/expand-matrix');
const { describeProfile } = require('../../testbed/scenario/network-profile');
const { getPreset } = require('../../origin/content/presets');
const { playbackRecord, playerConfigFor } = require('../../testbed/runner/playback-record');

const scenario = validateScenario({
  name: 'rec', content: 'sample', durationSeconds: 20, transports: ['h2', { name: 'datachannel', label: 'fdsp-bp50', bp: 50 }],
  abrs: [{ name: 'basic', label: 'b', params: { switchUpFactor: 1.2 } }], profiles: { lan: { rttMs: 20, rateMbps: 10 } },
  seekSchedules: { one: '5:10' },
}, { source: 'rec.yaml', defaultName: 'rec', getPreset, readText: () => { throw new Error('no files here'); } });
const [h2, fdsp] = expandMatrix(scenario);

const startedAt = new Date('2026-01-02T03:04:05.000Z');
const endedAt = new Date('2026-01-02T03:04:35.500Z');
// Two media segments of 1 MB, each 1 s on the wire; the page's bodies were 2.1 MB in all.
const qoe = {
  summary: { startupDelaySeconds: 0.5, bytesPerTransport: { h2: 2.1e6 } },
  segments: [{ bytes: 1e6, requestStart: 1000, lastByte: 2000 }, { bytes: 1e6, requestStart: 2000, lastByte: 3000 }],
};
const played = {
  qoe, pageErrors: ['', 'TypeError: x'], console: Array.from({ length: 80 }, (_, i) => `warning: ${i}`),
  counters: { toClient: { bytesOut: 2.2e6, packetsIn: 1000, drops: { loss: 10 } }, toServer: { bytesOut: 1e5 } },
  endpointDrops: { client: {}, server: {} }, countersPageLoad: { toClient: { bytesOut: 9e5 } },
  switchLog: [], pageToLinkMs: 0, wireSeries: [[0, 0], [3000, 2.2e6]],
};
const requestLog = [
  { listener: 'h2', connectionId: 1, path: '/content/sample/manifest.mpd', status: 200, bytes: 900, protocol: 'h2' },
  { listener: 'h2', connectionId: 1, path: '/content/sample/chunk-0-00001.m4s', status: 200, bytes: 1e6, protocol: 'h2' },
];

test('the player gets the matrix cell as a run configuration; BP only for the transports that have it', () => {
  expect(playerConfigFor(scenario, h2)).toEqual({
    content: 'sample', transport: 'h2', abr: 'basic', abrParams: { switchUpFactor: 1.2 }, seeks: [{ at: 5, to: 10 }], stopAt: 20, keepBitrateOnSeek: false,
  });
  expect(playerConfigFor(scenario, fdsp)).toMatchObject({ transport: 'datachannel', bp: 50 });
});

test('an emulated playback that ran: what was asked, what was measured, the origin\'s side', () => {
  const playerConfig = playerConfigFor(scenario, h2);
  const code = { commit: 'abcdef0123456789abcdef0123456789abcdef01', dirty: false };
  const r = playbackRecord({ scenario, playback: h2, emulated: true, playerConfig, startedAt, endedAt, played, requestLog, code, contentDigest: '0123456789ab' });
  expect(Object.keys(r)).toEqual(['id', 'scenario', 'transport', 'transportName', 'bp', 'abr', 'abrName', 'abrParams', 'network',
    'networkDescription', 'profile', 'seekSchedule', 'switchSchedule', 'repetition', 'emulated', 'congestionControl', 'playerConfig',
    'startedAt', 'commit', 'commitDirty', 'contentDigest', 'status', 'error', 'summary', 'metrics', 'wireSeries', 'counters', 'endpointDrops', 'countersPageLoad', 'switchLog',
    'pageToLinkMs', 'tcp', 'pathCounters', 'pageErrors', 'console', 'qoe', 'wallSeconds', 'origin', 'requestLog']);
  expect([r.commit, r.commitDirty, r.contentDigest]).toEqual([code.commit, false, '0123456789ab']);
  expect(r).toMatchObject({
    id: 'h2.b.lan.one.r1', scenario: 'rec', transport: 'h2', transportName: 'h2', bp: null, abr: 'b', abrName: 'basic', network: 'lan',
    profile: h2.profile, emulated: true, congestionControl: 'cubic', playerConfig, startedAt: '2026-01-02T03:04:05.000Z',
    status: 'ok', error: null, summary: qoe.summary, counters: played.counters, qoe, wallSeconds: 30.5,
    origin: { requests: 2, segments: 1, bytes: 1000900 }, requestLog: 'logs/h2.b.lan.one.r1.requests.ndjson',
  });
  expect(r.networkDescription).toBe(describeProfile(h2.profile));
  // The testbed's own figures: 16 Mbit in 2 s against the link's 10 Mbit/s; bodies / wire bytes.
  expect(r.metrics.mediaThroughput).toBe(8e6);
  expect(r.metrics.linkUtilization).toBeCloseTo(0.8, 12);
  expect(r.metrics.overhead).toBeCloseTo(1 - 2.1 / 2.2, 12);
  expect(r.metrics.packetLossRatio).toBe(0.01);
  expect(r.pageErrors).toEqual(['TypeError: x']);
  expect(r.console).toHaveLength(50);
  expect(r.console[0]).toBe('warning: 0');
});

test('on loopback: no profile, no congestion control, no link figures', () => {
  const loop = { qoe, pageErrors: [], console: [], counters: null, switchLog: [], pageToLinkMs: 0 };
  const r = playbackRecord({ scenario, playback: fdsp, emulated: false, playerConfig: playerConfigFor(scenario, fdsp), startedAt, endedAt, played: loop, requestLog: [] });
  expect(r).toMatchObject({
    transport: 'fdsp-bp50', transportName: 'datachannel', bp: 50, networkDescription: 'loopback (no emulation)', profile: null, emulated: false,
    congestionControl: null, counters: null, wireSeries: null, endpointDrops: null, countersPageLoad: null,
    origin: { requests: 0, segments: 0, bytes: 0, connections: 0 },
  });
  expect(r.metrics).toMatchObject({ mediaThroughput: 8e6, linkUtilization: null, overhead: null, wireBytesDown: null });
});

test('a failed playback: its error, the page\'s state and the QoE so far, no results', () => {
  const error = Object.assign(new Error('the origin exited (SIGKILL) during the playback'), { diagnostics: { labState: 'running' }, partialQoe: { segments: [1] } });
  const r = playbackRecord({ scenario, playback: h2, emulated: true, playerConfig: playerConfigFor(scenario, h2), startedAt, endedAt, error, requestLog });
  expect(r).toMatchObject({ status: 'failed', error: error.message, diagnostics: error.diagnostics, partialQoe: error.partialQoe, wallSeconds: 30.5, origin: { requests: 2 } });
  for (const k of ['summary', 'metrics', 'qoe', 'counters']) expect(r).not.toHaveProperty(k);
  const bare = playbackRecord({ scenario, playback: h2, emulated: true, playerConfig: {}, startedAt, endedAt, error: new Error('Timeout'), requestLog: [] });
  expect(bare).not.toHaveProperty('diagnostics');
  expect(bare).not.toHaveProperty('partialQoe');
  expect(() => playbackRecord({ scenario, playback: h2, emulated: true, playerConfig: {}, startedAt, endedAt, played, error, requestLog })).toThrow(/exactly one of played and error/);
});
