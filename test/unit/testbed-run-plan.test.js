'use strict';
// Planning a session of the runner: the matrix narrowed by --only, minus what a resumed run
// directory already holds as "ok"; and how the session's playbacks stand afterwards.
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { getPreset } = require('../../origin/content/presets');
const { selectPlaybacks, remainingPlaybacks, tallyPlaybacks, parseOnly, parseShard, shardOf } = require('../../testbed/runner/run-plan');

const scenario = validateScenario({
  content: 'sample', durationSeconds: 20, repetitions: 2, transports: ['http11', 'h2'], abrs: ['bba2', 'basic'],
  profiles: { lan: { rttMs: 20, rateMbps: 10 } },
}, { source: 'plan.yaml', defaultName: 'plan', getPreset, readText: () => { throw new Error('no files here'); } });
const ids = (list) => list.map((p) => p.id);

test('--only keeps the matching playbacks of the matrix, which stays whole for results.csv', () => {
  const { all, playbacks } = selectPlaybacks(scenario, 'abr=basic,repetition=2');
  expect(all).toHaveLength(8);
  expect(ids(playbacks)).toEqual(['http11.basic.lan.r2', 'h2.basic.lan.r2']);
  expect(selectPlaybacks(scenario, undefined).playbacks).toHaveLength(8);
  expect(() => selectPlaybacks(scenario, 'transport=http3')).toThrow('--only "transport=http3" matches none of the scenario\'s 8 playbacks');
  expect(() => parseOnly('transport:h2')).toThrow('--only "transport:h2" is not KEY=VALUE with KEY one of transport, abr, network, seek, switch, repetition, id');
});

test('resume: "ok" records are skipped, failed ones and missing ones are played, records outside the plan are ignored', () => {
  const { playbacks } = selectPlaybacks(scenario, 'repetition=1');
  const previous = [
    { id: 'http11.bba2.lan.r1', status: 'ok' },
    { id: 'h2.bba2.lan.r1', status: 'failed' },
    { id: 'http11.basic.lan.r2', status: 'ok' }, // outside --only
    { id: 'gone.from.the.scenario', status: 'ok' },
  ];
  const { todo, skipped, expectedSeconds } = remainingPlaybacks(playbacks, previous);
  expect(ids(todo)).toEqual(['h2.bba2.lan.r1', 'http11.basic.lan.r1', 'h2.basic.lan.r1']);
  expect(skipped).toBe(1);
  // 20 s viewed + 10 s of page load and browser start per playback (expand-matrix.js).
  expect(expectedSeconds).toBe(3 * 30);
  expect(remainingPlaybacks(playbacks, [])).toMatchObject({ skipped: 0, expectedSeconds: 4 * 30 });
  expect(remainingPlaybacks(playbacks, playbacks.map((p) => ({ id: p.id, status: 'ok' })))).toEqual({ todo: [], skipped: 4, expectedSeconds: 0 });
});

test('the tally counts only the session\'s playbacks; anything not "ok" is failed', () => {
  const { playbacks } = selectPlaybacks(scenario, 'transport=h2,repetition=1');
  const records = [
    { id: 'h2.bba2.lan.r1', status: 'ok' },
    { id: 'h2.basic.lan.r1', status: 'failed' },
    { id: 'http11.bba2.lan.r1', status: 'failed' }, // another session's
  ];
  expect(tallyPlaybacks(playbacks, records)).toEqual({ ok: 1, failed: 1 });
  expect(tallyPlaybacks(playbacks, [])).toEqual({ ok: 0, failed: 0 });
});

test('--shard I/N: contiguous slices of the (filtered) matrix that cover it once, sizes within one', () => {
  expect(parseShard(undefined)).toBeNull();
  expect(parseShard(' 2 / 3 ')).toEqual({ index: 2, count: 3 });
  for (const bad of ['0/2', '3/2', '1/0', '1', 'a/b', '1/2/3']) expect(() => parseShard(bad)).toThrow(`--shard "${bad}" is not I/N with 1 <= I <= N`);
  // Repetition outermost: two shards of two repetitions each play one repetition of every cell.
  const all = selectPlaybacks(scenario).playbacks;
  const halves = [1, 2].map((index) => ids(selectPlaybacks(scenario, undefined, { index, count: 2 }).playbacks));
  expect(halves[0]).toEqual(ids(all.filter((p) => p.repetition === 1)));
  expect(halves[1]).toEqual(ids(all.filter((p) => p.repetition === 2)));
  // 8 over 3: 2, 3, 3, in order, each playback once.
  const thirds = [1, 2, 3].map((index) => shardOf(all, { index, count: 3 }));
  expect(thirds.map((t) => t.length)).toEqual([2, 3, 3]);
  expect(ids(thirds.flat())).toEqual(ids(all));
  // After --only; more shards than playbacks leaves some empty, which is said.
  expect(ids(selectPlaybacks(scenario, 'abr=basic,repetition=2', { index: 2, count: 2 }).playbacks)).toEqual(['h2.basic.lan.r2']);
  expect(() => selectPlaybacks(scenario, 'abr=basic,repetition=2', { index: 1, count: 3 })).toThrow('--shard 1/3 is empty: only 2 playback(s) to share among 3 shards');
});
