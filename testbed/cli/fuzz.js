#!/usr/bin/env node
'use strict';
// npm run fuzz: the origin under hostile input (testbed/fuzz/run-fuzz.js), bounded in count
// and time, on loopback only; prints a table and exits 1 on any failed assertion.
const path = require('node:path');
const { parseArgs } = require('node:util');
const { runFuzz, BATCHES, LIMITS } = require('../fuzz/run-fuzz');
const { formatSummary } = require('../fuzz/summary-table');

function usage() {
  const batches = BATCHES.map((b) => `  ${b.name.padEnd(14)} ${String(b.defaultCount).padStart(6)}  ${b.title}`).join('\n');
  return `Usage: npm run fuzz -- [options]
       node testbed/cli/fuzz.js [options]

Starts the origin (origin/cli.js) as a child process on a small generated content tree
(with a secret file outside the root and symlinks pointing out of it), throws hostile
input at it on loopback, and checks: no response carries a file from outside the content
root; no 5xx beyond the documented ones (testbed/fuzz/allowed-5xx.js); the origin alive
and answering on every listener after each batch; /healthz (polled on a listener the batch
does not attack) always answered within ${LIMITS.healthzMs} ms (not counting time spent waiting for a
CPU); its file descriptors back after each batch; its memory not growing per case and near
the start after the run. Prints one row per batch and exits 1 on any failure. A default run
takes about 1.5 minutes. More in testbed/fuzz/README.md.

Batches (default cases at --scale 1):
${batches}
(connections: rounds of fixed scenarios; signaling: messages; fdsp-frames: frames)

Options:
  --seed N             seed of every generated case (default: a new one, printed)
  --scale X            multiply every batch's default count (default 1; 0.05 = a quick slice)
  --count NAME=N       cases of one batch, overriding --scale (repeatable)
  --only NAME[,NAME]   run only these batches
  --healthz-ms N       /healthz latency limit (default ${LIMITS.healthzMs})
  --batch-seconds N    time limit per batch; reaching it is a failure (default ${LIMITS.batchSeconds})
  --max-minutes N      hard limit for the whole run (default 10)
  --origin-cli FILE    the origin's cli.js to fuzz (default this repository's; it must print
                       the JSON ready line, as origin/cli.js does since issue 13)
  --keep-tree          keep the generated content tree and request log (path printed)
  -h, --help           show this help
`;
}

function fail(message) {
  process.stderr.write(`fuzz: ${message}\n\n${usage()}`);
  process.exit(2);
}

function number(value, name, { integer = false, min = 0 } = {}) {
  const n = Number(value);
  if (value === undefined || value === '' || !Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) fail(`${name} must be ${integer ? 'a whole number' : 'a number'} >= ${min}, got "${value}"`);
  return n;
}

async function main(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        seed: { type: 'string' },
        scale: { type: 'string' },
        count: { type: 'string', multiple: true },
        only: { type: 'string' },
        'healthz-ms': { type: 'string' },
        'batch-seconds': { type: 'string' },
        'max-minutes': { type: 'string' },
        'origin-cli': { type: 'string' },
        'keep-tree': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    return fail(err.message);
  }
  if (values.help) {
    process.stdout.write(usage());
    return 0;
  }
  const names = BATCHES.map((b) => b.name);
  const seed = values.seed === undefined ? Date.now() % 2 ** 31 : number(values.seed, '--seed', { integer: true });
  const scale = values.scale === undefined ? 1 : number(values.scale, '--scale');
  const only = values.only === undefined ? undefined : values.only.split(',').map((s) => s.trim());
  for (const n of only || []) if (!names.includes(n)) fail(`unknown batch "${n}" in --only (batches: ${names.join(', ')})`);
  const counts = {};
  for (const c of values.count || []) {
    const m = /^([a-z0-9-]+)=(.+)$/.exec(c);
    if (!m || !names.includes(m[1])) fail(`--count takes NAME=N with NAME one of ${names.join(', ')}, got "${c}"`);
    counts[m[1]] = number(m[2], `--count ${m[1]}`, { integer: true, min: 1 });
  }
  const limits = {};
  if (values['healthz-ms'] !== undefined) limits.healthzMs = number(values['healthz-ms'], '--healthz-ms', { min: 1 });
  if (values['batch-seconds'] !== undefined) limits.batchSeconds = number(values['batch-seconds'], '--batch-seconds', { min: 1 });
  const maxMinutes = values['max-minutes'] === undefined ? 10 : number(values['max-minutes'], '--max-minutes', { min: 0.1 });
  const originCli = values['origin-cli'] === undefined ? undefined : path.resolve(values['origin-cli']);

  const signal = { aborted: false };
  let origin = null;
  const abort = (why) => {
    if (signal.aborted) {
      // Second time: no orderly stop.
      if (origin) origin.killNow();
      process.exit(130);
    }
    signal.aborted = true;
    process.stderr.write(`fuzz: ${why}; stopping after the cases in flight (again to stop at once)\n`);
  };
  process.on('SIGINT', () => abort('interrupted'));
  process.on('SIGTERM', () => abort('terminated'));
  const watchdog = setTimeout(() => {
    abort(`the run passed --max-minutes ${maxMinutes}`);
    setTimeout(() => {
      if (origin) origin.killNow();
      process.stderr.write('fuzz: still running 60 s after the time limit; origin killed\n');
      process.exit(1);
    }, 60000).unref();
  }, maxMinutes * 60000);
  watchdog.unref();

  const repro = ['npm run fuzz --', `--seed ${seed}`, values.scale !== undefined ? `--scale ${scale}` : '', only ? `--only ${only.join(',')}` : '', ...Object.entries(counts).map(([k, v]) => `--count ${k}=${v}`)].filter(Boolean).join(' ');
  process.stdout.write(`fuzz: seed ${seed}, scale ${scale}${only ? `, only ${only.join(',')}` : ''}\n`);
  const result = await runFuzz({
    seed,
    scale,
    counts,
    only,
    limits,
    originCli,
    keepTree: values['keep-tree'],
    signal,
    onOrigin: (o) => { origin = o; },
    progress: (line) => process.stdout.write(`fuzz: ${line}\n`),
  });
  clearTimeout(watchdog);
  process.stdout.write(`${formatSummary(result, { command: repro })}\n`);
  if (values['keep-tree']) process.stdout.write(`content tree and request log kept in ${result.tree}\n`);
  if (signal.aborted) return 130;
  return result.ok ? 0 : 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
    process.stderr.write(`fuzz: ${err.stack || err.message}\n`);
    process.exit(1);
  });
}

module.exports = { main, usage };
