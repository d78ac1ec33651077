'use strict';
// A run directory's playbacks as results rows (results-table.js toRow), with the records
// where the directory keeps them: the report and the merge of shards read runs through this,
// whether a directory is a full run (playbacks/) or a stored one (results.csv only, as results/).
const fs = require('node:fs');
const path = require('node:path');
const { readRecords } = require('../runner/run-directory');
const { toRow } = require('../runner/results-table');
const { parseResultsCsv } = require('./results-csv');

/**
 * @param {string} runDir
 * @returns {{rows: object[], records: object[]|null}} records null when only results.csv is kept
 */
function readRun(runDir) {
  if (fs.existsSync(path.join(runDir, 'playbacks'))) {
    const records = readRecords(runDir);
    return { rows: records.map((r) => ({ ...toRow(r), emulated: Boolean(r.emulated) })), records };
  }
  const csv = path.join(runDir, 'results.csv');
  if (!fs.existsSync(csv)) throw new Error(`${runDir} has neither playback records (playbacks/) nor a results.csv`);
  // results.csv keeps no "emulated" column: a row with a measured link figure was emulated.
  const rows = parseResultsCsv(fs.readFileSync(csv, 'utf8')).map((r) => ({ ...r, emulated: r.packetLossRatio !== null || r.wireBytesDown !== null }));
  return { rows, records: null };
}

module.exports = { readRun };
