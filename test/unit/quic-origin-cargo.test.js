'use strict';
// The QUIC carrier's own unit tests (origin/quic/src: argument and URL parsing, the
// congestion-controller choice and switch, the fixed-rate window, pacing arithmetic, the
// bridge codec, datagram sizes) are Rust tests: this runs them, so `npm test` covers them.
// The release profile is the one scripts/setup.sh already built, so only the test harness
// compiles here.
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const CRATE = path.resolve(__dirname, '..', '..', 'origin', 'quic');

test('cargo test passes for origin/quic (quic-origin)', () => {
  const run = spawnSync('cargo', ['test', '--release', '--locked', '--quiet'], { cwd: CRATE, encoding: 'utf8', timeout: 600000 });
  if (run.error) throw new Error(`cannot run cargo (Rust is needed for the QUIC server; scripts/setup.sh says how to get it): ${run.error.message}`);
  const out = `${run.stdout}\n${run.stderr}`;
  if (run.status !== 0) throw new Error(`cargo test failed (exit ${run.status}):\n${out.slice(-4000)}`);
  const results = [...out.matchAll(/test result: ok\. (\d+) passed; (\d+) failed/g)].map((m) => Number(m[1]));
  // A run that compiled no tests would also exit 0.
  expect(results.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(10);
}, 660000);
