'use strict';
// results.csv read back into rows (results-table.js wrote it): what a report needs when the
// playback records are gone, as in results/, which keeps a run's results.csv, scenario.json and
// tables but not its several-MB records. Numbers come back as numbers, empty cells as null. Pure.

// Columns that are names or text even where they look like numbers.
const TEXT_COLUMNS = new Set(['id', 'transport', 'abr', 'network', 'seekSchedule', 'switchSchedule', 'status', 'error', 'modelEquation', 'startedAt', 'commit']);
const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** RFC 4180 fields: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsvLines(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (quoted) throw new Error('results.csv: a quoted field is not closed');
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * @param {string} text  a results.csv
 * @returns {object[]} one row per playback: column name -> number, text or null
 */
function parseResultsCsv(text) {
  const [header, ...lines] = parseCsvLines(text).filter((r) => !(r.length === 1 && r[0] === ''));
  if (!header || !header.includes('id') || !header.includes('status')) throw new Error('not a results.csv (its header has no id and status columns)');
  return lines.map((cells, n) => {
    if (cells.length !== header.length) throw new Error(`results.csv line ${n + 2}: ${cells.length} fields where the header has ${header.length}`);
    return Object.fromEntries(header.map((name, i) => {
      const v = cells[i];
      if (v === '') return [name, null];
      return [name, !TEXT_COLUMNS.has(name) && NUMBER.test(v) ? Number(v) : v];
    }));
  });
}

module.exports = { parseResultsCsv };
