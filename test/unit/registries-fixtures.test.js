'use strict';
// A new transport or ABR is one file plus one register() call: the throw-away fixtures
// (test/fixtures/throwaway-transport.js, throwaway-abr.js) appear in URL parsing, scenario
// validation, the matrix, the page's choices, the page's QoE table, results.csv and the report
// with no other edit. Each check is made before registering too, so it shows the registration,
// not a list somewhere else, is what makes the name known.
const { transports, createTransport } = require('../../player/transports');
const { abrs, ALGORITHMS } = require('../../player/abr');
const { parseRunConfig, runConfigToSearch } = require('../../player/run-config');
const { formChoices } = require('../../player/ui/form-choices');
const { qoeSummaryRows } = require('../../player/ui/summary-rows');
const { validateScenario, ScenarioError } = require('../../testbed/scenario/validate-scenario');
const { expandMatrix } = require('../../testbed/scenario/expand-matrix');
const { resultColumns, toCsv } = require('../../testbed/runner/results-table');
const { aggregate, reportMetrics } = require('../../testbed/report/aggregate');
const { getPreset } = require('../../origin/content/presets');

const pigeon = require('../fixtures/throwaway-transport');
const steady = require('../fixtures/throwaway-abr');

const ctx = { source: 'fixture.yaml', defaultName: 'fixture', getPreset };
const scenario = (over) => ({ content: 'sample', transports: ['http11'], abrs: ['bba2'], profiles: { lan: { rttMs: 20, rateMbps: 10 } }, ...over });
function problemsOf(raw) {
  try {
    validateScenario(raw, ctx);
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError);
    return err.problems.join('\n');
  }
  throw new Error('expected the scenario to be refused');
}
const summary = (transport) => ({
  state: 'ended', startupDelaySeconds: 1, playSeconds: 10, rebufferInstances: 0, rebufferSeconds: 0, rebufferRate: 0, seeks: [], meanSeekWaitSeconds: null,
  averagePlaybackBitrate: 1e6, averageDownloadedBitrate: 1e6, switchCount: 0, switchMagnitudeMean: 0, decodedFrames: 300, droppedFrames: 0,
  bytesPerTransport: {}, protocols: {}, errors: 0, transport,
});

afterEach(() => {
  transports.unregister('pigeon');
  abrs.unregister('steady');
});

test('unregistered, the fixtures are unknown everywhere', () => {
  expect(() => parseRunConfig('?transport=pigeon')).toThrow(/transport "pigeon" is not a transport \(http11, http10, h2, datachannel, h3, webtransport, parallel\)/);
  expect(() => parseRunConfig('?abr=steady')).toThrow(/abr "steady" is not an ABR \(dashjs, basic, sara, bba2, fixed\)/);
  const text = problemsOf(scenario({ transports: [{ name: 'pigeon', wings: 3 }], abrs: ['steady'] }));
  expect(text).toMatch(/transports\[0\]\.name "pigeon" is not a transport/);
  expect(text).toMatch(/abrs\[0\]\.name "steady" is not an ABR/);
  expect(formChoices().transports.map((t) => t.value)).toEqual(['http11', 'http10', 'h2', 'datachannel', 'h3', 'webtransport', 'parallel']);
  expect(formChoices().abrs.map((a) => a.value)).toEqual(['dashjs', 'basic', 'sara', 'bba2', 'fixed']);
  expect(resultColumns().map((c) => c.name)).not.toContain('wings');
  expect(resultColumns().map((c) => c.name)).not.toContain('feathersLost');
  expect(() => createTransport('pigeon', { http11: 'http://127.0.0.1:1/' })).toThrow(/unknown transport "pigeon"/);
});

test('registered, a throw-away transport and ABR appear in URL parsing, with their options checked by their own rules', () => {
  transports.register(pigeon);
  abrs.register(steady);
  const config = parseRunConfig('?transport=pigeon&wings=3&abr=steady&params={"rung":1}&autostart=1');
  expect(config).toMatchObject({ transport: 'pigeon', wings: 3, abr: 'steady', abrParams: { rung: 1 } });
  expect(parseRunConfig(runConfigToSearch(config))).toEqual(config);
  expect(() => parseRunConfig('?transport=pigeon&wings=9')).toThrow(/wings \(wings per pigeon\) must be a whole number 1-4, got "9"/);
  expect(() => parseRunConfig('?abr=steady&params={"rungs":1}')).toThrow(/params: steady has no parameter "rungs"/);
  // The lab's algorithms (those that decide) include it too.
  expect(ALGORITHMS.steady.decide).toBe(steady.decide);
});

test('registered, they pass scenario validation and the matrix, with their options in the normal form and each playback', () => {
  transports.register(pigeon);
  abrs.register(steady);
  const s = validateScenario(scenario({ transports: ['http11', { name: 'pigeon', wings: 3 }, { name: 'pigeon', label: 'bird', wings: '1' }], abrs: [{ name: 'steady', params: { rung: 0 } }] }), ctx);
  expect(s.transports).toEqual(['http11', { name: 'pigeon', label: 'pigeon-wings3', wings: 3 }, { name: 'pigeon', label: 'bird', wings: 1 }]);
  const plan = expandMatrix(s);
  expect(plan.map((p) => [p.id, p.transportName, p.wings, p.transportOptions])).toEqual([
    ['http11.steady.lan.r1', 'http11', null, {}],
    ['pigeon-wings3.steady.lan.r1', 'pigeon', 3, { wings: 3 }],
    ['bird.steady.lan.r1', 'pigeon', 1, { wings: 1 }],
  ]);
  const text = problemsOf(scenario({ transports: [{ name: 'pigeon', wings: 0 }, { name: 'h2', wings: 2 }, { name: 'datachannel', wings: 2, bp: 5 }], abrs: [{ name: 'steady', params: { rung: -1 } }] }));
  expect(text).toMatch(/transports\[0\]\.wings must be a whole number 1-4, got 0/);
  expect(text).toMatch(/transports\[1\]\.wings: only the pigeon transport has wings/);
  expect(text).toMatch(/transports\[2\]\.wings: only the pigeon transport has wings/);
  expect(text).toMatch(/abrs\[0\]\.params: steady parameter rung must be >= 0, got -1/);
});

test('registered, they are in the page\'s choices and its QoE table', () => {
  transports.register(pigeon);
  abrs.register(steady);
  const choices = formChoices();
  expect(choices.transports.find((t) => t.value === 'pigeon')).toEqual({
    value: 'pigeon', label: 'Pigeon (HTTP/1.1 by bird)',
    options: [{ key: 'wings', title: 'wings per pigeon', help: 'how many requests one pigeon carries at once, 1-4 (default 2)', default: 2, control: 'text' }],
  });
  expect(choices.abrs.find((a) => a.value === 'steady')).toEqual({ value: 'steady', label: 'Steady (test fixture)', defaults: steady.defaults });
  const rows = qoeSummaryRows({ config: { transport: 'pigeon' }, summary: summary({ feathersLost: 7 }), segments: [] });
  expect(rows[rows.length - 1]).toEqual(['pigeon: feathers lost', '7']);
  // And the page creates it from the origin's listener URLs, options defaulted.
  const t = createTransport('pigeon', { http11: 'http://127.0.0.1:8080/' });
  expect([t.name, t.wings]).toEqual(['pigeon', 2]);
});

test('registered, its option and result column are in results.csv and its metric in the report', () => {
  transports.register(pigeon);
  const names = resultColumns().map((c) => c.name);
  expect(names.slice(0, 19)).toEqual(['id', 'transport', 'bp', 'mode', 'pace', 'window', 'associations', 'receiveBuffer', 'carrier', 'cc', 'fixedMargin', 'streams', 'chunkBytes', 'gapMs', 'timeoutMinMs', 'timeoutMaxMs', 'losingCopy', 'wings', 'abr']);
  expect(names.indexOf('feathersLost')).toBe(names.indexOf('requestOverheadRatio') + 1);
  const record = (id, transport, feathersLost) => ({
    id, transport, transportName: transport, transportOptions: transport === 'pigeon' ? { wings: 3 } : {}, abr: 'bba2', network: 'lan', seekSchedule: 'none', switchSchedule: 'none',
    repetition: 1, status: 'ok', summary: summary(transport === 'pigeon' ? { feathersLost } : null), metrics: {},
  });
  const csv = toCsv([record('a', 'pigeon', 4), record('b', 'http11')]).split('\n');
  const header = csv[0].split(',');
  const a = csv[1].split(',');
  expect([a[header.indexOf('wings')], a[header.indexOf('feathersLost')]]).toEqual(['3', '4']);
  expect(reportMetrics().find((m) => m.key === 'feathersLost')).toMatchObject({ label: 'Feathers lost (pigeon)', bar: true });
  const groups = aggregate([record('a', 'pigeon', 4), record('c', 'pigeon', 6)]);
  expect(groups[0].metrics.feathersLost).toEqual({ n: 2, mean: 5, min: 4, max: 6, ci95: 12.706 }); // sd 1.414, t(1) 12.706, / sqrt(2)
});

test('the registries refuse what would make a name or a column mean two things', () => {
  transports.register(pigeon);
  expect(() => transports.register(pigeon)).toThrow(/transport "pigeon" is registered twice/);
  expect(() => transports.register({ ...pigeon, name: 'pigeon2', options: { wings: { ...pigeon.options.wings, parse: () => 1 } } })).toThrow(/option "wings" is already defined differently by transport "pigeon"/);
  expect(() => transports.register({ ...pigeon, name: 'pigeon3', options: { seeks: pigeon.options.wings } })).toThrow(/option name "seeks" is taken by the run itself/);
  expect(() => transports.register({ ...pigeon, name: 'Pigeon' })).toThrow(/lower-case letters/);
  expect(() => abrs.register({ ...steady, name: 'steady2', bufferCeilingSeconds: undefined })).toThrow(/needs bufferCeilingSeconds/);
  expect(() => abrs.register({ name: 'rules', label: 'x', defaults: {}, decide: null, onSeek: () => null })).toThrow(/onSeek needs a decide function/);
});
