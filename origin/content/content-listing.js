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

/** Finished content directories under contentDir, with their build records. */
function listContent(contentDir) {
  if (!fs.existsSync(contentDir)) return [];
  return fs
    .readdirSync(contentDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && isBuilt(path.join(contentDir, d.name)))
    .map((d) => ({ name: d.name, record: readBuildRecord(path.join(contentDir, d.name)) }));
}

module.exports = { BUILD_RECORD, isBuilt, readBuildRecord, listContent };
