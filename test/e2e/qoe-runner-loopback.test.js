'use strict';
// The QoE runner without the emulator (--no-emulation, no root needed): a playback in real
// Chromium recorded with the report saying there was no emulation, and a playback that fails
// (its time limit is too short) recorded with its error while the run goes on.
const fs = require('node:fs');
const path = require('node:path');
const { ensureContent } = require('../../origin/content/ensure-content');
const { runQoeCli } = require('../support/qoe-cli');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
let tmp;

function scenario(name, extra) {
  const file = path.join(tmp, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify({
    content: 'sample', durationSeconds: 8, transports: ['http11'], abrs: ['bba2'], profiles: { lan: { rttMs: 20 } }, ...extra,
  }));
  return file;
}

beforeAll(async () => {
  await ensureContent({ preset: 'sample', contentDir: path.join(REPO, 'content') });
  tmp = makeLabTempDir('qoe-loop');
}, 300000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('--no-emulation: plays on loopback, records it, and the report says the network was not emulated', async () => {
  const out = path.join(tmp, 'run-ok');
  const r = await runQoeCli([scenario('loop', {}), '--no-emulation', '--out', out]);
  expect(r.err).toMatch(/WITHOUT network emulation/);
  expect(r.code).toBe(0);
  const rec = JSON.parse(fs.readFileSync(path.join(out, 'playbacks', 'http11.bba2.lan.r1.json'), 'utf8'));
  expect(rec).toMatchObject({ status: 'ok', emulated: false, networkDescription: 'loopback (no emulation)', counters: null });
  expect(rec.qoe.summary.playSeconds).toBeGreaterThan(5);
  expect(rec.metrics.overhead).toBeNull(); // no emulator, no wire bytes: not a made-up zero
  expect(rec.origin.segments).toBeGreaterThanOrEqual(rec.qoe.segments.length);
  expect(fs.readFileSync(path.join(out, 'report.html'), 'utf8')).toMatch(/WITHOUT network emulation/);
}, 120000);

test('a playback that fails is recorded with its error and the run goes on', async () => {
  const out = path.join(tmp, 'run-fail');
  // 1 s is not enough for any playback: both repetitions fail, the second still runs.
  const r = await runQoeCli([scenario('tooshort', { timeoutSeconds: 1, repetitions: 2 }), '--no-emulation', '--out', out]);
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/\[1\/2\][^\n]*FAILED/);
  expect(r.err).toMatch(/\[2\/2\][^\n]*FAILED/);
  expect(r.err).toMatch(/0 ok, 2 failed of 2/);
  const csv = fs.readFileSync(path.join(out, 'results.csv'), 'utf8').trim().split('\n');
  expect(csv).toHaveLength(3);
  expect(csv[1]).toMatch(/,failed,/);
  // The record says where the page was when time ran out, and the progress line too.
  const rec = JSON.parse(fs.readFileSync(path.join(out, 'playbacks', 'http11.bba2.lan.r1.json'), 'utf8'));
  expect(rec.error).toMatch(/Timeout 1000ms exceeded/);
  expect(['starting', 'running']).toContain(rec.diagnostics.labState);
  expect(rec.diagnostics.video.currentTime).toBeGreaterThanOrEqual(0);
  expect(Array.isArray(rec.diagnostics.video.buffered)).toBe(true);
  expect(r.err).toMatch(/\[1\/2\][^\n]*FAILED: [^\n]*\(page (starting|running): media time \d+\.\d s/);
  expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/## Failed playbacks/);
}, 120000);

test('bad scenarios and options are refused before anything runs', async () => {
  const bad = path.join(tmp, 'bad.yaml');
  fs.writeFileSync(bad, 'content: sample\ntransports: [http3]\nabrs: [bba2]\nprofiles: { lan: { rttMs: -1 } }\n');
  const r = await runQoeCli([bad, '--no-emulation', '--out', path.join(tmp, 'never')]);
  expect(r.code).toBe(2);
  expect(r.err).toMatch(/transports\[0\] "http3" is not a transport/);
  expect(r.err).toMatch(/profiles\.lan\.rttMs must be a number >= 0/);
  expect(fs.existsSync(path.join(tmp, 'never'))).toBe(false);
  const only = await runQoeCli([scenario('x', {}), '--only', 'colour=red']);
  expect(only.code).toBe(2);
  expect(only.err).toMatch(/--only "colour=red" is not KEY=VALUE/);
  const limit = await runQoeCli([scenario('x', {}), '--no-emulation', '--late-limit', 'soon', '--out', path.join(tmp, 'never')]);
  expect(limit.code).toBe(2);
  expect(limit.err).toMatch(/--late-limit: give milliseconds above 0, or off \(got "soon"\)/);
  const retries = await runQoeCli([scenario('x', {}), '--no-emulation', '--late-retries', '1.5', '--out', path.join(tmp, 'never')]);
  expect(retries.code).toBe(2);
  expect(retries.err).toMatch(/--late-retries: give a whole number of 0 or more/);
  expect(fs.existsSync(path.join(tmp, 'never'))).toBe(false);
}, 60000);

test('a throughput scenario (paper 001) fetches the byte source over HTTP/1.1 and the parallel streams and records in-order throughput per window', async () => {
  const out = path.join(tmp, 'run-throughput');
  const file = path.join(tmp, 'tp.json');
  fs.writeFileSync(file, JSON.stringify({
    throughput: { seconds: 8, sampleSeconds: 2, requestMiB: 1 },
    transports: ['http11', { name: 'parallel', label: 'par4', streams: 4, chunkBytes: 65536, gapMs: 0 }],
    profiles: { lan: { rttMs: 20 } },
  }));
  const r = await runQoeCli([file, '--no-emulation', '--out', out]);
  expect(r.code).toBe(0);
  expect(r.err).toMatch(/\[1\/2\] http11\.lan\.r1 ok in-order [\d.]+ Mbit\/s/);
  for (const id of ['http11.lan.r1', 'par4.lan.r1']) {
    const rec = JSON.parse(fs.readFileSync(path.join(out, 'playbacks', `${id}.json`), 'utf8'));
    expect(rec).toMatchObject({ status: 'ok', kind: 'throughput', emulated: false });
    const t = rec.throughput;
    // Several 1 MiB ranges in 8 s on loopback, every byte in order; 4 whole 2 s windows.
    expect(t.bytes).toBeGreaterThan(2 * 1024 * 1024);
    expect(t.windows).toHaveLength(4);
    expect(t.inOrderThroughput).toBeGreaterThan(0);
    expect(t.inOrderThroughput).toBeCloseTo((8 * t.bytes) / t.seconds, -3);
    expect(t.protocols).toEqual(['http/1.1']);
    expect(rec.metrics.overhead).toBeNull(); // no emulator: no wire bytes
  }
  const par = JSON.parse(fs.readFileSync(path.join(out, 'playbacks', 'par4.lan.r1.json'), 'utf8'));
  expect(par.throughput.transportStats).toMatchObject({ streams: 4, chunkBytes: 65536, gapMs: 0 });
  expect(par.throughput.transportStats.requests).toBeGreaterThan(32); // 64 KiB chunks of 2+ MiB
  expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/## In-order throughput/);
}, 180000);

test('two shards of one scenario run apart and merge into one report (npm run report -- --merge)', async () => {
  // 2 transports x 2 repetitions = 4 playbacks; shard 1/2 plays repetition 1, shard 2/2 repetition 2.
  const file = scenario('sharded', { durationSeconds: 4, transports: ['http11', 'h2'], repetitions: 2 });
  const dirs = [path.join(tmp, 'shard1'), path.join(tmp, 'shard2')];
  for (const [i, out] of dirs.entries()) {
    const r = await runQoeCli([file, '--no-emulation', '--shard', `${i + 1}/2`, '--out', out, '--no-report']);
    expect(r.err).toMatch(new RegExp(`sharded shard ${i + 1}/2: 2 playbacks`));
    expect(r.code).toBe(0);
    expect(fs.readdirSync(path.join(out, 'playbacks')).sort()).toEqual([`h2.bba2.lan.r${i + 1}.json`, `http11.bba2.lan.r${i + 1}.json`]);
  }
  const merged = path.join(tmp, 'merged');
  const { spawnSync } = require('node:child_process');
  const m = spawnSync(process.execPath, [path.join(REPO, 'testbed', 'cli', 'report.js'), '--merge', ...dirs, '--out', merged], { cwd: REPO, encoding: 'utf8' });
  expect(m.stderr).toMatch(/merged 4 playbacks into .*merged \(2 from .*shard1, 2 from .*shard2\)/);
  expect(m.status).toBe(0);
  const csv = fs.readFileSync(path.join(merged, 'results.csv'), 'utf8').trim().split('\n');
  expect(csv.slice(1).map((l) => l.split(',')[0])).toEqual(['http11.bba2.lan.r1', 'h2.bba2.lan.r1', 'http11.bba2.lan.r2', 'h2.bba2.lan.r2']);
  // Each playback records the commit it ran on; the merged report rests on n=2 per cell.
  expect(csv[0].split(',')).toContain('commit');
  expect(csv[1]).toMatch(/,[0-9a-f]{40}\+?$/);
  const md = fs.readFileSync(path.join(merged, 'report.md'), 'utf8');
  expect(md).toMatch(/## Startup delay \(s\)\n\n\| network \\ transport \/ abr \| http11 \/ bba2 \| h2 \/ bba2 \|\n\| --- \| --- \| --- \|\n\| lan \| [\d.]+ ± [\d.]+ \([\d.]+-[\d.]+, n=2\) \| [\d.]+ ± [\d.]+ \([\d.]+-[\d.]+, n=2\) \|/);
  // Running the same shard twice into the same place adds nothing; merging a shard with itself is refused.
  const again = spawnSync(process.execPath, [path.join(REPO, 'testbed', 'cli', 'report.js'), '--merge', dirs[0], dirs[0], '--out', path.join(tmp, 'twice')], { cwd: REPO, encoding: 'utf8' });
  expect(again.status).toBe(1);
  expect(again.stderr).toMatch(/ran ok in both .* the shards overlap/);
}, 240000);
