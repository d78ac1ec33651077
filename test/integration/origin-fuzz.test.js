'use strict';
// A seeded slice of `npm run fuzz` (testbed/fuzz/): every batch of hostile input against a
// real origin process on a generated content tree, with all of the fuzzer's assertions (no
// file from outside the content root, no undocumented 5xx, the origin alive and /healthz
// answered within 200 ms on another listener (a slow answer counts when the same cases slow it
// again on a second pass), descriptors back at the baseline after every
// batch, memory near the start). The same cases from the command line:
//   npm run fuzz -- --seed 20261123 --count paths=60 --count request-lines=60 --count ranges=20
//     --count h2=40 --count connections=1 --count signaling=1000 --count fdsp-frames=600
// Each batch includes its known regression cases whatever the seed (the é×90 signaling type,
// ten 60,000-space Ranges on one h2 connection, h2 connections left after a GOAWAY, unread
// pipelined GETs, half-open clients after a parser error, "http://[" and symlinks out of the
// root over the DataChannel, a 5,000-REQUEST flood, peers vanishing mid-response), so the
// slice fails on an origin without those fixes (checked against the origin before them, D1-D9
// in testbed/fuzz/README.md).
const { runFuzz } = require('../../testbed/fuzz/run-fuzz');
const { formatSummary } = require('../../testbed/fuzz/summary-table');

const SEED = 20261123;
const COUNTS = { paths: 60, 'request-lines': 60, ranges: 20, h2: 40, connections: 1, signaling: 1000, 'fdsp-frames': 600 };

test('the origin survives a seeded slice of every fuzz batch with all assertions holding', async () => {
  const result = await runFuzz({ seed: SEED, counts: COUNTS });
  const command = `npm run fuzz -- --seed ${SEED} ${Object.entries(COUNTS).map(([k, v]) => `--count ${k}=${v}`).join(' ')}`;
  // On failure the assertion shows the whole report: which batch, which case, what the origin did.
  expect(result.ok ? 'PASS' : formatSummary(result, { command })).toBe('PASS');
  // Every batch ran, and ran its cases (a batch that stopped early proves nothing).
  expect(result.batches.map((b) => b.name)).toEqual(Object.keys(COUNTS));
  for (const b of result.batches) expect(b.cases).toBeGreaterThanOrEqual(b.planned);
}, 240000);
