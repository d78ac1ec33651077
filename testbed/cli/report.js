#!/usr/bin/env node
'use strict';
// npm run report -- RUN_DIR [--plots ID,ID]: the report of a (possibly partial) run.
const path = require('node:path');
const { parseArgs } = require('node:util');
const { writeReport } = require('../report/write-report');

const USAGE = `Usage: npm run report -- RUN_DIR [--plots ID,ID,...]

Writes RUN_DIR/report.html (self-contained: per-metric tables by transport x ABR x network,
each cell "mean ± half the 95 % interval (min-max, n=playbacks)", under each table the cells
whose intervals overlap, bar charts, buffer and bitrate over time), RUN_DIR/report.md (the
tables in Markdown) and RUN_DIR/tables.csv (long form). Works on a partial or interrupted run
too, and on a directory that keeps only results.csv and scenario.json (as results/ does: the
same tables, no plots over time).

Cells holding playbacks measured before a fix in results/known-fixes.json that changes that
metric are marked "†N" (N: the fix's number there), and the report says what each fix changed.
A playback's code is its commit (results.csv column commit), else its start time.

Options:
  --plots ID,...   playbacks to plot over time (ids = file names in RUN_DIR/playbacks/);
                   default: the first successful repetition of each combination, up to 12
  -h, --help       this text
`;

function main(argv) {
  let args;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: { plots: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    process.stderr.write(`report: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (args.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.positionals.length !== 1) {
    process.stderr.write(`report: give exactly one run directory\n\n${USAGE}`);
    return 2;
  }
  try {
    const files = writeReport(path.resolve(args.positionals[0]), { plots: args.values.plots ? args.values.plots.split(',').map((s) => s.trim()).filter(Boolean) : [] });
    process.stdout.write(`${files.html}\n${files.md}\n${files.csv}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`report: ${err.message}\n`);
    return 1;
  }
}

process.exit(main(process.argv.slice(2)));
