'use strict';
// Runs a scenario's playbacks one after another (2 shared cores: parallel playbacks would
// measure each other) and records each one as it ends. The parts, in the order a run uses them:
//   run-plan.js           which playbacks: the matrix, --only, what a resumed run already holds
//   run-directory.js      where records, logs and results.csv go
//   emulated-playback.js  one playback through the emulator (link, origin, Chromium, schedules)
//   loopback-playback.js  one playback without it (--no-emulation)
//   playback-record.js    the record a playback leaves
//   outcome-line.js       the line printed when it ends
// A failed playback is recorded with its error and the run goes on; a playback recorded "ok"
// is not run again when the run is resumed; an interrupted one is not recorded at all.
const fs = require('node:fs');
const path = require('node:path');
const { requireRoot } = require('../netem/namespace-link');
const { NEEDS_EMULATION, requireTcpdump } = require('../netem/packet-capture');
const { leftoverNotice } = require('../netem/leftover-namespaces');
const { createProgressBar, formatSeconds } = require('../../origin/content/progress-bar');
const { selectPlaybacks, remainingPlaybacks, tallyPlaybacks } = require('./run-plan');
const { openRunDirectory } = require('./run-directory');
const { runEmulatedPlayback } = require('./emulated-playback');
const { startLoopbackPlaybacks } = require('./loopback-playback');
const { playbackRecord, playerConfigFor } = require('./playback-record');
const { readRequestLog } = require('./origin-log-summary');
const { outcomeLine } = require('./outcome-line');
const { playUntilOnTime } = require('./late-timers');
const { readClocks, clockStep } = require('./clock-step');
const { codeVersion } = require('./code-version');
const { contentShares } = require('../../origin/content/content-shares');
const { contentBuildDigest } = require('../../origin/content/content-build-digest');
const congestionControls = require('../congestion/registry');
const { unavailableReason, CongestionControlUnavailableError } = require('../congestion/bpf-loader');
const { transportsWithOption } = require('../../player/transports');

// How often the progress bar is redrawn while one playback runs.
const PROGRESS_TICK_MS = 5000;

/** Where the playbacks run: a fresh link and origin process each, or one loopback origin for the run. */
async function openVenue(o) {
  if (!o.emulate) return startLoopbackPlaybacks({ scenario: o.scenario, contentDir: o.contentDir, dataDir: o.dataDir });
  const run = { scenario: o.scenario, contentDir: o.contentDir, dataDir: o.dataDir, linkIndex: 40 + (process.pid % 150) };
  return { play: (p, each) => runEmulatedPlayback(p, { ...run, ...each }), close: async () => {} };
}

/**
 * Plays one playback and builds its record; null when the run was interrupted during it (an
 * interrupted playback is not a result: resume plays it again).
 */
async function playAndRecord(p, { scenario, venue, rd, emulated, signal, onPlaying, code, contentDigest, captureBytes }) {
  const logFile = rd.logFile(p.id);
  const capture = captureBytes ? { file: rd.captureFile(p.id), snapBytes: captureBytes } : null;
  // A playback run again (failed before) starts a fresh log: the origin appends.
  fs.rmSync(logFile, { force: true });
  const playerConfig = playerConfigFor(scenario, p);
  const startedAt = new Date();
  const clocksAtStart = readClocks();
  // The record names its capture relative to the run directory, which may move.
  const relativeCapture = (played) => (played && played.capture ? { ...played, capture: { ...played.capture, file: path.relative(rd.dir, played.capture.file) } } : played);
  const record = (outcome) => ({
    ...playbackRecord({
      scenario, playback: p, emulated, playerConfig, startedAt, endedAt: new Date(), ...outcome, requestLog: readRequestLog(logFile), code, contentDigest,
    }),
    clock: clockStep(clocksAtStart, readClocks()), // did the wall clock step (clock-step.js)
  });
  try {
    return record({ played: relativeCapture(await venue.play(p, { playerConfig, logFile, capture, signal, onPlaying })) });
  } catch (err) {
    if (signal && signal.aborted) return null;
    return record({ error: err });
  }
}

/**
 * @param {object} o
 * @param {object} o.scenario     normalized (validate-scenario.js)
 * @param {string} o.runDir
 * @param {boolean} o.emulate     false: loopback, no network profile applied
 * @param {string} o.contentDir, o.dataDir
 * @param {string} [o.only]       filter, "transport=h2,abr=bba2"
 * @param {{index: number, count: number}} [o.shard]  the slice of the (filtered) matrix to play (run-plan.js parseShard)
 * @param {AbortSignal} [o.signal]
 * @param {boolean} [o.verbose]   print each playback's processes (PIDs, namespaces) as it starts
 * @param {(line: string) => void} [o.print]
 * @param {number|null} [o.lateLimitMs]  set aside and play again a playback whose emulator timers
 *   ran later than this (late-timers.js; default null: keep every playback)
 * @param {number} [o.lateRetries]  how many times at most (default 0)
 * @param {number} [o.captureBytes]  capture each playback's packets, this many bytes of each,
 *   into the run directory's captures/ (emulated runs only; packet-capture.js)
 * @returns {Promise<{planned: number, ran: number, ok: number, failed: number, skipped: number, records: object[], interrupted: boolean}>}
 */
/**
 * A BPF congestion control that cannot be registered here (not built, no BTF) would fail every
 * playback that asks for it, one by one: say so once, before anything runs.
 */
function refuseUnavailableCongestionControls(scenario, playbacks) {
  const names = new Set([scenario.congestionControl, ...(scenario.competingFlows || []).map((f) => f.cc)]);
  for (const p of playbacks) if (p.profile && p.profile.congestionControl) names.add(p.profile.congestionControl);
  const why = [...names].map((n) => congestionControls.get(n)).filter((c) => c.source === 'bpf').map(unavailableReason).filter(Boolean);
  if (why.length) throw new CongestionControlUnavailableError(`${scenario.name}: ${[...new Set(why)].join('; ')}`);
}

/**
 * An FDSP run (a transport with a BP option) records what BP sends reliably in its content
 * (content-shares.json beside the playbacks), for the report: BP can only move the I-slice data.
 */
function recordContentShares(scenario, o) {
  const fdsp = new Set(transportsWithOption('bp'));
  if (!scenario.transports.some((t) => fdsp.has(typeof t === 'string' ? t : t.name))) return;
  try {
    const shares = contentShares(path.join(o.contentDir, scenario.content));
    fs.writeFileSync(path.join(o.runDir, 'content-shares.json'), `${JSON.stringify(shares, null, 2)}\n`);
  } catch (err) {
    (o.print || ((line) => process.stderr.write(`${line}\n`)))(`note: the content's reliable shares per BP are not recorded: ${err.message}`);
  }
}

/**
 * The digest of the content build this run plays (recorded in each playback), and a note when
 * the run directory already holds playbacks of another build or of none recorded: builds are
 * byte-identical only when made by the same code, ffmpeg and x264, and the report marks the
 * cells that mix builds.
 */
function recordedContentBuild(scenario, o, done, print) {
  const build = contentBuildDigest(path.join(o.contentDir, scenario.content));
  if (!build.digest) {
    print(`note: the playbacks record no content build (${build.why})`);
    return null;
  }
  const ok = done.filter((r) => r.status === 'ok');
  const other = ok.filter((r) => r.contentDigest && r.contentDigest !== build.digest);
  const unrecorded = ok.filter((r) => !r.contentDigest);
  const why = 'builds made before 2026-12-02, or with another ffmpeg or x264, differ; the report marks the cells that mix builds';
  if (other.length) print(`note: ${other.length} playback(s) already in the run directory played another build of ${scenario.content} (${[...new Set(other.map((r) => r.contentDigest))].join(', ')}) than this one (${build.digest}): ${why}`);
  if (unrecorded.length) print(`note: ${unrecorded.length} playback(s) already in the run directory record no content build (made before the lab recorded builds): whether they played this build of ${scenario.content} (${build.digest}) cannot be told; ${why}`);
  return build.digest;
}

async function runScenario(o) {
  const print = o.print || ((line) => process.stderr.write(`${line}\n`));
  const { scenario, signal } = o;
  const { all, playbacks } = selectPlaybacks(scenario, o.only, o.shard || null);
  if (o.emulate) {
    requireRoot();
    refuseUnavailableCongestionControls(scenario, playbacks);
    if (o.captureBytes) requireTcpdump();
  }
  // The capture runs in the client namespace: loopback has none.
  else if (o.captureBytes) throw new Error(NEEDS_EMULATION);
  // The flows run between the link's namespaces: loopback has none.
  else if (scenario.competingFlows) throw new Error(`${scenario.name} has competingFlows, which run through the link emulator only: run it without --no-emulation`);
  const rd = openRunDirectory(o.runDir, scenario);
  recordContentShares(scenario, o);
  const { todo, skipped, expectedSeconds } = remainingPlaybacks(playbacks, rd.read());
  const order = all.map((x) => x.id); // of results.csv

  print(`${scenario.name}${o.shard ? ` shard ${o.shard.index}/${o.shard.count}` : ''}: ${playbacks.length} playbacks (${skipped} already done), ${todo.length} to run, about ${formatSeconds(expectedSeconds)} (m:ss)`);
  print(`run directory: ${o.runDir}`);
  if (o.emulate) {
    const notice = leftoverNotice();
    if (notice) print(notice);
  } else {
    print(`warning: running WITHOUT network emulation (--no-emulation): every playback uses loopback; network profiles and switch schedules are ignored${scenario.initialWindow !== undefined ? ', and so is initialWindow' : ''}`);
  }

  const code = codeVersion();
  if (!code.commit) print(`note: the playbacks record no commit (${code.why}), so a report cannot tell which of them predate a fix in results/known-fixes.json`);
  else if (code.dirty) print(`note: the work tree has uncommitted changes on top of ${code.commit.slice(0, 7)}; the playbacks record that (commitDirty)`);
  const contentDigest = scenario.throughput ? null : recordedContentBuild(scenario, o, rd.read(), print);
  const venue = await openVenue(o);
  const bar = createProgressBar(scenario.name);
  let doneSeconds = 0;
  let ran = 0;
  let interrupted = false;
  try {
    for (const [i, p] of todo.entries()) {
      if (signal && signal.aborted) {
        interrupted = true;
        break;
      }
      const label = `[${i + 1}/${todo.length}] ${p.id}`;
      bar.update(doneSeconds / expectedSeconds, label);
      // Which processes play it, for whoever watches them (and the fault test, which kills them).
      const onPlaying = ({ originPid, serverNs, chromiumPid, clientNs }) => {
        if (!o.verbose) return;
        bar.done();
        print(`${label} playing: origin PID ${originPid}${serverNs ? ` in ${serverNs}` : ' (this process)'}, Chromium PID ${chromiumPid}${clientNs ? ` in ${clientNs}` : ''}`);
      };
      // A playback lasts minutes (a throughput run 8.5): the bar moves during it, by the clock
      // against the playback's expected time, stopping short of its end until it has ended.
      const playbackStarted = Date.now();
      const tick = setInterval(() => {
        const within = Math.min((Date.now() - playbackStarted) / 1000, 0.99 * p.expectedSeconds);
        bar.update((doneSeconds + within) / expectedSeconds, label);
      }, PROGRESS_TICK_MS);
      tick.unref();
      let record;
      try {
        ({ record } = await playUntilOnTime(() => playAndRecord(p, { scenario, venue, rd, emulated: Boolean(o.emulate), signal, onPlaying, code, contentDigest, captureBytes: o.captureBytes }), {
          limitMs: o.lateLimitMs ?? null,
          retries: o.lateRetries ?? 0,
          setAside: rd.setAside, // uses no `this`: run-directory.js closes over its dir
          print: (line) => { bar.done(); print(line); },
          label,
        }));
      } finally {
        clearInterval(tick);
      }
      if (!record) {
        interrupted = true;
        break;
      }
      rd.write(record);
      rd.writeCsv(order);
      ran += 1;
      doneSeconds += p.expectedSeconds;
      bar.done();
      print(outcomeLine(label, record));
    }
  } finally {
    bar.done();
    await venue.close();
  }
  const records = rd.writeCsv(order);
  return { planned: playbacks.length, ran, ...tallyPlaybacks(playbacks, records), skipped, records, interrupted };
}

module.exports = { recordedContentBuild, runScenario };
