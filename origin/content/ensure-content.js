'use strict';
// Builds a preset's content directory if it is missing (or when forced), atomically: ffmpeg
// writes into a hidden temp directory next to the target, and only a complete build (MPD,
// segments, segment index, build record) is renamed into place. An interrupted or failed
// build never leaves a half-written preset that the origin would serve, and never destroys
// the previous good one.
const fs = require('node:fs');
const path = require('node:path');
const { getPreset } = require('./presets');
const { encodeLadder } = require('./parallel-encode');
const { writeSegmentIndex } = require('./segment-index');
const { BUILD_RECORD, isBuilt, listContent, readBuildRecord, changedSettings } = require('./content-listing');

/**
 * @param {object} opts
 * @param {string} opts.preset         preset name (see presets.js)
 * @param {string} opts.contentDir     parent directory of all content
 * @param {string} [opts.name]         output directory name (default: the preset name)
 * @param {string} [opts.inputFile]    package this video instead of the synthetic source
 * @param {number} [opts.durationSeconds]  override the preset's length
 * @param {object} [opts.overrides]    preset fields to replace (e.g. a smaller ladder for a quick test)
 * @param {boolean} [opts.force]       rebuild even if present
 * @param {number} [opts.processes]    ffmpeg processes sharing the ladder (default: one per core, at
 *   most 4; parallel-encode.js); the bytes are the same for any number
 * @param {(e: {phase: string, fraction?: number, message?: string}) => void} [opts.onProgress]
 * @param {AbortSignal} [opts.signal]  stops ffmpeg; the partial build is removed
 * @returns {Promise<{dir: string, built: boolean}>}
 */
async function ensureContent(opts) {
  const preset = { ...getPreset(opts.preset), ...(opts.overrides || {}) };
  const name = opts.name || opts.preset;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new Error(`content name "${name}" must be letters, digits, '.', '_' or '-' (it becomes a URL path segment)`);
  }
  const onProgress = opts.onProgress || (() => {});
  const target = path.join(opts.contentDir, name);
  // A preset edited since its content was built (fragments added, say) is built again: serving
  // the old bytes under its name would measure something else than the preset says.
  const stale = isBuilt(target) ? changedSettings(readBuildRecord(target), preset, { withOverrides: Boolean(opts.overrides) }) : [];
  if (stale.length) onProgress({ phase: 'stale', message: `${name} was built with other settings (${stale.join('; ')}): building it again` });
  const force = opts.force || stale.length > 0;
  if (!force && isBuilt(target)) return { dir: target, built: false };

  if (opts.inputFile && !fs.existsSync(opts.inputFile)) {
    throw new Error(`input file not found: ${opts.inputFile}`);
  }
  fs.mkdirSync(opts.contentDir, { recursive: true });
  const release = await acquireBuildLock(opts.contentDir, name, { signal: opts.signal, onProgress });
  try {
    // Another process may have finished this very build while we waited for it.
    if (!force && isBuilt(target)) return { dir: target, built: false };
    // Built again by another process while we waited for the lock: nothing left to do.
    if (!opts.force && stale.length && isBuilt(target) && !changedSettings(readBuildRecord(target), preset, { withOverrides: Boolean(opts.overrides) }).length) return { dir: target, built: false };
    return await buildLocked(opts, preset, name, target, onProgress);
  } finally {
    release();
  }
}

async function buildLocked(opts, preset, name, target, onProgress) {
  removeAbandonedBuilds(opts.contentDir, name);
  const temp = fs.mkdtempSync(path.join(opts.contentDir, `.${name}.partial-${process.pid}-`));
  const started = Date.now();
  try {
    const durationSeconds = opts.durationSeconds ?? (opts.inputFile ? await probeDuration(opts.inputFile) : preset.durationSeconds);
    onProgress({ phase: 'encode', fraction: 0, message: `encoding ${name}: ${preset.ladder.length} rungs, ${durationSeconds} s` });
    await encodeLadder(preset, {
      outDir: temp,
      inputFile: opts.inputFile,
      durationSeconds: opts.durationSeconds,
      processes: opts.processes,
      expectedSeconds: durationSeconds,
      signal: opts.signal,
      onProgress: (fraction) => onProgress({ phase: 'encode', fraction }),
    });
    onProgress({ phase: 'index', message: 'building segment index' });
    await writeSegmentIndex(temp);
    const record = {
      preset: preset.name,
      description: preset.description,
      inputFile: opts.inputFile ? path.resolve(opts.inputFile) : null,
      durationSeconds,
      fps: preset.fps,
      segmentSeconds: preset.segmentSeconds,
      fragmentSeconds: preset.fragmentSeconds ?? null,
      keyframeSeconds: preset.keyframeSeconds ?? null,
      ladder: preset.ladder,
      motion: preset.motion ?? null,
      x264Preset: preset.x264Preset ?? null,
      constantBitrate: preset.constantBitrate ?? null,
      // Built with fields replaced (a test's small ladder): not the preset as it reads, on purpose.
      ...(opts.overrides ? { overrides: Object.keys(opts.overrides) } : {}),
      builtAt: new Date().toISOString(),
      buildSeconds: Math.round((Date.now() - started) / 100) / 10,
    };
    fs.writeFileSync(path.join(temp, BUILD_RECORD), `${JSON.stringify(record, null, 2)}\n`);
    replaceDir(temp, target);
    onProgress({ phase: 'done', message: `${name} ready in ${record.buildSeconds} s: ${target}` });
    return { dir: target, built: true };
  } catch (err) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw err;
  }
}

// Swap the finished build in with renames only, so a reader sees either the old or the new
// directory, and the old one is deleted only after the new one is in place.
function replaceDir(temp, target) {
  if (!fs.existsSync(target)) {
    fs.renameSync(temp, target);
    return;
  }
  const old = `${target}.old-${process.pid}-${Date.now()}`;
  fs.renameSync(target, old);
  fs.renameSync(temp, target);
  fs.rmSync(old, { recursive: true, force: true });
}

// One builder per content directory at a time (two test files, or `npm run origin` and
// `npm run content`, may ask for the same preset at once): the second waits for the first and
// then finds the content built, instead of encoding it again and swapping it out from under a
// server that is already serving it. The lock file holds the builder's pid, so a lock left by
// a killed process is recognised and taken over.
async function acquireBuildLock(contentDir, name, { signal, onProgress }) {
  const lock = path.join(contentDir, `.${name}.lock`);
  let told = false;
  for (;;) {
    try {
      const fd = fs.openSync(lock, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => fs.rmSync(lock, { force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let holder = NaN;
    try {
      holder = Number.parseInt(fs.readFileSync(lock, 'utf8'), 10);
    } catch {
      continue; // released between our open and read: try again
    }
    if (!Number.isInteger(holder) || holder <= 0 || !isAlive(holder)) {
      fs.rmSync(lock, { force: true });
      continue;
    }
    if (!told) {
      onProgress({ phase: 'wait', message: `waiting for another build of ${name} (pid ${holder}) to finish` });
      told = true;
    }
    if (signal && signal.aborted) throw new Error(`interrupted while waiting for another build of ${name}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// A build killed with SIGKILL (or a power cut) leaves its temp directory behind; the pid in
// its name tells whether its builder is gone. Live builders (another process building the same
// preset right now) are left alone.
function removeAbandonedBuilds(contentDir, name) {
  const prefix = `.${name}.partial-`;
  for (const entry of fs.readdirSync(contentDir)) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number.parseInt(entry.slice(prefix.length), 10);
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) continue;
    fs.rmSync(path.join(contentDir, entry), { recursive: true, force: true });
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function probeDuration(file) {
  const { execFile } = require('node:child_process');
  return new Promise((resolve, reject) => {
    execFile('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], (err, stdout, stderr) => {
      if (err) {
        reject(new Error(err.code === 'ENOENT' ? 'ffprobe not found: install ffmpeg (npm run setup)' : `cannot read ${file}: ${stderr.trim() || err.message}`));
        return;
      }
      const seconds = Number.parseFloat(stdout);
      if (!(seconds > 0)) reject(new Error(`cannot tell the duration of ${file} (ffprobe said "${stdout.trim()}")`));
      else resolve(seconds);
    });
  });
}

module.exports = { ensureContent, listContent, isBuilt, readBuildRecord, isAlive };
