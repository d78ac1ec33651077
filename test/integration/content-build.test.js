'use strict';
// Builds small real content with ffmpeg through the same code path as `npm run content`.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { ensureContent, listContent } = require('../../origin/content/ensure-content');
const { readSegmentIndex } = require('../../origin/content/segment-index');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const SMALL_LADDER = [
  { bitrateKbps: 300, width: 384, height: 216 },
  { bitrateKbps: 700, width: 640, height: 360 },
];

let dir;
beforeAll(() => {
  dir = makeLabTempDir('content');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function readIndex(name) {
  return readSegmentIndex(path.join(dir, name), { withPriority: true });
}

function partials() {
  return fs.readdirSync(dir).filter((f) => f.includes('.partial-'));
}

describe('content build', () => {
  test('builds DASH + segment index with an IDR at every segment start', async () => {
    const events = [];
    const { built, dir: out } = await ensureContent({
      preset: 'sample', contentDir: dir, durationSeconds: 6, overrides: { ladder: SMALL_LADDER },
      onProgress: (e) => events.push(e),
    });
    expect(built).toBe(true);
    expect(out).toBe(path.join(dir, 'sample'));
    const mpd = fs.readFileSync(path.join(out, 'manifest.mpd'), 'utf8');
    expect(mpd).toMatch(/codecs="avc1\.64/); // High profile
    expect(mpd.match(/<AdaptationSet/g)).toHaveLength(1);
    expect(mpd).toMatch(/<SegmentTemplate/);
    const index = readIndex('sample');
    expect(index.representations.map((r) => r.bandwidth)).toEqual([300000, 700000]);
    for (const rep of index.representations) {
      expect(rep.segments).toHaveLength(3);
      for (const seg of rep.segments) {
        expect(seg.duration).toBeCloseTo(2, 1);
        expect(seg.size).toBe(fs.statSync(path.join(out, seg.url)).size);
        expect(seg.priority.frames[0]).toMatchObject({ type: 'I', idr: true });
        // 4 slices per frame: one slice header per slice.
        const headers = seg.priority.ranges.filter((r) => r[2] === 'sliceHeader').length;
        expect(headers).toBe(4 * seg.priority.frames.length);
      }
    }
    const fractions = events.filter((e) => e.phase === 'encode' && e.fraction !== undefined).map((e) => e.fraction);
    expect(fractions.length).toBeGreaterThan(1);
    expect(Math.max(...fractions)).toBeGreaterThan(0.5);
    expect(events[events.length - 1].phase).toBe('done');
    expect(listContent(dir).map((c) => c.name)).toEqual(['sample']);
    expect(partials()).toEqual([]);
  });

  test('an existing build is reused, not rebuilt', async () => {
    const before = fs.readFileSync(path.join(dir, 'sample', 'content.json'), 'utf8');
    const { built } = await ensureContent({ preset: 'sample', contentDir: dir, durationSeconds: 6, overrides: { ladder: SMALL_LADDER } });
    expect(built).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'sample', 'content.json'), 'utf8')).toBe(before);
  });

  test('an interrupted forced rebuild keeps the old content and leaves no partial files', async () => {
    const before = fs.readFileSync(path.join(dir, 'sample', 'content.json'), 'utf8');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    await expect(
      ensureContent({
        preset: 'sample', contentDir: dir, durationSeconds: 30, force: true, overrides: { ladder: SMALL_LADDER },
        signal: controller.signal,
      }),
    ).rejects.toThrow(/ffmpeg failed/);
    expect(fs.readFileSync(path.join(dir, 'sample', 'content.json'), 'utf8')).toBe(before);
    expect(readIndex('sample').representations).toHaveLength(2);
    expect(partials()).toEqual([]);
  });

  test('when one of the encoder processes fails, the others are stopped and the error says why', async () => {
    // An odd width is refused by x264 at once; the other process (the 640x360 rung) would take
    // about a minute for 180 s of video (~50 s on an idle 2-core machine), so finishing well
    // before that means it was stopped.
    const started = Date.now();
    await expect(ensureContent({
      preset: 'sample', contentDir: dir, name: 'odd-rung', durationSeconds: 180, processes: 2,
      overrides: { ladder: [{ bitrateKbps: 300, width: 383, height: 216 }, { bitrateKbps: 700, width: 640, height: 360 }] },
    })).rejects.toThrow(/ffmpeg failed \(exit \d+\):[\s\S]*width not divisible by 2/);
    expect(Date.now() - started).toBeLessThan(15000);
    expect(fs.existsSync(path.join(dir, 'odd-rung'))).toBe(false);
    expect(partials()).toEqual([]);
  });

  test('two builders of the same content at once: one encodes, the other waits and reuses it', async () => {
    const events = [];
    const opts = (tag) => ({
      preset: 'sample', name: 'concurrent', contentDir: dir, durationSeconds: 4, overrides: { ladder: SMALL_LADDER },
      onProgress: (e) => events.push([tag, e.phase]),
    });
    // Another process's lock is what the second caller sees in real life; within one process
    // the lock file is the same mechanism.
    const results = await Promise.all([ensureContent(opts('a')), ensureContent(opts('b'))]);
    expect(results.map((r) => r.built).sort()).toEqual([false, true]);
    expect(events.filter(([, phase]) => phase === 'encode').map(([tag]) => tag).every((t, _i, all) => t === all[0])).toBe(true);
    expect(events.some(([, phase]) => phase === 'wait')).toBe(true);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });

  test('a lock left by a dead process is taken over', async () => {
    fs.writeFileSync(path.join(dir, '.stale.lock'), '999999');
    const { built } = await ensureContent({ preset: 'sample', name: 'stale', contentDir: dir, durationSeconds: 2, overrides: { ladder: SMALL_LADDER.slice(0, 1) } });
    expect(built).toBe(true);
    expect(fs.existsSync(path.join(dir, '.stale.lock'))).toBe(false);
  });

  test('a user video is letterboxed into the ladder and keeps its length', async () => {
    const input = path.join(dir, 'four-by-three.mp4');
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=4',
      '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', input]);
    await ensureContent({ preset: 'sample', contentDir: dir, name: 'mine', inputFile: input, overrides: { ladder: SMALL_LADDER } });
    const index = readIndex('mine');
    expect(index.representations.map((r) => [r.width, r.height])).toEqual([[384, 216], [640, 360]]);
    const total = index.representations[0].segments.reduce((s, x) => s + x.duration, 0);
    expect(total).toBeCloseTo(4, 0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'mine', 'content.json'), 'utf8')).inputFile).toBe(input);
  });

  test('a missing input file or a bad name is a clear error', async () => {
    await expect(ensureContent({ preset: 'sample', contentDir: dir, name: 'x', inputFile: path.join(dir, 'nope.mp4') }))
      .rejects.toThrow(/input file not found/);
    await expect(ensureContent({ preset: 'sample', contentDir: dir, name: '../evil' })).rejects.toThrow(/must be letters/);
    expect(fs.existsSync(path.join(dir, 'x'))).toBe(false);
  });

  test('high-motion content has many more I-frames than low-motion content', async () => {
    const ladder = [{ bitrateKbps: 400, width: 384, height: 216 }];
    const iFrames = {};
    for (const preset of ['paper-fdsp-high', 'paper-fdsp-low']) {
      await ensureContent({ preset, contentDir: dir, durationSeconds: 20, overrides: { ladder } });
      const segs = readIndex(preset).representations[0].segments;
      expect(segs.map((s) => Math.round(s.duration))).toEqual([10, 10]);
      for (const s of segs) expect(s.priority.frames[0]).toMatchObject({ type: 'I', idr: true });
      iFrames[preset] = segs.flatMap((s) => s.priority.frames).filter((f) => f.type === 'I').length;
    }
    // Low motion: no scene cuts, an I-frame every keyframeSeconds (6 s) besides each segment start: 0, 6, 10, 16 s.
    expect(iFrames['paper-fdsp-low']).toBe(4);
    expect(iFrames['paper-fdsp-high']).toBeGreaterThan(8);
  });

  test('fragmentSeconds: movie fragments inside each segment, recorded in its priority map and partitioning it', async () => {
    const { splitSegment } = require('../../shared/fdsp/split-segment');
    await ensureContent({ preset: 'sample', name: 'fragmented', contentDir: dir, durationSeconds: 4, overrides: { ladder: SMALL_LADDER.slice(0, 1), fragmentSeconds: 0.5 } });
    const segs = readIndex('fragmented').representations[0].segments;
    expect(segs).toHaveLength(2);
    for (const s of segs) {
      const { fragments, ranges } = s.priority;
      expect(fragments.map((f) => f[2])).toEqual([0, 0.5, 1, 1.5]);
      // In order, from 0 to the segment's end, each fragment starting where the last ended.
      expect(fragments[0][0]).toBe(0);
      expect(fragments[fragments.length - 1][1]).toBe(s.size);
      for (let k = 1; k < fragments.length; k++) expect(fragments[k][0]).toBe(fragments[k - 1][1]);
      // Every fragment's own moof: the byte at its start (after any sidx) is a box, never slice data.
      for (const [start] of fragments) expect(ranges.find(([a, b]) => a <= start && start < b)[2]).toBe('container');
      // Still one priority map over the whole segment: FDSP splits it as before.
      const split = splitSegment(s.priority, 50);
      expect(split.reliableBytes + split.unreliableBytes).toBe(s.size);
    }
  });
});

describe('content CLI', () => {
  const cli = path.join(__dirname, '..', '..', 'origin', 'content', 'cli.js');
  test('--help lists the presets', () => {
    const r = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/paper-quic/);
    expect(r.stdout).toMatch(/--input FILE/);
  });
  test('an unknown preset or option exits 2 with the reason', () => {
    const r = spawnSync(process.execPath, [cli, 'bogus', '--content-dir', dir], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown content preset "bogus"/);
    const r2 = spawnSync(process.execPath, [cli, '--frobnicate'], { encoding: 'utf8' });
    expect(r2.status).toBe(2);
    expect(r2.stderr).toMatch(/frobnicate/);
    for (const bad of ['0', '1.5', 'two']) {
      const r3 = spawnSync(process.execPath, [cli, 'sample', '--processes', bad, '--content-dir', dir], { encoding: 'utf8' });
      expect(r3.status).toBe(2);
      expect(r3.stderr).toContain(`--processes must be a whole number from 1 to 64, got "${bad}"`);
    }
  });
  test('an already built preset is skipped', () => {
    const r = spawnSync(process.execPath, [cli, 'sample', '--content-dir', dir], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/already built/);
  });
});
