'use strict';
// What content is present: a directory counts once its build finished (content.json is
// written last, after the MPD, segments and segment index).
const fs = require('node:fs');
const path = require('node:path');

const BUILD_RECORD = 'content.json';

function isBuilt(dir) {
  return ['manifest.mpd', 'index.json', BUILD_RECORD].every((f) => fs.existsSync(path.join(dir, f)));
}

function readBuildRecord(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, BUILD_RECORD), 'utf8'));
  } catch {
    return null;
  }
}

// The preset fields that shape the bytes, as a build record keeps them. fragmentSeconds absent
// from a record reads as none (records before it was kept had no fragments); the others are
// compared only when the record has them (kept since 2026-11-25), so older builds are not all
// built again for fields that did not change. The length is left out: `--duration` builds a
// shorter content on purpose.
const SHAPING_FIELDS = ['fps', 'segmentSeconds', 'fragmentSeconds', 'keyframeSeconds', 'ladder', 'motion', 'x264Preset', 'constantBitrate'];
const ABSENT_MEANS_NONE = new Set(['fps', 'segmentSeconds', 'fragmentSeconds', 'keyframeSeconds', 'ladder']);

/**
 * What differs between a finished build and the preset it was built from, as it reads now
 * (a preset edited since: more fragments, another ladder): ["fragmentSeconds: none -> 0.5", ...].
 * Empty when the build is another name's, packages a file of its own, or nothing changed. A
 * build made with fields replaced on purpose (overrides) is compared with the same replacements
 * only (`withOverrides`: the caller's preset has them too), never with the plain preset; and a
 * plain build is never compared with a caller's replacements.
 */
function changedSettings(record, preset, { withOverrides = false } = {}) {
  if (!record || record.preset !== preset.name || record.inputFile) return [];
  if (Boolean(record.overrides) !== withOverrides) return [];
  const show = (v) => (v === undefined || v === null ? 'none' : JSON.stringify(v));
  return SHAPING_FIELDS.filter((k) => (k in record || ABSENT_MEANS_NONE.has(k)) && JSON.stringify(record[k] ?? null) !== JSON.stringify(preset[k] ?? null))
    .map((k) => (k === 'ladder' ? 'ladder changed' : `${k}: ${show(record[k])} -> ${show(preset[k])}`));
}

/** Finished content directories under contentDir, with their build records. */
function listContent(contentDir) {
  if (!fs.existsSync(contentDir)) return [];
  return fs
    .readdirSync(contentDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && isBuilt(path.join(contentDir, d.name)))
    .map((d) => ({ name: d.name, record: readBuildRecord(path.join(contentDir, d.name)) }));
}

module.exports = { BUILD_RECORD, isBuilt, readBuildRecord, listContent, changedSettings };
