#!/usr/bin/env node
'use strict';
// Writes the segment index beside a content directory's manifest.mpd: per representation and
// segment, the byte size, the real duration (from the fragment's sample durations, not the
// MPD's nominal value) and the priority map (origin/content/media/priority-map.js). SARA and
// BBA-2 read the sizes; the DataChannel transport reads the priority maps.
//
// The priority maps list every NAL unit and are large (megabytes for a minute of video), while
// the player needs only sizes at startup; so index.json carries sizes, durations and per-kind
// byte counts, and names one priority file per representation with the full maps:
//
// index.json
// { version: 1, mpd: 'manifest.mpd', generatedBy, segmentDuration: <nominal seconds>,
//   representations: [                       // ascending bandwidth
//     { id, bandwidth, width, height, codecs, timescale,
//       init: { url, size }, priorityMaps: 'priority-<id>.json',
//       segments: [ { number, url, size, startTime, duration, counts: {kind: bytes},
//                     frames: {I, P, B} } ] } ] }
// priority-<id>.json
// { version: 1, representation: id, segments: [ { number, url, size, priority } ] }
const fs = require('node:fs');
const path = require('node:path');
const { parseInitSegment, parseMediaSegment } = require('./media/mp4-boxes');
const { buildPriorityMap } = require('./media/priority-map');

const INDEX_FILE = 'index.json';

function attributes(tag) {
  const out = {};
  for (const m of tag.matchAll(/([A-Za-z:_][\w:.-]*)="([^"]*)"/g)) out[m[1]] = m[2];
  return out;
}

/**
 * The representations of a static, SegmentTemplate MPD as ffmpeg's dash muxer writes it
 * (the template on the Representation or on its AdaptationSet). Not a general MPD parser.
 */
function readMpdRepresentations(mpdText) {
  const mpdTag = /<MPD\b[^>]*>/.exec(mpdText);
  if (!mpdTag) throw new Error('not an MPD (no <MPD> element)');
  const reps = [];
  for (const set of mpdText.matchAll(/<AdaptationSet\b([^>]*)>([\s\S]*?)<\/AdaptationSet>/g)) {
    const setTemplate = /<SegmentTemplate\b[^>]*>/.exec(set[2].replace(/<Representation\b[\s\S]*?<\/Representation>/g, ''));
    for (const rep of set[2].matchAll(/<Representation\b([^>]*?)(\/>|>([\s\S]*?)<\/Representation>)/g)) {
      const own = rep[3] && /<SegmentTemplate\b[^>]*>/.exec(rep[3]);
      const templateTag = own || setTemplate;
      if (!templateTag) throw new Error(`representation ${attributes(rep[1]).id} has no SegmentTemplate`);
      reps.push({ ...attributes(rep[1]), template: attributes(templateTag[0]) });
    }
  }
  if (!reps.length) throw new Error('MPD has no representations');
  return { mpd: attributes(mpdTag[0]), representations: reps };
}

function expandTemplate(template, id, number) {
  return template
    .replace(/\$RepresentationID\$/g, id)
    .replace(/\$Number(?:%0(\d+)d)?\$/g, (_m, width) => String(number).padStart(Number(width || 0), '0'))
    .replace(/\$\$/g, '$');
}

function isoDurationSeconds(value) {
  const m = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value || '');
  if (!m) return null;
  const [, d, h, min, s] = m.map((x) => Number(x || 0));
  return d * 86400 + h * 3600 + min * 60 + s;
}

function indexRepresentation(dir, rep, totalSeconds) {
  const t = rep.template;
  const initUrl = expandTemplate(t.initialization, rep.id, 0);
  const initBytes = new Uint8Array(fs.readFileSync(path.join(dir, initUrl)));
  const initInfo = parseInitSegment(initBytes);
  const nominal = Number(t.duration) / Number(t.timescale || 1);
  const expected = totalSeconds ? Math.ceil(totalSeconds / nominal - 1e-6) : null;
  const segments = [];
  for (let number = Number(t.startNumber || 1); ; number++) {
    const url = expandTemplate(t.media, rep.id, number);
    const file = path.join(dir, url);
    if (!fs.existsSync(file)) break;
    const bytes = new Uint8Array(fs.readFileSync(file));
    const parsed = parseMediaSegment(bytes, initInfo.trex);
    const ticks = parsed.samples.reduce((s, x) => s + x.duration, 0);
    const priority = buildPriorityMap(initBytes, bytes, initInfo);
    const frames = { I: 0, P: 0, B: 0 };
    for (const f of priority.frames) frames[f.type] += 1;
    segments.push({
      number,
      url,
      size: bytes.byteLength,
      startTime: parsed.baseMediaDecodeTime / initInfo.timescale,
      duration: ticks / initInfo.timescale,
      counts: priority.counts,
      frames,
      priority,
    });
  }
  if (expected !== null && segments.length !== expected) {
    throw new Error(`representation ${rep.id}: found ${segments.length} segments, the MPD's duration implies ${expected}`);
  }
  return {
    id: rep.id,
    bandwidth: Number(rep.bandwidth),
    width: Number(rep.width) || null,
    height: Number(rep.height) || null,
    codecs: rep.codecs || null,
    timescale: initInfo.timescale,
    init: { url: initUrl, size: initBytes.byteLength },
    priorityMaps: `priority-${rep.id}.json`,
    segments,
  };
}

/** Builds the index of dir (which holds manifest.mpd) and returns it. */
function buildSegmentIndex(dir, mpdName = 'manifest.mpd') {
  const { mpd, representations } = readMpdRepresentations(fs.readFileSync(path.join(dir, mpdName), 'utf8'));
  const totalSeconds = isoDurationSeconds(mpd.mediaPresentationDuration);
  const reps = representations.map((r) => indexRepresentation(dir, r, totalSeconds)).sort((a, b) => a.bandwidth - b.bandwidth);
  const t = representations[0].template;
  return {
    version: 1,
    mpd: mpdName,
    generatedBy: 'dash-transport-lab origin/content/segment-index.js',
    segmentDuration: Number(t.duration) / Number(t.timescale || 1),
    representations: reps,
  };
}

// Via a temp file and rename, so a reader never sees half a file.
function writeJsonAtomically(file, value) {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temp, JSON.stringify(value));
  fs.renameSync(temp, file);
}

/**
 * Writes dir/index.json and dir/priority-<id>.json; the priority files first, so an index on
 * disk never names a missing one. Returns the full index (priority maps included in memory).
 */
async function writeSegmentIndex(dir, mpdName = 'manifest.mpd') {
  const index = buildSegmentIndex(dir, mpdName);
  for (const rep of index.representations) {
    writeJsonAtomically(path.join(dir, rep.priorityMaps), {
      version: 1,
      representation: rep.id,
      segments: rep.segments.map(({ number, url, size, priority }) => ({ number, url, size, priority })),
    });
  }
  writeJsonAtomically(path.join(dir, INDEX_FILE), {
    ...index,
    representations: index.representations.map((rep) => ({
      ...rep,
      segments: rep.segments.map(({ priority, ...rest }) => rest),
    })),
  });
  return index;
}

/** index.json, optionally with each segment's priority map joined back in. */
function readSegmentIndex(dir, { withPriority = false } = {}) {
  const index = JSON.parse(fs.readFileSync(path.join(dir, INDEX_FILE), 'utf8'));
  if (withPriority) {
    for (const rep of index.representations) {
      const maps = JSON.parse(fs.readFileSync(path.join(dir, rep.priorityMaps), 'utf8'));
      rep.segments.forEach((seg, i) => {
        seg.priority = maps.segments[i].priority;
      });
    }
  }
  return index;
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir || dir === '--help' || dir === '-h') {
    process.stdout.write('Usage: node origin/content/segment-index.js CONTENT_DIR\n(Re)writes CONTENT_DIR/index.json from its manifest.mpd and segments.\n');
    process.exit(dir ? 0 : 2);
  }
  const started = Date.now();
  writeSegmentIndex(dir).then(
    (index) => {
      for (const r of index.representations) {
        const bytes = r.segments.reduce((s, x) => s + x.size, 0);
        const critical = r.segments.reduce((s, x) => s + (x.priority.counts.container || 0) + (x.priority.counts.parameterSet || 0) + (x.priority.counts.sei || 0) + (x.priority.counts.sliceHeader || 0), 0);
        process.stdout.write(`rep ${r.id}: ${r.bandwidth} b/s, ${r.segments.length} segments, ${bytes} bytes, critical ${(100 * critical / bytes).toFixed(2)} %\n`);
      }
      process.stdout.write(`index.json written in ${Date.now() - started} ms\n`);
    },
    (err) => {
      process.stderr.write(`segment-index: ${err.message}\n`);
      process.exit(1);
    },
  );
}

module.exports = { buildSegmentIndex, writeSegmentIndex, readSegmentIndex, readMpdRepresentations, expandTemplate, isoDurationSeconds };
