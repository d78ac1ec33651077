#!/usr/bin/env node
'use strict';
// npm run qoe -- SCENARIO [options]: runs a scenario's playbacks through the link emulator
// and writes a run directory and its report.
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { loadScenario } = require('../scenario/load-scenario');
const { describeProfile } = require('../scenario/network-profile');
const { runScenario } = require('../runner/run-scenario');
const { DEFAULT_LATE_LIMIT_MS, DEFAULT_LATE_RETRIES } = require('../runner/late-timers');
const { CLOCK_STEP_LIMIT_MS } = require('../runner/clock-step');
const { runTimestamp } = require('../runner/run-directory');
const { parseOnly, parseShard, selectPlaybacks } = require('../runner/run-plan');
const { writeReport } = require('../report/write-report');
const { buildIfAbsent } = require('../../origin/content/build-if-absent');
const { formatSeconds } = require('../../origin/content/progress-bar');
const { EmulationUnavailableError, requireRoot } = require('../netem/namespace-link');
const { CongestionControlUnavailableError } = require('../congestion/bpf-loader');
const { DEFAULT_SNAP_BYTES, NEEDS_EMULATION, parseSnapBytes, requireTcpdump } = require('../netem/packet-capture');
const { exitQuietlyOnClosedStdout } = require('../../shared/exit-quietly-on-closed-stdout');

const REPO = path.resolve(__dirname, '..', '..');

function usage() {
  const shipped = fs.readdirSync(path.join(REPO, 'testbed', 'scenarios')).filter((f) => /\.(ya?ml|json)$/.test(f)).map((f) => `scenarios/${f.replace(/\.(ya?ml|json)$/, '')}`);
  return `Usage: npm run qoe -- SCENARIO [options]

Runs every combination of a scenario (transports x ABRs x networks x seek schedules x switch
schedules x repetitions), each playback in a fresh Chromium inside the client namespace of
the link emulator, the origin in the server namespace. Writes one JSON per playback, a
combined results.csv and report.html / report.md / tables.csv into the run directory.
A scenario with "throughput" runs no playbacks: each run's page fetches the origin's byte
source over the transport for that long and records its in-order throughput every 10 s,
with paper 001's model bound beside it; "competingFlows" adds bulk TCP flows (reno, cubic,
bbr) through the same link and the throughput ratio to the report.
An interrupted run (Ctrl-C) resumes with the same --out (or --resume): finished playbacks
are kept, failed ones are run again. A playback whose origin or Chromium dies (killed,
crashed) fails at once with that reason, and the run goes on.

SCENARIO is a JSON or YAML file (extension optional), relative to here or to testbed/.
Shipped: ${shipped.join(', ')}
Format: testbed/scenarios/README.md

Options:
  --out DIR          run directory (default runs/<scenario>-<date>-<time>, with --shard
                     runs/<scenario>-shardIofN-<date>-<time>); an existing run directory of
                     the same scenario is resumed
  --resume           resume the newest of those directories
  --only FILTER      run a subset: KEY=VALUE[,KEY=VALUE...], KEY one of transport, abr,
                     network, seek, switch, repetition, id (same key twice = either)
  --shard I/N        run the I-th of N contiguous slices of the (filtered) playbacks, as
                     Playwright shards tests: one machine per shard, each with its own
                     --out; npm run report -- --merge DIR DIR ... joins their run
                     directories into one report. Runs stay one playback at a time per
                     machine; more machines is how 10 repetitions finish in hours
  --list             print the playbacks and the expected time, run nothing
  --no-emulation     run on loopback without the link emulator (no root needed; network
                     profiles and switch schedules are NOT applied; say so when reporting)
  --no-report        do not write the report at the end (npm run report -- DIR does it)
  --capture          also capture each playback's packets as the client saw them (tcpdump
                     in the client namespace, page load included, the link's addresses
                     only) into the run directory's captures/<id>.pcap; the record's
                     "capture" has tcpdump's counts and linkStartEpochSeconds, the link
                     schedule's time 0 on the capture's clock. About 2 MB per 40 s at
                     2.7 Mbit/s (30 MB per 10 min): capture the playbacks you need (--only)
  --capture-bytes N  bytes kept of each packet with --capture (default ${DEFAULT_SNAP_BYTES}: the
                     IP, TCP or UDP headers and a QUIC long header)
  --verbose          print each playback's processes as it starts: the origin's and
                     Chromium's PIDs and their network namespaces
  --late-limit MS    a playback during which an emulator timer ran more than MS late (a
                     busy CPU: the link was not the configured one), or one during which
                     the wall clock was set by more than ${CLOCK_STEP_LIMIT_MS} ms (live latency and the
                     ABR's download timing read it), is set aside into the run
                     directory's set-aside/ and played again (default ${DEFAULT_LATE_LIMIT_MS}; off
                     keeps every playback)
  --late-retries N   how many times at most it is played again (default ${DEFAULT_LATE_RETRIES}); then
                     the last try is kept, with a WARNING
  --content-dir DIR  content (default ./content; the scenario's preset is built if missing)
  --data-dir DIR     TLS certificate and other state (default ./data)
  -h, --help         this text

Needs root (network namespaces and TUN devices) unless --no-emulation.
Exit status: 0 all playbacks ok, 1 some failed (recorded in the run directory), 2 bad
scenario or options, 130 interrupted.
`;
}

function fail(message, code = 2) {
  process.stderr.write(`qoe: ${message}\n`);
  process.exit(code);
}

/** The newest runs/<prefix>-<date>-<time> (a shard's prefix names it: <scenario>-shard1of2). */
function newestRunDir(prefix) {
  const runs = path.join(REPO, 'runs');
  if (!fs.existsSync(runs)) return null;
  const own = (d) => d.startsWith(`${prefix}-`) && /^\d{8}-\d{6}$/.test(d.slice(prefix.length + 1));
  const dirs = fs.readdirSync(runs).filter((d) => own(d) && fs.existsSync(path.join(runs, d, 'scenario.json'))).sort();
  return dirs.length ? path.join(runs, dirs[dirs.length - 1]) : null;
}

async function main(argv) {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        resume: { type: 'boolean' },
        only: { type: 'string' },
        shard: { type: 'string' },
        list: { type: 'boolean' },
        'no-emulation': { type: 'boolean' },
        'no-report': { type: 'boolean' },
        verbose: { type: 'boolean' },
        capture: { type: 'boolean' },
        'capture-bytes': { type: 'string' },
        'late-limit': { type: 'string' },
        'late-retries': { type: 'string' },
        'content-dir': { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    fail(`${err.message}\n\n${usage()}`);
  }
  const { values, positionals } = args;
  if (values.help) {
    process.stdout.write(usage());
    return 0;
  }
  if (positionals.length !== 1) fail(`give exactly one scenario (got ${positionals.length})\n\n${usage()}`);
  let loaded;
  try {
    loaded = loadScenario(positionals[0]);
  } catch (err) {
    fail(err.message);
  }
  const { scenario } = loaded;
  let shard;
  try {
    parseOnly(values.only);
    shard = parseShard(values.shard);
    selectPlaybacks(scenario, values.only, shard);
  } catch (err) {
    fail(err.message);
  }

  if (values.list) {
    exitQuietlyOnClosedStdout();
    const plan = selectPlaybacks(scenario, values.only, shard).playbacks;
    for (const p of plan) process.stdout.write(`${p.id}  (${describeProfile(p.profile)}; ~${formatSeconds(p.expectedSeconds)})\n`);
    process.stdout.write(`${plan.length} playbacks, about ${formatSeconds(plan.reduce((a, p) => a + p.expectedSeconds, 0))} (m:ss)\n`);
    return 0;
  }
  if (values.out && values.resume) fail('give --out DIR or --resume, not both');
  const lateLimit = values['late-limit'] ?? String(DEFAULT_LATE_LIMIT_MS);
  const lateLimitMs = lateLimit === 'off' ? null : Number(lateLimit);
  if (lateLimitMs !== null && !(Number.isFinite(lateLimitMs) && lateLimitMs > 0)) fail(`--late-limit: give milliseconds above 0, or off (got "${lateLimit}")`);
  const lateRetries = Number(values['late-retries'] ?? DEFAULT_LATE_RETRIES);
  if (!Number.isInteger(lateRetries) || lateRetries < 0) fail(`--late-retries: give a whole number of 0 or more (got "${values['late-retries']}")`);
  let captureBytes = null;
  if (values['capture-bytes'] !== undefined && !values.capture) fail('--capture-bytes goes with --capture');
  if (values.capture) {
    if (values['no-emulation']) fail(NEEDS_EMULATION);
    try {
      captureBytes = values['capture-bytes'] === undefined ? DEFAULT_SNAP_BYTES : parseSnapBytes(values['capture-bytes']);
    } catch (err) {
      fail(`--capture-bytes: ${err.message}`);
    }
  }
  let runDir = values.out ? path.resolve(values.out) : null;
  const prefix = shard ? `${scenario.name}-shard${shard.index}of${shard.count}` : scenario.name;
  if (values.resume) {
    runDir = newestRunDir(prefix);
    if (!runDir) fail(`--resume: no earlier run of "${prefix}" in ${path.join(REPO, 'runs')}`);
  }
  runDir = runDir || path.join(REPO, 'runs', `${prefix}-${runTimestamp()}`);

  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (signal) => {
    interrupts += 1;
    // A second Ctrl-C means now; the exit handlers still remove namespaces and browsers.
    if (interrupts > 1) process.exit(130);
    process.stderr.write(`\nqoe: ${signal}: stopping after cleaning up the current playback (Ctrl-C again to quit at once)\n`);
    controller.abort();
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  // Before any content build: a refusal should not come after minutes of encoding.
  if (!values['no-emulation']) {
    try {
      requireRoot();
    } catch (err) {
      fail(`${err.message}\n(with --no-emulation the scenario runs on loopback, without its network profiles)`);
    }
    if (captureBytes) {
      try {
        requireTcpdump();
      } catch (err) {
        fail(err.message);
      }
    }
  }
  const contentDir = path.resolve(values['content-dir'] || path.join(REPO, 'content'));
  const dataDir = path.resolve(values['data-dir'] || path.join(REPO, 'data'));
  try {
    // A throughput scenario fetches the origin's byte source: it has no content to build.
    if (scenario.content) await buildIfAbsent(scenario.content, contentDir, { signal: controller.signal, who: 'qoe' });
  } catch (err) {
    if (controller.signal.aborted) return 130;
    fail(`cannot build content "${scenario.content}": ${err.message}`, 1);
  }
  let outcome;
  try {
    outcome = await runScenario({
      scenario, runDir, emulate: !values['no-emulation'], contentDir, dataDir, only: values.only, shard, signal: controller.signal, verbose: values.verbose,
      lateLimitMs, lateRetries, captureBytes,
    });
  } catch (err) {
    if (err instanceof EmulationUnavailableError) fail(`${err.message}\n(with --no-emulation the scenario runs on loopback, without its network profiles)`);
    if (err instanceof CongestionControlUnavailableError) fail(err.message);
    throw err;
  }
  const rel = path.relative(process.cwd(), runDir);
  const resumeHint = `npm run qoe -- ${positionals[0]}${values.only ? ` --only ${values.only}` : ''}${shard ? ` --shard ${shard.index}/${shard.count}` : ''} --out ${rel && !rel.startsWith('..') ? rel : runDir}`;
  process.stderr.write(`qoe: ${outcome.ok} ok, ${outcome.failed} failed of ${outcome.planned}${outcome.skipped ? ` (${outcome.skipped} done in an earlier session)` : ''}; results: ${path.join(runDir, 'results.csv')}\n`);
  if (!values['no-report'] && outcome.records.length) {
    const files = writeReport(runDir);
    process.stderr.write(`qoe: report: ${files.html}\n`);
  }
  if (outcome.interrupted) {
    process.stderr.write(`qoe: interrupted; resume with: ${resumeHint}\n`);
    return 130;
  }
  if (outcome.failed) process.stderr.write(`qoe: ${outcome.failed} playback(s) failed (errors in results.csv); run again with: ${resumeHint}\n`);
  return outcome.failed ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
  process.stderr.write(`qoe: ${err.stack || err.message}\n`);
  process.exit(1);
});
