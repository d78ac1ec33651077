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

// The preset fields that shape the bytes, as a build record keeps them (a record from before a
// field was recorded reads as the field's absence).
const SHAPING_FIELDS = ['fps', 'segmentSeconds', 'fragmentSeconds', 'ladder'];

/**
 * What differs between a finished build and the preset it was built from, as it reads now
 * (a preset edited since: more fragments, another ladder): ["fragmentSeconds: none -> 0.5", ...].
 * Empty when the build is another name's, packages a file of its own, was built with fields
 * replaced on purpose (overrides), or nothing changed.
 */
function changedSettings(record, preset) {
  if (!record || record.preset !== preset.name || record.inputFile || record.overrides) return [];
  const show = (v) => (v === undefined || v === null ? 'none' : JSON.stringify(v));
  return SHAPING_FIELDS.filter((k) => JSON.stringify(record[k] ?? null) !== JSON.stringify(preset[k] ?? null))
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
