'use strict';
// The parallel transport's options (n_c, l_d, t_gap, the timeout bounds) from a page URL and a
// scenario file by one set of rules, its registry entry (the pool listener it talks to, its
// accounting columns), and what creating it refuses.
const { parseRunConfig, runConfigToSearch } = require('../../player/run-config');
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { expandMatrix } = require('../../testbed/scenario/expand-matrix');
const { transports, createTransport } = require('../../player/transports');
const { urlMessage, fileMessages, SCENARIO_CONTEXT: ctx, VALID_SCENARIO: base } = require('../support/run-option-refusals');

const POOL = 'http://127.0.0.1:8090/#ports=8090,8091';
const PAPER = { streams: 10, chunkBytes: 20480, gapMs: 350, timeoutMinMs: 1000, timeoutMaxMs: 3000, losingCopy: 'abort' };

test('the defaults are paper 001\'s; the URL carries the options and reads back the same', () => {
  const entry = transports.get('parallel');
  expect(entry.urlKey).toBe('http11pool');
  expect(Object.fromEntries(Object.entries(entry.options).map(([k, o]) => [k, o.default]))).toEqual(PAPER);
  const config = parseRunConfig('?transport=parallel&streams=12&chunkBytes=65536&gapMs=0&timeoutMinMs=500&timeoutMaxMs=4000&losingCopy=finish');
  expect(config).toMatchObject({ transport: 'parallel', streams: 12, chunkBytes: 65536, gapMs: 0, timeoutMinMs: 500, timeoutMaxMs: 4000, losingCopy: 'finish' });
  expect(parseRunConfig(runConfigToSearch({ ...config, autostart: true }))).toMatchObject({ streams: 12, chunkBytes: 65536, gapMs: 0, losingCopy: 'finish' });
  expect(parseRunConfig('?transport=parallel').streams).toBeUndefined();
});

test('bad values get the same sentence from a URL and from a scenario file', () => {
  const cases = [
    ['streams', '0', 'must be a whole number from 1 to 60, got "0"'],
    ['streams', '2.5', 'must be a whole number from 1 to 60, got "2.5"'],
    ['chunkBytes', '100', 'must be a whole number of bytes from 1024 to 4194304, got "100"'],
    ['gapMs', 'slow', 'must be a whole number of ms from 0 to 10000, got "slow"'],
    ['timeoutMaxMs', '99', 'must be a whole number of ms from 100 to 60000, got "99"'],
    ['losingCopy', 'keep', 'must be "abort", "finish", got "keep"'],
  ];
  for (const [key, value, sentence] of cases) {
    const { title } = transports.get('parallel').options[key];
    expect(urlMessage(`?transport=parallel&${key}=${value}`)).toBe(`${key} (${title}) ${sentence}`);
    expect(fileMessages({ transports: [{ name: 'parallel', [key]: value }] })).toEqual([`transports[0].${key} ${sentence}`]);
  }
  expect(fileMessages({ transports: [{ name: 'http11', gapMs: 0 }] })).toEqual(['transports[0].gapMs: only the parallel transport has an inter-request gap']);
});

test('a scenario names each variant by its options (the t_gap sweep of paper 001 Fig. 7)', () => {
  const s = validateScenario({ ...base, transports: ['http11', { name: 'parallel' }, { name: 'parallel', gapMs: 0 }, { name: 'parallel', gapMs: 700, streams: 12 }] }, ctx);
  const playbacks = expandMatrix(s);
  expect(playbacks.map((p) => p.transport)).toEqual(['http11', 'parallel', 'parallel-gapMs0', 'parallel-streams12-gapMs700']);
  expect(playbacks[2]).toMatchObject({ transportName: 'parallel', transportOptions: { gapMs: 0 } });
});

test('creating it: defaults filled in, streams spread over the pool ports, and what it refuses', () => {
  const t = createTransport('parallel', { http11pool: POOL }, {}, {});
  expect(t.baseUrls).toEqual(['http://127.0.0.1:8090', 'http://127.0.0.1:8091']);
  expect(t.streamsPerPort).toEqual([5, 5]);
  expect(transports.get('parallel').configFields(t)).toEqual({ ...PAPER, poolPorts: 2 });
  expect(t.stats()).toMatchObject({ ...PAPER, poolPorts: 2, streamsPerPort: [5, 5], requests: 0, timeoutMs: 2000 });
  expect(createTransport('parallel', { http11pool: POOL }, { streams: 3 }, {}).streamsPerPort).toEqual([2, 1]);
  expect(createTransport('parallel', { http11pool: POOL }, { losingCopy: 'finish' }, {}).scheduler.losingCopy).toBe('finish');
  // The origin's default pool (12 ports): a port, and so a connection, of its own for each stream.
  const twelve = `http://127.0.0.1:9000/#ports=${Array.from({ length: 12 }, (_, i) => 9000 + i).join(',')}`;
  expect(createTransport('parallel', { http11pool: twelve }, {}, {}).streamsPerPort).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
  // More streams than 6 per port: the origin needs more pool ports.
  expect(() => createTransport('parallel', { http11pool: POOL }, { streams: 13 }, {}))
    .toThrow('Parallel HTTP/1.1 streams: 13 streams need 3 HTTP/1.1 pool ports (a browser opens at most 6 connections per port); the origin has 2 (start it with --http11-pool-ports 3)');
  expect(() => createTransport('parallel', { http11pool: POOL }, { timeoutMinMs: 4000 }, {})).toThrow(/timeoutMinMs \(4000\) must not be above timeoutMaxMs \(3000\)/);
  expect(() => createTransport('parallel', { http11: 'http://127.0.0.1:8080' }, {}, {})).toThrow(/no urls\.http11pool/);
});

test('the results columns read the transport\'s totals, and only its', () => {
  const entry = transports.get('parallel');
  const record = { qoe: {}, summary: { transport: { streams: 10, requests: 120, reRequests: 3, timeouts: 2, duplicates: 3, overheadBytes: 72000, payloadBytes: 2400000 } } };
  expect(Object.fromEntries(entry.resultColumns.map((c) => [c.name, c.get(record)]))).toEqual({
    chunkRequests: 120, reRequests: 3, chunkTimeouts: 2, duplicateChunks: 3, requestOverheadRatio: 0.03,
  });
  // A throughput run has no QoE summary: its totals come with its throughput.
  const throughputRun = { summary: null, throughput: { transportStats: record.summary.transport } };
  expect(entry.resultColumns.map((c) => c.get(throughputRun))).toEqual([120, 3, 2, 3, 0.03]);
  expect(entry.resultColumns.map((c) => c.get({ summary: null, throughput: { transportStats: { requests: 2 } } }))).toEqual([null, null, null, null, null]);
  const fdsp = { summary: { transport: { plr: 0.01, lateChunks: 2 } } };
  expect(entry.resultColumns.map((c) => c.get(fdsp))).toEqual([null, null, null, null, null]);
  expect(entry.progressNote(record.summary)).toBe('3 re-requests');
  expect(entry.segmentNote({ chunks: 21, reRequests: 1 })).toBe(' (21 chunks, 1 re-requested)');
});
