#!/usr/bin/env node
'use strict';
// npm run cleanup: removes the network namespaces a killed run left behind (see
// testbed/netem/leftover-namespaces.js), the lab's BPF congestion controls a killed loader
// left registered (testbed/congestion/leftover-registrations.js) and the temporary directories
// of processes that were killed (shared/leftover-temp-dirs.js). Processes are never touched:
// a namespace with one inside, or a directory whose maker runs, is reported and kept.
const { parseArgs } = require('node:util');
const { isLabNamespace, removeLeftoverNamespaces, DEFAULT_MIN_AGE_MS } = require('../netem/leftover-namespaces');
const { removeLeftoverRegistrations } = require('../congestion/leftover-registrations');
const { removeLeftoverTempDirs } = require('../../shared/leftover-temp-dirs');

const USAGE = `Usage: npm run cleanup -- [NAME ...] [--dry-run] [--min-age SECONDS]

Removes the network namespaces named lab<srv|cli><N> (the link emulator's) that have no process
in them: what npm run qoe, npm run lab or npm test leave when killed hard (SIGKILL, a machine
restart) before they could clean up. A namespace with a process inside belongs to a run still
going and is kept, and its processes are not touched; so is an empty one younger than
--min-age (a run may be starting in it). Also unregisters the lab's BPF TCP congestion
controls (lab_vegas, lab_lia) when no lab run's loader holds them, and removes the
lab's temporary directories whose maker no longer runs (lab-<kind>-<pid>-XXXXXX in
${require('node:os').tmpdir()}: Chromium profiles, socket directories, test data).

  NAME ...           only these namespaces (default: every lab<srv|cli><N>)
  --dry-run          say what would be removed, remove nothing
  --min-age SECONDS  keep empty namespaces younger than this (default ${DEFAULT_MIN_AGE_MS / 1000})
  -h, --help         this text

Needs root to remove namespaces (not for --dry-run).
`;

function main(argv) {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { 'dry-run': { type: 'boolean' }, 'min-age': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    process.stderr.write(`cleanup: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (args.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const minAge = args.values['min-age'] === undefined ? DEFAULT_MIN_AGE_MS / 1000 : Number(args.values['min-age']);
  if (!Number.isFinite(minAge) || minAge < 0) {
    process.stderr.write(`cleanup: --min-age must be a number of seconds >= 0, got "${args.values['min-age']}"\n`);
    return 2;
  }
  const bad = args.positionals.filter((n) => !isLabNamespace(n));
  if (bad.length) {
    process.stderr.write(`cleanup: ${bad.join(', ')}: not a namespace of this project (lab<srv|cli><N>); only those are removed\n`);
    return 2;
  }
  const dryRun = Boolean(args.values['dry-run']);
  if (!dryRun && process.getuid && process.getuid() !== 0) {
    process.stderr.write('cleanup: removing network namespaces needs root (--dry-run lists them without)\n');
    return 2;
  }
  const { removed, kept, errors } = removeLeftoverNamespaces({
    names: args.positionals.length ? args.positionals : null, minAgeMs: minAge * 1000, dryRun,
  });
  for (const name of removed) process.stdout.write(`cleanup: ${dryRun ? 'would remove' : 'removed'} ${name}\n`);
  for (const k of kept) process.stdout.write(`cleanup: kept ${k.name}: ${k.why}\n`);
  for (const e of errors) process.stderr.write(`cleanup: could not remove ${e.name}: ${e.message}\n`);
  if (!removed.length && !kept.length && !errors.length) process.stdout.write('cleanup: no lab namespaces on this machine\n');
  // Congestion controls and temporary directories only on a whole cleanup (no NAMEs given).
  const none = { removed: [], kept: [], errors: [] };
  const cc = args.positionals.length ? none : removeLeftoverRegistrations({ dryRun });
  for (const name of cc.removed) process.stdout.write(`cleanup: ${dryRun ? 'would unregister' : 'unregistered'} TCP congestion control ${name}\n`);
  for (const k of cc.kept) process.stdout.write(`cleanup: kept TCP congestion control ${k.name}: ${k.why}\n`);
  for (const e of cc.errors) process.stderr.write(`cleanup: could not unregister ${e.name}: ${e.message}\n`);
  const dirs = args.positionals.length ? none : removeLeftoverTempDirs({ dryRun });
  if (dirs.removed.length) process.stdout.write(`cleanup: ${dryRun ? 'would remove' : 'removed'} ${dirs.removed.length} temporary director${dirs.removed.length === 1 ? 'y' : 'ies'} of ended processes: ${dirs.removed.join(' ')}\n`);
  for (const k of dirs.kept) process.stdout.write(`cleanup: kept ${k.name}: ${k.why}\n`);
  for (const e of dirs.errors) process.stderr.write(`cleanup: could not remove ${e.name}: ${e.message}\n`);
  return errors.length || cc.errors.length || dirs.errors.length ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
