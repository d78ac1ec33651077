#!/usr/bin/env node
'use strict';
// npm run report -- RUN_DIR [--plots ID,ID]: the report of a (possibly partial) run.
const path = require('node:path');
const { parseArgs } = require('node:util');
const { writeReport } = require('../report/write-report');

const USAGE = `Usage: npm run report -- RUN_DIR [--plots ID,ID,...]

Writes RUN_DIR/report.html (self-contained: per-metric tables of mean (min-max) over
repetitions by transport x ABR x network, bar charts, buffer and bitrate over time),
RUN_DIR/report.md (the tables in Markdown) and RUN_DIR/tables.csv (long form). Works on a
partial or interrupted run too.

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
