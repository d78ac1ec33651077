'use strict';
// Encodes a preset's ladder, or a share of its rungs, into DASH with ffmpeg + libx264 in one
// ffmpeg process: the (synthetic or user) source is made once for the rungs it encodes, and every
// rung sees identical pictures. parallel-encode.js runs several such processes and joins them.
const { spawn } = require('node:child_process');
const { syntheticSourceGraph, SWS_FLAGS } = require('./synthetic-source');

/**
 * x264 settings per motion class. Every segment must start with an IDR and GOPs must be closed
 * so any segment of any rung can be decoded on its own (switching, seeking, FDSP).
 *  - mixed/low: one GOP per segment, scene cuts do not add I-frames (FDSP-style settings,
 *    docs/platform-notes.md), so segment boundaries are exactly where IDRs are.
 *  - high: scene cuts add I-frames inside segments too (paper 000's high-motion clip has many),
 *    and forced key frames keep an IDR on every segment boundary regardless.
 * slices=4 is paper 000's setting; repeat-headers puts SPS/PPS in-band before every IDR so each
 * segment carries its own critical parameter sets. keyframeSeconds (default: the segment) puts
 * I-frames that often inside a segment too, for content whose I-frame share matters (paper 000's
 * BP only moves I-slice data); the forced key frames still start every segment.
 */
function x264Params({ fps, segmentSeconds, keyframeSeconds, motion, constantBitrate }) {
  const gop = Math.max(1, Math.round(fps * Math.min(segmentSeconds, keyframeSeconds ?? segmentSeconds)));
  // Constant bitrate: x264's HRD in CBR mode pads with filler data, so every second carries the
  // rung's rate (paper 004's clip is "5.24 Mbps"; the default VBR averaged 4.3 on it).
  // cpu-independent: without it x264 picks some algorithms by the CPU's features (with and
  // without its assembly the bytes differ), so a preset would encode differently on another machine.
  const common = `slices=4:open-gop=0:repeat-headers=1:cpu-independent=1${constantBitrate ? ':nal-hrd=cbr' : ''}`;
  if (motion === 'high') {
    return `keyint=${gop}:min-keyint=${Math.max(1, Math.min(gop, Math.round(fps / 2)))}:scenecut=40:${common}`;
  }
  return `keyint=${gop}:min-keyint=${gop}:scenecut=0:${common}`;
}

/**
 * The whole ffmpeg command line for one preset.
 * @param {object} preset  from presets.js (ladder, fps, segmentSeconds, durationSeconds, motion, x264Preset,
 *   constantBitrate, fragmentSeconds, keyframeSeconds)
 * @param {object} opts    { outDir, inputFile?, durationSeconds?, rungs? }: rungs, the ladder indices
 *   this process encodes (default all); the source is still made at the whole ladder's top size, so
 *   each rung gets the same pictures as in a one-process build (parallel-encode.js)
 */
function dashEncodeArgs(preset, { outDir, inputFile, durationSeconds, rungs }) {
  const top = preset.ladder.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
  const ladder = rungs ? rungs.map((i) => preset.ladder[i]) : preset.ladder;
  const duration = durationSeconds ?? (inputFile ? undefined : preset.durationSeconds);
  const args = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1'];
  // Per rung: the chain that turns the decoded source into that rung's pictures.
  let rungChain;
  if (inputFile) {
    args.push('-i', inputFile);
    // A user's video keeps its own aspect ratio inside the ladder's frame (letterbox/pillarbox),
    // because every rung must have exactly the same aspect ratio for MSE switching.
    rungChain = (r) =>
      `fps=${preset.fps},scale=${r.width}:${r.height}:flags=${SWS_FLAGS}:force_original_aspect_ratio=decrease,` +
      `pad=${r.width}:${r.height}:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p`;
  } else {
    args.push('-f', 'lavfi', '-i', syntheticSourceGraph({
      width: top.width, height: top.height, fps: preset.fps, durationSeconds: duration, motion: preset.motion,
    }));
    rungChain = (r) => `scale=${r.width}:${r.height}:flags=${SWS_FLAGS},setsar=1`;
  }
  // Split the source once and scale per rung, so the source is generated/decoded once per process.
  const splitOuts = ladder.map((_, i) => `[src${i}]`).join('');
  const rungGraphs = ladder.map((r, i) => `[src${i}]${rungChain(r)}[v${i}]`);
  // sws_flags: bit-exact for the conversions ffmpeg inserts (synthetic-source.js says why).
  args.push('-filter_complex', `sws_flags=${SWS_FLAGS};${[`[0:v:0]split=${ladder.length}${splitOuts}`, ...rungGraphs].join(';')}`);
  if (duration !== undefined) args.push('-t', String(duration));
  ladder.forEach((r, i) => {
    const kbps = r.bitrateKbps;
    args.push('-map', `[v${i}]`);
    if (preset.constantBitrate) args.push(`-b:v:${i}`, `${kbps}k`, `-minrate:v:${i}`, `${kbps}k`, `-maxrate:v:${i}`, `${kbps}k`, `-bufsize:v:${i}`, `${kbps}k`);
    else args.push(`-b:v:${i}`, `${kbps}k`, `-maxrate:v:${i}`, `${Math.round(kbps * 1.5)}k`, `-bufsize:v:${i}`, `${kbps * 2}k`);
  });
  const gopSeconds = preset.segmentSeconds;
  args.push(
    '-c:v', 'libx264', '-profile:v', 'high', '-preset', preset.x264Preset || 'veryfast', '-pix_fmt', 'yuv420p',
    // One encoder thread: x264's frame threads with VBV (the maxrate cap above) make its rate
    // control depend on thread timing, so two builds differed. ffmpeg 5.1 runs a process's
    // encoders one after another on one thread, so the cores are used by running several
    // processes, each with a share of the rungs (parallel-encode.js), not by x264's threads.
    '-threads', '1',
    '-x264-params', x264Params(preset),
    '-force_key_frames', `expr:gte(t,n_forced*${gopSeconds})`,
    '-an',
    '-f', 'dash', '-seg_duration', String(preset.segmentSeconds),
    // Movie fragments inside a segment (paper 000's playout hands each to the decoder at its own
    // deadline); without it one fragment per segment.
    ...(preset.fragmentSeconds ? ['-frag_type', 'duration', '-frag_duration', String(preset.fragmentSeconds)] : []),
    '-use_template', '1', '-use_timeline', '0',
    '-init_seg_name', 'init-$RepresentationID$.m4s', '-media_seg_name', 'chunk-$RepresentationID$-$Number%05d$.m4s',
    '-adaptation_sets', 'id=0,streams=v',
    `${outDir}/manifest.mpd`,
  );
  return args;
}

/**
 * Runs ffmpeg; resolves when it exits 0. onProgress(fraction 0..1) is fed from ffmpeg's
 * -progress output (out_time vs the expected duration).
 */
function runFfmpeg(args, { expectedSeconds, onProgress, ffmpegPath = 'ffmpeg', signal } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let pending = '';
    const onAbort = () => child.kill('SIGTERM');
    if (signal) {
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
    }
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        const m = /^out_time_us=(\d+)/.exec(line);
        if (m && expectedSeconds > 0 && onProgress) onProgress(Math.min(1, Number(m[1]) / 1e6 / expectedSeconds));
      }
    });
    child.stderr.on('data', (chunk) => {
      // Keep the tail only: a long encode can print a lot, and the end says what went wrong.
      stderr = (stderr + chunk).slice(-8000);
    });
    child.on('error', (err) => {
      if (signal) signal.removeEventListener('abort', onAbort);
      reject(err.code === 'ENOENT'
        ? new Error(`${ffmpegPath} not found: install ffmpeg (run "npm run setup", or apt-get install ffmpeg)`)
        : err);
    });
    child.on('close', (code, sig) => {
      if (signal) signal.removeEventListener('abort', onAbort);
      if (code === 0) return resolve();
      reject(new Error(`ffmpeg failed (${sig ? `signal ${sig}` : `exit ${code}`}): ${stderr.trim() || 'no output'}`));
    });
  });
}

module.exports = { dashEncodeArgs, x264Params, runFfmpeg };
