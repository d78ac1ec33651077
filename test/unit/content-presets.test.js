'use strict';
const { PRESETS, resolvePresetNames, getPreset } = require('../../origin/content/presets');
const { planScenes, syntheticSourceGraph } = require('../../origin/content/synthetic-source');
const { dashEncodeArgs, x264Params } = require('../../origin/content/encode-dash');

describe('content presets', () => {
  test.each(Object.keys(PRESETS))('%s: ladder ascends and every rung has the same aspect ratio', (name) => {
    const { ladder } = PRESETS[name];
    for (let i = 1; i < ladder.length; i++) {
      expect(ladder[i].bitrateKbps).toBeGreaterThan(ladder[i - 1].bitrateKbps);
      expect(ladder[i].width * ladder[i].height).toBeGreaterThanOrEqual(ladder[i - 1].width * ladder[i - 1].height);
    }
    // Exact equality of width/height ratios: MSE in Chromium refuses rungs that differ at all.
    for (const r of ladder) expect(r.width * ladder[0].height).toBe(ladder[0].width * r.height);
    // x264 needs even dimensions for yuv420p.
    for (const r of ladder) expect([r.width % 2, r.height % 2]).toEqual([0, 0]);
  });

  test('paper ladders are the papers\' ladders', () => {
    expect(PRESETS['paper-http2'].ladder.map((r) => r.bitrateKbps)).toEqual([
      100, 200, 350, 500, 700, 900, 1100, 1300, 1600, 1900, 2300, 2800, 3400, 4500,
    ]);
    expect(PRESETS['paper-http2'].segmentSeconds).toBe(2);
    const quic = PRESETS['paper-quic'];
    expect(quic.ladder).toHaveLength(20);
    expect(quic.ladder[0].bitrateKbps).toBeLessThan(50);
    expect(quic.ladder[19].bitrateKbps).toBeGreaterThan(3800);
    expect([quic.durationSeconds, quic.segmentSeconds]).toEqual([600, 4]);
    for (const name of ['paper-fdsp-high', 'paper-fdsp-low']) {
      expect(PRESETS[name].ladder.map((r) => [r.bitrateKbps, r.width, r.height])).toEqual([
        [1000, 1920, 1080], [2000, 1920, 1080], [4000, 1920, 1080],
      ]);
      expect(PRESETS[name].fps).toBe(30);
    }
  });

  test('groups expand and unknown names are refused with the valid ones listed', () => {
    expect(resolvePresetNames('paper-fdsp')).toEqual(['paper-fdsp-high', 'paper-fdsp-low']);
    expect(resolvePresetNames('sample')).toEqual(['sample']);
    expect(() => resolvePresetNames('nope')).toThrow(/unknown content preset "nope".*sample/);
    expect(() => getPreset('nope')).toThrow(/known:/);
    expect(() => getPreset('paper-fdsp')).toThrow(/"paper-fdsp" is a group of presets \(paper-fdsp-high, paper-fdsp-low\)/);
  });
});

describe('synthetic source', () => {
  test.each(['high', 'mixed', 'low'])('%s motion scenes cover the duration exactly', (motion) => {
    const scenes = planScenes(37.5, motion);
    const total = scenes.reduce((s, x) => s + x.seconds, 0);
    expect(total).toBeCloseTo(37.5, 6);
    for (const s of scenes) expect(s.seconds).toBeGreaterThan(0);
  });

  test('high motion cuts far more often than low motion', () => {
    expect(planScenes(150, 'high').length).toBeGreaterThan(10 * planScenes(150, 'low').length);
  });

  test('bad motion class or duration is a clear error', () => {
    expect(() => planScenes(10, 'wild')).toThrow(/unknown motion class "wild"/);
    expect(() => planScenes(0, 'low')).toThrow(/duration must be positive/);
  });

  test('graph joins one labelled chain per scene and ends in out0', () => {
    const g = syntheticSourceGraph({ width: 640, height: 360, fps: 30, durationSeconds: 20, motion: 'mixed' });
    const n = planScenes(20, 'mixed').length;
    expect(g).toMatch(new RegExp(`concat=n=${n}:v=1:a=0\\[out0\\]$`));
    expect(g.match(/scale=640:360/g)).toHaveLength(n);
  });
});

describe('encoder settings', () => {
  test('one closed GOP per segment without scene-cut IDRs for mixed/low motion', () => {
    expect(x264Params({ fps: 30, segmentSeconds: 2, motion: 'mixed' })).toMatch(/^keyint=60:min-keyint=60:scenecut=0:slices=4:open-gop=0/);
    expect(x264Params({ fps: 24, segmentSeconds: 4, motion: 'low' })).toMatch(/keyint=96:min-keyint=96/);
  });

  test('high motion lets scene cuts add I-frames; key frames are still forced on segment boundaries', () => {
    expect(x264Params({ fps: 30, segmentSeconds: 10, motion: 'high' })).toMatch(/keyint=300:min-keyint=15:scenecut=40/);
    // I-frames more often than segments (paper 000's I-frame share): the interval, never above the segment.
    expect(x264Params({ fps: 30, segmentSeconds: 10, keyframeSeconds: 6, motion: 'low' })).toMatch(/keyint=180:min-keyint=180:scenecut=0/);
    expect(x264Params({ fps: 30, segmentSeconds: 10, keyframeSeconds: 0.4, motion: 'high' })).toMatch(/keyint=12:min-keyint=12:scenecut=40/);
    expect(x264Params({ fps: 30, segmentSeconds: 2, keyframeSeconds: 6, motion: 'mixed' })).toMatch(/keyint=60:min-keyint=60/);
    const args = dashEncodeArgs(getPreset('paper-fdsp-high'), { outDir: '/tmp/x' });
    expect(args[args.indexOf('-force_key_frames') + 1]).toBe('expr:gte(t,n_forced*10)');
    expect(args[args.indexOf('-seg_duration') + 1]).toBe('10');
  });

  test('one output stream per rung with its bitrate, H.264 High, one adaptation set', () => {
    const preset = getPreset('sample');
    const args = dashEncodeArgs(preset, { outDir: '/out' });
    expect(args.filter((a) => a === '-map')).toHaveLength(preset.ladder.length);
    preset.ladder.forEach((r, i) => expect(args[args.indexOf(`-b:v:${i}`) + 1]).toBe(`${r.bitrateKbps}k`));
    expect(args[args.indexOf('-profile:v') + 1]).toBe('high');
    expect(args[args.indexOf('-adaptation_sets') + 1]).toBe('id=0,streams=v');
    expect(args[args.length - 1]).toBe('/out/manifest.mpd');
    expect(args[args.indexOf('-t') + 1]).toBe('60');
  });

  test('paper 004\'s clip is constant bitrate: min = max = the rung\'s rate, a 1 s buffer, CBR filler', () => {
    const args = dashEncodeArgs(getPreset('paper-mptcp'), { outDir: '/out' });
    for (const k of ['-b:v:0', '-minrate:v:0', '-maxrate:v:0', '-bufsize:v:0']) expect(args[args.indexOf(k) + 1]).toBe('5240k');
    expect(args[args.indexOf('-x264-params') + 1]).toMatch(/:nal-hrd=cbr$/);
    // The others stay variable (a cap at 1.5 x), as before.
    const sample = dashEncodeArgs(getPreset('sample'), { outDir: '/out' });
    expect(sample).not.toContain('-minrate:v:0');
    expect(sample[sample.indexOf('-x264-params') + 1]).not.toMatch(/nal-hrd/);
  });

  test('fragments inside a segment on request (fragmentSeconds), none otherwise', () => {
    const args = dashEncodeArgs({ ...getPreset('sample'), fragmentSeconds: 0.5 }, { outDir: '/out' });
    expect(args.slice(args.indexOf('-frag_type'), args.indexOf('-frag_type') + 4)).toEqual(['-frag_type', 'duration', '-frag_duration', '0.5']);
    expect(dashEncodeArgs(getPreset('sample'), { outDir: '/out' })).not.toContain('-frag_type');
  });

  test('a user file is letterboxed into each rung and keeps its own length', () => {
    const args = dashEncodeArgs(getPreset('sample'), { outDir: '/out', inputFile: 'my.mkv' });
    expect(args[args.indexOf('-i') + 1]).toBe('my.mkv');
    expect(args).not.toContain('-t');
    expect(args[args.indexOf('-filter_complex') + 1]).toMatch(/force_original_aspect_ratio=decrease,pad=1280:720/);
  });
});
