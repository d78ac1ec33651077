'use strict';
// The fuzzer's rule for a slow /healthz answer (testbed/fuzz/run-fuzz.js): the batch runs again
// with the same cases, and the slow answer fails the batch only if the second pass has one too;
// anything else either pass finds is a failure whatever the other did.
const { judgeSlowHealthz } = require('../../testbed/fuzz/run-fuzz');
const { BatchRecord } = require('../../testbed/fuzz/batch-record');

const SLOW = '/healthz on http11 took up to 215 ms during the batch, not counting waits for a CPU (limit 200 ms; 1 of 153 polls over it)';

function pass({ slow = null, failures = [], maxOwnMs = 40 } = {}) {
  const rec = new BatchRecord('h2', []);
  rec.cases = 40;
  rec.healthz = { polls: 150, maxMs: maxOwnMs, maxOwnMs, slow: slow ? 1 : 0, busy: 0, errors: 0 };
  rec.slowHealthz = slow;
  for (const f of failures) rec.fail(f, { important: true });
  return rec;
}

async function judge(first, second, { alive = true } = {}) {
  let runs = 0;
  const lines = [];
  await judgeSlowHealthz(first, async () => {
    runs += 1;
    return second;
  }, { alive: () => alive, progress: (l) => lines.push(l) });
  return { runs, lines };
}

test('a slow answer the second pass does not repeat is a note, not a failure', async () => {
  const first = pass({ slow: SLOW });
  const { runs, lines } = await judge(first, pass({ maxOwnMs: 61 }));
  expect(runs).toBe(1);
  expect(lines[0]).toMatch(/215 ms.*running the same cases again/);
  expect(first.ok).toBe(true);
  expect(first.notes).toEqual([expect.stringMatching(/215 ms .*but not when the same 40 cases ran again \(slowest 61 ms\)/)]);
});

test('a slow answer the second pass repeats fails the batch, with both figures', async () => {
  const first = pass({ slow: SLOW });
  await judge(first, pass({ slow: SLOW.replace('215', '5349') }));
  expect(first.ok).toBe(false);
  expect(first.failures).toEqual([expect.stringMatching(/up to 215 ms .*; the same cases again: took up to 5349 ms/)]);
  expect(first.notes).toEqual([]);
});

test('what the second pass finds besides is a failure too', async () => {
  const first = pass({ slow: SLOW });
  await judge(first, pass({ failures: ['the origin died during the batch (exit code null, signal SIGSEGV)'] }));
  expect(first.ok).toBe(false);
  expect(first.failures).toEqual(['on a second pass of the same cases: the origin died during the batch (exit code null, signal SIGSEGV)']);
});

test('a batch that failed otherwise, or killed the origin, is not run again: the slow answer counts', async () => {
  const failed = pass({ slow: SLOW, failures: ['500 for GET /content/x'] });
  expect((await judge(failed, pass())).runs).toBe(0);
  expect(failed.failures).toEqual(['500 for GET /content/x', SLOW]);

  const dead = pass({ slow: SLOW });
  expect((await judge(dead, pass(), { alive: false })).runs).toBe(0);
  expect(dead.failures).toEqual([SLOW]);
});
