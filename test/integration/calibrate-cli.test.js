'use strict';
// npm run calibrate through the real emulator: a bulk TCP download per profile, its goodput
// near the link rate less the headers, the drops counted, the table printed. Needs root, which
// CI has; without it only the refusal is checked.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');
const { measureAgainIfOff } = require('../support/measure-again');

const REPO = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO, 'testbed', 'cli', 'calibrate.js');
const isRoot = process.getuid && process.getuid() === 0;
let tmp;
beforeAll(() => {
  tmp = makeLabTempDir('calibrate');
  fs.writeFileSync(path.join(tmp, 'cal.yaml'), [
    'content: sample', 'durationSeconds: 10', 'transports: [http11]', 'abrs: [basic]', 'profiles:',
    '  fast: { rttMs: 40, rateMbps: 8, queueMs: 80 }', '  lossy: { rttMs: 40, rateMbps: 8, lossPercent: 1 }', '  traced: { rttMs: 40, rate: { square: { lowMbps: 1, highMbps: 2, periodSeconds: 4 } } }',
  ].join('\n'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const run = (args) => spawnSync(process.execPath, [CLI, ...args], { cwd: REPO, encoding: 'utf8', timeout: 120000 });

test('bad options are refused with the reason, before any link exists', () => {
  const r = run([path.join(tmp, 'cal.yaml'), '--network', 'mars']);
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('--network: mars not among the scenario\'s profiles (fast, lossy, traced)');
  expect(run([path.join(tmp, 'cal.yaml'), '--seconds', '1']).stderr).toContain('--seconds must be a number from 5 to 300');
});

(isRoot ? test : test.skip)('a bulk download per profile: goodput near the rate less headers, drops by cause', async () => {
  // | profile | link | goodput | IP delivered | dropped | by cause |
  const row = (r, name) => (r.stdout.split('\n').find((l) => l.startsWith(`| ${name} |`)) || '').split('|').map((c) => c.trim());
  // A starved machine gives less goodput, never more: measured again if off (test/support/measure-again.js).
  const floor = 0.85 * 8 * 0.965; // Mbit/s: 85 % of 8 Mbit/s less headers, for the rule and the assertion
  const r = await measureAgainIfOff('calibrate fast', {
    measure: async () => run([path.join(tmp, 'cal.yaml'), '--network', 'fast,lossy', '--seconds', '5']),
    within: (x) => x.status === 0 && Number(row(x, 'fast')[3]) > floor,
    describe: (x) => `exit ${x.status}, fast: ${row(x, 'fast').slice(2, 5).join(' | ')}`,
  });
  expect(r.stderr).not.toMatch(/Error/);
  expect(r.status).toBe(0);
  const fast = row(r, 'fast');
  expect(Number(fast[3])).toBeGreaterThan(floor);
  expect(Number(fast[4])).toBeLessThanOrEqual(8 * 1.05);
  const lossy = row(r, 'lossy');
  expect(lossy[6]).toMatch(/loss \d+/);
  expect(Number(lossy[5].replace(' %', ''))).toBeGreaterThan(0.3);
  // A profile without a constant rate is refused by name.
  const traced = run([path.join(tmp, 'cal.yaml'), '--network', 'traced', '--seconds', '5']);
  expect(traced.status).toBe(1);
  expect(traced.stderr).toMatch(/profile traced: calibration needs a constant downlink rate \(rateMbps\), got a square/);
}, 300000);
