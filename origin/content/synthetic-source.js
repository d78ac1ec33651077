'use strict';
// Builds an ffmpeg lavfi filtergraph that stands in for real video. Results depend on motion
// and on how often the picture changes completely (each cut costs an I-frame, and I-frames
// dominate both bitrate peaks and FDSP's reliable share), so the graph cycles through
// moving synthetic scenes with hard cuts between them, at a cadence set by the motion class.
//
// Expensive generators (mandelbrot, life) are rendered small and scaled up: at 720p mandelbrot
// alone runs slower than real time on two cores.
//
// One preset must give the same bytes on every build and every machine: a run resumed after a
// rebuild, or sharded over machines, would otherwise compare different contents. So every
// generator has a fixed seed and gradients its colors (its default "random" colors are drawn
// without its seed: two builds of paper-quic differed from the first gradients scene on, 16 s
// in, in 473 of 491 segments compared), and every pixel-format conversion and scale is
// bit-exact (SWS_FLAGS): swscale's SIMD code rounds differently from its C code unless told not
// to, so a machine with other SIMD would scale to other pixels. Playbacks still record which
// build they played (content-build-digest.js).

// Scene lengths in seconds, cycled. "high" imitates paper 000's Bunny (37 I-frames in 30 s),
// "low" its Nature (5 in 30 s).
const SCENE_SECONDS = {
  high: [1.2, 0.8, 1.5, 1.0, 2.0, 0.9, 1.3],
  mixed: [6, 4, 8, 5, 7],
  low: [40, 35, 45],
};

// Each scene kind renders at its own size and is scaled to the output; `fast` says whether
// the scene kind has fast motion (used for high) or slow (used for low).
// For every scale and format conversion in the graphs (the encoder's per-rung scales included).
const SWS_FLAGS = 'bicubic+accurate_rnd+bitexact';

// gradients' colors, picked per scene from this palette by the scene's index.
const GRADIENT_PALETTE = ['0x2a4d7a', '0xd98c3a', '0x5fa35c', '0xb8405e', '0xe8d7a0', '0x3f2f5f', '0x7fc8d0', '0x9a6b3a'];

const SCENE_KINDS = [
  {
    name: 'testsrc2',
    fast: true,
    graph: (s) => `testsrc2=size=${s.width}x${s.height}:rate=${s.fps}`,
  },
  {
    name: 'mandelbrot',
    fast: true,
    // A zoom that keeps going for the scene's length; a slower one for low motion.
    graph: (s) =>
      `mandelbrot=size=320x180:rate=${s.fps}:end_pts=${s.motion === 'low' ? 400 : 60}:end_scale=0.01:start_scale=3` +
      `:start_x=-0.743643887037158704752191506114774:start_y=0.131825904205311970493132056385139`,
  },
  {
    name: 'life',
    fast: true,
    graph: (s) =>
      `life=size=320x180:rate=${s.fps}:ratio=0.35:seed=${1000 + s.index}:mold=25:` +
      `life_color=#f0d080:death_color=#203050:mold_color=#60a040`,
  },
  {
    name: 'gradients',
    fast: false,
    graph: (s) =>
      `gradients=size=${Math.min(s.width, 640)}x${Math.min(s.height, 360)}:rate=${s.fps}:n=5:seed=${2000 + s.index}:` +
      // 3 is prime to the palette's 8: five different colors for every index.
      [0, 1, 2, 3, 4].map((k) => `c${k}=${GRADIENT_PALETTE[(s.index + 3 * k) % GRADIENT_PALETTE.length]}`).join(':') +
      // Temporal grain: a bare gradient compresses to almost nothing, unlike camera video.
      `:speed=${s.motion === 'low' ? 0.004 : 0.03},noise=alls=10:allf=t`,
  },
  {
    name: 'cellauto',
    fast: true,
    graph: (s) => `cellauto=size=640x360:rate=${s.fps}:rule=${[30, 90, 110, 150][s.index % 4]}:seed=${3000 + s.index}:scroll=1`,
  },
];

function sceneKindsFor(motion) {
  if (motion === 'low') {
    // Slow material only: a slow gradient drift and a slow fractal zoom.
    return SCENE_KINDS.filter((k) => k.name === 'gradients' || k.name === 'mandelbrot');
  }
  return SCENE_KINDS;
}

/**
 * Lays out scenes to cover durationSeconds exactly.
 * @returns {{kind: string, seconds: number}[]}
 */
function planScenes(durationSeconds, motion) {
  const lengths = SCENE_SECONDS[motion];
  if (!lengths) throw new Error(`unknown motion class "${motion}" (known: ${Object.keys(SCENE_SECONDS).join(', ')})`);
  if (!(durationSeconds > 0)) throw new Error(`duration must be positive, got ${durationSeconds}`);
  const kinds = sceneKindsFor(motion);
  const scenes = [];
  let covered = 0;
  for (let i = 0; covered < durationSeconds - 1e-9; i++) {
    const seconds = Math.min(lengths[i % lengths.length], durationSeconds - covered);
    scenes.push({ kind: kinds[i % kinds.length].name, seconds: Math.round(seconds * 1000) / 1000 });
    covered += seconds;
  }
  return scenes;
}

/**
 * The lavfi graph for `-f lavfi -i <graph>`: width x height at fps, yuv420p, exactly
 * durationSeconds long.
 */
function syntheticSourceGraph({ width, height, fps, durationSeconds, motion }) {
  const scenes = planScenes(durationSeconds, motion);
  const parts = scenes.map((scene, index) => {
    const kind = SCENE_KINDS.find((k) => k.name === scene.kind);
    const source = kind.graph({ width, height, fps, motion, index });
    // Each scene restarts its timestamps so concat joins them back to back; scale/setsar/fps
    // make every scene the same stream shape, which concat requires.
    return (
      `${source},scale=${width}:${height}:flags=${SWS_FLAGS},setsar=1,fps=${fps},format=yuv420p,` +
      `trim=duration=${scene.seconds},setpts=PTS-STARTPTS[s${index}]`
    );
  });
  const inputs = scenes.map((_, i) => `[s${i}]`).join('');
  // sws_flags: for the conversions libavfilter inserts itself (each generator's RGB to yuv420p).
  return `sws_flags=${SWS_FLAGS};${parts.join(';')};${inputs}concat=n=${scenes.length}:v=1:a=0[out0]`;
}

module.exports = { syntheticSourceGraph, planScenes, SCENE_SECONDS, SWS_FLAGS };
