'use strict';
// Encodes one preset's ladder in several ffmpeg processes at once, each encoding a share of the
// rungs, and joins their outputs into the one DASH directory a single process would have written.
//
// Why: x264 runs with one thread per rung (encode-dash.js: reproducible bytes), and ffmpeg 5.1
// runs all of a process's encoders on one thread, so a one-process build keeps one core busy
// (paper-quic-live: ~90 min on a 2-core machine of this lab's kind). Each process makes the whole
// source (the synthetic graph, or decodes the user's video) and encodes its share; making the
// source is ~16 % of a paper-quic-live build's work.
//
// Same bytes: every process makes the same pictures (bit-exact source and scales), and each rung
// is its own x264 instance with one thread, so a rung's segments do not depend on which process
// or how many encoded it (test/integration/parallel-encode.test.js compares every file and the
// manifest with a one-process build). Representation IDs in ffmpeg's output are the stream's
// index in its process; the join renames files and manifest entries to the ladder's index.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { dashEncodeArgs, runFfmpeg } = require('./encode-dash');

/** How many ffmpeg processes by default: one per core, at most 4 (each holds a source), at most one per rung. */
function defaultProcessCount(rungCount, cores = os.availableParallelism()) {
  return Math.max(1, Math.min(cores, 4, rungCount));
}

/**
 * Splits ladder indices into `count` groups of about equal work: a rung's encode costs about its
 * pixel count, so the largest rungs are dealt first, each to the group with the least so far.
 * Each group is in ladder order; empty groups are dropped.
 * @param {{width: number, height: number}[]} ladder
 * @returns {number[][]}
 */
function rungGroups(ladder, count) {
  const groups = Array.from({ length: Math.max(1, count) }, () => ({ load: 0, rungs: [] }));
  const bySize = ladder.map((r, i) => ({ i, px: r.width * r.height })).sort((a, b) => b.px - a.px || a.i - b.i);
  for (const { i, px } of bySize) {
    const g = groups.reduce((a, b) => (b.load < a.load ? b : a));
    g.load += px;
    g.rungs.push(i);
  }
  return groups.map((g) => g.rungs.sort((a, b) => a - b)).filter((r) => r.length);
}

const REPRESENTATION = /^([ \t]*)<Representation id="(\d+)"[\s\S]*?<\/Representation>\n/gm;

/**
 * Joins the manifests of a split encode. Each part lists its representations with IDs 0..k-1 in
 * its own order; the joined manifest lists them by ladder index. Everything outside the
 * representations (MPD and AdaptationSet attributes: durations, max width and height) is taken
 * from the part that holds the ladder's largest rung, which is what one process would have
 * written (ffmpeg takes the AdaptationSet's max size over its streams).
 * @param {{mpd: string, rungs: number[]}[]} parts
 * @param {number} topRung  ladder index of the largest rung
 */
function joinManifests(parts, topRung) {
  const reps = [];
  for (const part of parts) {
    const found = [...part.mpd.matchAll(REPRESENTATION)];
    if (found.length !== part.rungs.length) {
      throw new Error(`an encoder process wrote ${found.length} representations, expected ${part.rungs.length}`);
    }
    for (const m of found) {
      const local = Number(m[2]);
      if (!(local < part.rungs.length)) throw new Error(`an encoder process wrote representation ${local}, it had ${part.rungs.length} rungs`);
      reps.push({ rung: part.rungs[local], text: m[0].replace(/<Representation id="\d+"/, `<Representation id="${part.rungs[local]}"`) });
    }
  }
  reps.sort((a, b) => a.rung - b.rung);
  const base = parts.find((p) => p.rungs.includes(topRung));
  if (!base) throw new Error(`no encoder process had the top rung ${topRung}`);
  const first = base.mpd.search(REPRESENTATION);
  const last = [...base.mpd.matchAll(REPRESENTATION)].pop();
  const end = last.index + last[0].length;
  return base.mpd.slice(0, first) + reps.map((r) => r.text).join('') + base.mpd.slice(end);
}

/** The name a part's file gets in the joined directory (init-K.m4s, chunk-K-NNNNN.m4s). */
function joinedFileName(file, rungs) {
  const m = /^(init|chunk)-(\d+)(\.m4s|-.*)$/.exec(file);
  if (!m || !(Number(m[2]) < rungs.length)) return null;
  return `${m[1]}-${rungs[Number(m[2])]}${m[3]}`;
}

/**
 * Encodes `preset` into outDir with `processes` ffmpeg processes (1: the one-process command as
 * before). onProgress(fraction) follows the slowest process. On failure or abort every process
 * is stopped.
 */
async function encodeLadder(preset, { outDir, inputFile, durationSeconds, processes, expectedSeconds, onProgress, signal }) {
  const count = processes ?? defaultProcessCount(preset.ladder.length);
  const groups = rungGroups(preset.ladder, count);
  if (groups.length === 1) {
    return runFfmpeg(dashEncodeArgs(preset, { outDir, inputFile, durationSeconds }), { expectedSeconds, signal, onProgress });
  }
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  if (signal) {
    if (signal.aborted) stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
  }
  const fractions = groups.map(() => 0);
  const parts = groups.map((rungs, k) => ({ rungs, dir: path.join(outDir, `.part-${k}`) }));
  let firstError = null;
  try {
    for (const part of parts) fs.mkdirSync(part.dir);
    // allSettled: wait until every process has exited before the part directories go.
    await Promise.allSettled(parts.map((part, k) =>
      runFfmpeg(dashEncodeArgs(preset, { outDir: part.dir, inputFile, durationSeconds, rungs: part.rungs }), {
        expectedSeconds,
        signal: stop.signal,
        onProgress: (f) => {
          fractions[k] = f;
          if (onProgress) onProgress(Math.min(...fractions));
        },
      }).catch((err) => {
        firstError ??= err; // the cause, not the others' SIGTERM that follows
        stop.abort(); // one failed: the others' output is no use
      })));
    if (firstError) throw firstError;
    const top = preset.ladder.reduce((best, r, i, all) => (r.width * r.height > all[best].width * all[best].height ? i : best), 0);
    const mpd = joinManifests(parts.map((p) => ({ rungs: p.rungs, mpd: fs.readFileSync(path.join(p.dir, 'manifest.mpd'), 'utf8') })), top);
    for (const part of parts) {
      for (const file of fs.readdirSync(part.dir)) {
        if (file === 'manifest.mpd') continue;
        const joined = joinedFileName(file, part.rungs);
        if (!joined) throw new Error(`unexpected file ${file} in an encoder process's output`);
        fs.renameSync(path.join(part.dir, file), path.join(outDir, joined));
      }
    }
    fs.writeFileSync(path.join(outDir, 'manifest.mpd'), mpd);
  } finally {
    if (signal) signal.removeEventListener('abort', onAbort);
    for (const part of parts) fs.rmSync(part.dir, { recursive: true, force: true });
  }
}

module.exports = { encodeLadder, rungGroups, joinManifests, joinedFileName, defaultProcessCount };
