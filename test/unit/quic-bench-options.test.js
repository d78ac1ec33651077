'use strict';
// bench:quic's options: --clean and what goes with it are checked before anything starts (no
// root, no browser), by the transport's own option rules, and every problem is said at once.
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const BENCH = path.join(__dirname, '..', '..', 'testbed', 'bench', 'quic-bench.js');
const bench = (...args) => spawnSync(process.execPath, [BENCH, ...args], { encoding: 'utf8', timeout: 30000 });

test('--help names the clean-link mode and its options', () => {
  const r = bench('--help');
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/--clean N \[--stop SECONDS\] \[--carrier LIST\] \[--pace LIST\] \[--where LIST\]/);
});

test('the clean-link options without --clean, and goodput options with it, are refused with the usage', () => {
  const without = bench('--pace', '1.5', '--where', 'loopback');
  expect(without.status).toBe(2);
  expect(without.stderr).toMatch(/^bench:quic: --pace, --where: only with --clean\n\nUsage:/);
  const mixed = bench('--clean', '2', '--rate', '5');
  expect(mixed.status).toBe(2);
  expect(mixed.stderr).toMatch(/--rate: not with --clean/);
});

test('bad values get the transport options\' own sentences, all of them, before any playback', () => {
  const r = bench('--clean', '2', '--carrier', 'single,both', '--pace', '0.1', '--where', 'loopback,30');
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('--carrier "both" must be "single", "split", got "both"');
  expect(r.stderr).toContain('--pace "0.1" must be "off" or a margin from 0.5 to 10 (x the highest bitrate), got "0.1"');
  expect(r.stderr).toContain('--where: "30" is not a setting (loopback, 20, 100)');
  expect(bench('--clean', '0').stderr).toMatch(/--clean needs a number of playbacks >= 1, got "0"/);
  expect(bench('--clean', '2', '--stop', '3').stderr).toMatch(/--stop must be a number of seconds >= 5, got "3"/);
});
