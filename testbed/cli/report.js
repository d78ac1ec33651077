#!/usr/bin/env node
'use strict';
// npm run report -- RUN_DIR [--plots ID,ID]: the report of a (possibly partial) run.
// npm run report -- --merge DIR DIR ... [--out DIR]: shards of one scenario joined, then reported.
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { writeReport } = require('../report/write-report');
const { mergeRuns } = require('../report/merge-runs');
const { runTimestamp } = require('../runner/run-directory');

const REPO = path.resolve(__dirname, '..', '..');

const USAGE = `Usage: npm run report -- RUN_DIR [--plots ID,ID,...]
       npm run report -- --merge DIR DIR [DIR ...] [--out DIR]

Writes RUN_DIR/report.html (self-contained: per-metric tables by transport x ABR x network,
each cell "mean ± half the 95 % interval (min-max, n=playbacks)", under each table the cells
whose intervals overlap, bar charts, buffer and bitrate over time), RUN_DIR/report.md (the
tables in Markdown) and RUN_DIR/tables.csv (long form), and rewrites RUN_DIR/results.csv from
the playback records with the current code. Works on a partial or interrupted run too, and on
a directory that keeps only results.csv and scenario.json (as results/ does: the same tables,
no plots over time; that results.csv is left as it is).

Cells holding playbacks measured before a fix in results/known-fixes.json that changes that
metric are marked "†N" (N: the fix's number there), and the report says what each fix changed.
A playback's code is its commit (results.csv column commit), else its start time.

--merge joins the run directories of one scenario's shards (npm run qoe -- SCENARIO --shard
I/N, one per machine; copy their directories to one machine first) into a new run directory
and writes its report. The shards must have run the same scenario, or one scenario grown by
new matrix entries (a transport, profile or repetition added later and run into a directory
of its own; the playbacks both list must be the same); a playback ok in two shards is refused
(the shards overlap), an ok one replaces a failed one.

Options:
  --plots ID,...   playbacks to plot over time (ids = file names in RUN_DIR/playbacks/);
                   default: the first successful repetition of each combination, up to 12
  --merge          the positional arguments are shard run directories to join
  --out DIR        with --merge: the merged run directory (new or empty; default
                   runs/<scenario>-merged-<date>-<time>)
  -h, --help       this text
`;

function main(argv) {
  let args;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: { plots: { type: 'string' }, merge: { type: 'boolean' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    process.stderr.write(`report: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.out && !values.merge) {
    process.stderr.write(`report: --out goes with --merge (a report is written into its run directory)\n\n${USAGE}`);
    return 2;
  }
  if (values.merge ? positionals.length < 2 : positionals.length !== 1) {
    process.stderr.write(`report: ${values.merge ? 'give two or more shard run directories to --merge' : 'give exactly one run directory'}\n\n${USAGE}`);
    return 2;
  }
  try {
    let runDir = path.resolve(positionals[0]);
    if (values.merge) {
      const first = path.join(path.resolve(positionals[0]), 'scenario.json');
      const name = fs.existsSync(first) ? JSON.parse(fs.readFileSync(first, 'utf8')).name : 'run';
      const outDir = path.resolve(values.out || path.join(REPO, 'runs', `${name}-merged-${runTimestamp()}`));
      const m = mergeRuns(positionals.map((d) => path.resolve(d)), outDir);
      process.stderr.write(`report: merged ${m.playbacks} playbacks into ${outDir} (${Object.entries(m.fromEach).map(([d, n]) => `${n} from ${path.relative(process.cwd(), d) || d}`).join(', ')})\n`);
      for (const r of m.replacedFailed) process.stderr.write(`report: kept the ok record of ${r}\n`);
      runDir = outDir;
    }
    const files = writeReport(runDir, { plots: values.plots ? values.plots.split(',').map((s) => s.trim()).filter(Boolean) : [] });
    process.stdout.write(`${files.html}\n${files.md}\n${files.csv}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`report: ${err.message}\n`);
    return 1;
  }
}

process.exit(main(process.argv.slice(2)));
