'use strict';
// A preset gives the same bytes on every build and every machine (origin/content/synthetic-source.js):
// a run resumed after a rebuild, or sharded over machines, must not compare different contents.
// Two builds here must be byte-identical, past the first gradients scene (18 s in, whose default
// "random" colors once made every build differ; x264's frame threads with VBV did too); and a
// build must not depend on the CPU's SIMD: one made with ffmpeg's and x264's C code alone
// (-cpuflags 0, no-asm), standing in for another machine, must give the same bytes. Nor may it
// depend on how many ffmpeg processes shared the ladder (origin/content/parallel-encode.js): the
// first build is one process, the second two, each encoding one rung and renumbering it.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');
const { ensureContent } = require('../../origin/content/ensure-content');
const { dashEncodeArgs, runFfmpeg } = require('../../origin/content/encode-dash');
const { getPreset } = require('../../origin/content/presets');
const { syntheticSourceGraph } = require('../../origin/content/synthetic-source');
const { contentBuildDigest } = require('../../origin/content/content-build-digest');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const SMALL_LADDER = [
  { bitrateKbps: 200, width: 256, height: 144 },
  { bitrateKbps: 500, width: 384, height: 216 },
];

let dir;
beforeAll(() => {
  dir = makeLabTempDir('reproducible');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** sha256 of every media file of a build, by name. */
function mediaHashes(out) {
  const hashes = {};
  for (const f of fs.readdirSync(out).filter((n) => n.endsWith('.m4s')).sort()) {
    hashes[f] = crypto.createHash('sha256').update(fs.readFileSync(path.join(out, f))).digest('hex');
  }
  return hashes;
}

test('two builds of one preset are byte-identical, in one ffmpeg process or two', async () => {
  const builds = [];
  for (const [sub, processes] of [['a', 1], ['b', 2]]) {
    const contentDir = path.join(dir, sub);
    // 24 s: every scene kind of the mixed class (testsrc2, mandelbrot, life, gradients from 18 s, cellauto from 23 s).
    const { dir: out } = await ensureContent({ preset: 'sample', contentDir, durationSeconds: 24, overrides: { ladder: SMALL_LADDER }, processes });
    builds.push(out);
  }
  const [a, b] = builds.map(mediaHashes);
  expect(Object.keys(a)).toHaveLength(2 * (1 + 12)); // init + 12 segments of 2 s per rung
  expect(b).toEqual(a);
  for (const file of ['manifest.mpd', 'index.json', 'priority-0.json', 'priority-1.json']) {
    expect(fs.readFileSync(path.join(builds[1], file), 'utf8')).toBe(fs.readFileSync(path.join(builds[0], file), 'utf8'));
  }
  // Nothing of the processes' own directories is left in the build.
  expect(fs.readdirSync(builds[1]).sort()).toEqual(fs.readdirSync(builds[0]).sort());
  expect(contentBuildDigest(builds[1])).toEqual(contentBuildDigest(builds[0]));

  // The same encode with no assembly anywhere: ffmpeg's filters (-cpuflags 0) and x264 (no-asm).
  const plain = path.join(dir, 'c');
  fs.mkdirSync(plain);
  const args = dashEncodeArgs({ ...getPreset('sample'), ladder: SMALL_LADDER }, { outDir: plain, durationSeconds: 24 });
  args[args.indexOf('-x264-params') + 1] += ':no-asm=1';
  await runFfmpeg(['-cpuflags', '0', ...args], { expectedSeconds: 24 });
  expect(mediaHashes(plain)).toEqual(a);
}, 300000);

test("the source's pictures are the same with the CPU's SIMD as with ffmpeg's C code", () => {
  const graph = syntheticSourceGraph({ width: 160, height: 90, fps: 12, durationSeconds: 30, motion: 'mixed' });
  const frames = (cpuflags) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...cpuflags, '-f', 'lavfi', '-i', graph, '-f', 'framemd5', '-'], { encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\n').filter((l) => l && !l.startsWith('#'));
  const simd = frames([]);
  expect(simd).toHaveLength(30 * 12);
  expect(frames(['-cpuflags', '0'])).toEqual(simd);
}, 300000);
