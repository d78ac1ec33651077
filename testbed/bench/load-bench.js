#!/usr/bin/env node
'use strict';
// npm run bench:load: N simulated players (HTTP/1.1, h2, DataChannel) fetch MPD, init and
// segments at media pace from a fresh origin process on loopback for T minutes; first alone
// (clean), then with abusive clients mixed in (non-readers, slowloris, h2 rapid reset). Prints
// per phase and protocol the requests, errors, TTFB p50/p99 and bytes, the players' TTFB p99
// under abuse against clean (PASS at most 2x), the origin's RSS and fds over time (flat or
// growing) and its CPU per delivered Gbit. Everything on loopback, bounded, stops by itself.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork } = require('node:child_process');
const { setMaxListeners } = require('node:events');
const { parseArgs } = require('node:util');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { loadContentPlan } = require('./load/content-plan');
const { startOriginProcess } = require('../origin-process');
const { sampleProcess } = require('./load/process-sampler');
const { parseMix, splitPlayers, PROTOCOLS, MAX_DATACHANNEL_PLAYERS } = require('./load/player-mix');
const { parseAbuse, DEFAULT_ABUSE } = require('./load/abuse-options');
const { openHttp11Connection } = require('./load/http11-connection');
const { openH2Connection } = require('./load/h2-connection');
const { openDataChannelConnection } = require('./load/datachannel-connection');
const { runMediaPacePlayer, STARTUP_SEGMENTS, REQUEST_TIMEOUT_MS } = require('./load/media-pace-player');
const { summarizeRequests, compareP99, resourceTrend, cpuPerGbit, MAX_P99_RATIO } = require('./load/load-summary');
const { originLogByPhase } = require('./load/origin-log-by-phase');
const { summarize } = require('./load/percentiles');
const report = require('./load/report-tables');
const { planPlacement, pinProcess, deprioritize, describePlacement } = require('./load/cpu-placement');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
const SAMPLE_EVERY_MS = 2000;
const PROGRESS_EVERY_MS = 10000;
const MAX_WARMUP_MS = 10000;
// After the players and abusers have gone, the origin's fds should be back where they started:
// sampled at once and again past the origin's 60 s HTTP/2 session timeout, so what is only
// waiting for a timeout can be told from what is never given back.
const AFTER_RUN_SAMPLES_S = [5, 65];
// The first minute of a phase (a quarter at most) settles: the origin's heap grows to its
// working size, the abusers connect. A trend is fitted to the rest.
const SETTLE_S = 60;

const USAGE = `Usage: npm run bench:load -- [options]
       node testbed/bench/load-bench.js [options]

Starts a fresh origin (its own process, loopback, any free ports) and runs N simulated players
against it for T minutes: each fetches the MPD, an init segment and segments of one
representation (the players spread evenly over the ladder), a startup burst of
${STARTUP_SEGMENTS} segments and then one segment per segment duration, starting over at the end of the
content. HTTP/1.1 players use one keep-alive connection each, h2 players one HTTP/2 session
each (TLS, the origin's certificate), DataChannel players one FDSP session each
(node-datachannel, BP 100, no deadline). The first ${MAX_WARMUP_MS / 1000} s at most (10 % of the run) are a
warm-up while the players start one after another; the rest is split into a clean phase
(players alone) and an abuse phase (the same players plus abusive clients from a separate
process):
  nonreaders  ask for 8 top-rung segments per connection and never read (half HTTP/1.1,
              pipelined; half h2, with a 16 MiB flow-control window)
  slowloris   send a request's headers one byte every 2 s, never finishing (half on the
              HTTP/1.1 listener, half on the HTTP/1.0-style one)
  rapidreset  h2 connections opening and resetting 100 streams every 10 ms (CVE-2023-44487),
              reconnecting after the origin's GOAWAY
Each abusive client reconnects (after 1 s) when the origin ends it, until the phase ends.

Prints progress every ${PROGRESS_EVERY_MS / 1000} s, then per phase and protocol: requests, errors, TTFB p50/p99,
MB delivered and late segments; the players' TTFB p99 under abuse against clean (PASS when
every protocol's and all players' p99 is at most ${MAX_P99_RATIO}x the clean one); the origin's RSS and
open fds over time with a verdict per phase (flat or growing, from a least-squares slope
over the phase after its first minute), and both 5 s and 65 s after all clients left; its
CPU seconds per delivered Gbit.

Options:
  --players N       simulated players (default 100)
  --minutes T       length of the whole run, warm-up included (default 10; fractions allowed);
                    then about a minute more to see what the origin keeps once all clients left
  --content NAME    content directory under content/ (default sample; a preset name is built
                    first if absent, see npm run content -- --list)
  --mix SPEC        protocol weights, e.g. http11=45,h2=45,datachannel=10 (the default);
                    DataChannel players are at most ${MAX_DATACHANNEL_PLAYERS} (the origin's session limit), each
                    signalling from its own address 127.0.0.N (the origin allows 4 per address)
  --abuse SPEC      abusive connections held at once, e.g. nonreaders=${DEFAULT_ABUSE.nonreaders},slowloris=${DEFAULT_ABUSE.slowloris},rapidreset=${DEFAULT_ABUSE.rapidreset}
                    (the default); kinds not named keep their default, 0 leaves one out
  --no-abuse        players only: the whole run after the warm-up is one clean phase
  --no-pin          leave CPU placement to the scheduler (by default, with 2 or more CPUs, the
                    origin runs alone on the last CPU, the players on the others and the abusers
                    beside them at nice 19: the abusers then load the origin, not the players)
  --json FILE       also write every figure (and the origin samples) as JSON
  -h, --help        show this help

Exit status: 0 when the players saw no errors and the abuse phase passed; 1 on player errors,
FAIL, or a failure of the bench; 2 on bad options; 130 on Ctrl-C.
Everything runs on loopback and stops by itself; Ctrl-C ends the origin and the abusers.
The machine's other work shows in the figures: run it on an otherwise idle machine.
`;

class UsageError extends Error {}

function parseOptions(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        players: { type: 'string', default: '100' },
        minutes: { type: 'string', default: '10' },
        content: { type: 'string', default: 'sample' },
        mix: { type: 'string', default: 'http11=45,h2=45,datachannel=10' },
        abuse: { type: 'string', default: '' },
        'no-abuse': { type: 'boolean', default: false },
        'no-pin': { type: 'boolean', default: false },
        json: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    throw new UsageError(err.message);
  }
  if (values.help) return { help: true };
  const players = /^\d+$/.test(values.players) ? Number(values.players) : NaN;
  if (!(players >= 1 && players <= 2000)) throw new UsageError(`--players must be a whole number 1-2000, got "${values.players}"`);
  const minutes = Number(values.minutes);
  if (!(minutes >= 0.5 && minutes <= 240)) throw new UsageError(`--minutes must be 0.5-240, got "${values.minutes}"`);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(values.content)) throw new UsageError(`--content must be a content directory name, got "${values.content}"`);
  let counts;
  let abuse;
  try {
    counts = splitPlayers(players, parseMix(values.mix));
    abuse = parseAbuse(values.abuse);
  } catch (err) {
    throw new UsageError(err.message);
  }
  if (values['no-abuse'] && values.abuse) throw new UsageError('--abuse and --no-abuse contradict each other');
  return { players, minutes, content: values.content, counts, abuse: values['no-abuse'] ? null : abuse, pin: !values['no-pin'], json: values.json ? path.resolve(values.json) : null };
}

async function ensureContentPresent(contentDir, name) {
  if (fs.existsSync(path.join(contentDir, name, 'index.json'))) return;
  let presets;
  try {
    presets = require('../../origin/content/presets').resolvePresetNames(name);
  } catch {
    throw new UsageError(`no content "${name}" in ${contentDir} and no preset of that name (npm run content -- --list)`);
  }
  const { buildIfAbsent } = require('../../origin/content/build-if-absent');
  for (const preset of presets) await buildIfAbsent(preset, contentDir, { who: 'bench:load' });
}

function log(line) {
  process.stderr.write(`bench:load: ${line}\n`);
}

async function run(o, cleanup) {
  const contentDir = path.join(REPO, 'content');
  await ensureContentPresent(contentDir, o.content);
  const plan = loadContentPlan(contentDir, o.content);

  const tmp = makeLabTempDir('load');
  cleanup.add(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const logFile = path.join(tmp, 'requests.ndjson');
  const origin = await startOriginProcess({ contentDir, dataDir: tmp, logFile });
  cleanup.add(() => origin.killNow());
  let placement = o.pin ? planPlacement(os.cpus().length) : null;
  if (placement) {
    try {
      pinProcess(origin.pid, placement.origin);
      pinProcess(process.pid, placement.clients);
    } catch (err) {
      log(`CPU placement failed, running unplaced: ${err.message}`);
      placement = null;
    }
  }
  log(describePlacement(placement));
  // However the run goes, it ends: a hung request is at most REQUEST_TIMEOUT_MS late, and the
  // wait after the run, the abusers' exit and reading the request log take about 2 minutes.
  const hardStop = setTimeout(() => {
    log('the run did not end in time; stopping');
    cleanup.run();
    process.exit(1);
  }, o.minutes * 60000 + REQUEST_TIMEOUT_MS + 300000);
  hardStop.unref();
  const ca = fs.readFileSync(origin.info.certFile);
  log(`origin pid ${origin.pid}: ${origin.urls.http11} (HTTP/1.1), ${origin.urls.http10} (HTTP/1.0-style), ${origin.urls.h2} (h2), ${origin.urls.fdsp}`);

  // Timeline (performance.now() ms): warm-up, clean, abuse.
  const totalMs = o.minutes * 60000;
  const warmupMs = Math.min(MAX_WARMUP_MS, totalMs * 0.1);
  const cleanMs = o.abuse ? (totalMs - warmupMs) / 2 : totalMs - warmupMs;
  const t0 = performance.now();
  const wall0 = Date.now();
  const cleanAt = t0 + warmupMs;
  const abuseAt = cleanAt + cleanMs;
  const endAt = t0 + totalMs;
  const phases = o.abuse ? ['warmup', 'clean', 'abuse'] : ['warmup', 'clean'];
  const phaseAt = (t) => (t < cleanAt ? 'warmup' : t < abuseAt || !o.abuse ? 'clean' : 'abuse');
  const seconds = (t) => (t - t0) / 1000;
  log(`${o.players} players (${PROTOCOLS.map((p) => `${p} ${o.counts[p]}`).join(', ')}) on "${o.content}" (${plan.rungs.length} representations, ${plan.durationSeconds.toFixed(0)} s): warm-up ${(warmupMs / 1000).toFixed(0)} s, clean ${(cleanMs / 1000).toFixed(0)} s${o.abuse ? `, abuse ${((endAt - abuseAt) / 1000).toFixed(0)} s (${Object.entries(o.abuse).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}`);

  // What the players record.
  const requests = [];
  const stalls = [];
  const setupRetries = [];
  let deliveredBytes = 0;
  const onBytes = (n) => {
    deliveredBytes += n;
  };

  // The origin, sampled. A boundary sample is stored for both phases, so each phase's CPU and
  // byte deltas run exactly from its start to its end.
  const samples = [];
  const idle = sampleProcess(origin.pid);
  const sample = (phases2 = [phaseAt(performance.now())]) => {
    let s;
    try {
      s = sampleProcess(origin.pid);
    } catch {
      return null; // gone; the progress check says so
    }
    const t = seconds(performance.now());
    for (const phase of phases2) samples.push({ t, phase, ...s, deliveredBytes });
    return s;
  };
  const sampler = setInterval(() => sample(), SAMPLE_EVERY_MS);
  cleanup.add(() => clearInterval(sampler));

  // The players' own event loop: its delay is added to every TTFB they measure.
  const eventLoop = monitorEventLoopDelay({ resolution: 10 });
  eventLoop.enable();
  const eventLoopByPhase = {};
  const closeEventLoopPhase = (phase) => {
    eventLoopByPhase[phase] = { p50Ms: eventLoop.percentile(50) / 1e6, p99Ms: eventLoop.percentile(99) / 1e6, maxMs: eventLoop.max / 1e6 };
    eventLoop.reset();
  };

  // Abusers: forked at the abuse phase's start.
  let abuseStats = null;
  let abuseDone = null;
  const startAbuse = () => {
    const child = fork(path.join(__dirname, 'load', 'abuse-process.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    cleanup.add(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    if (placement) {
      // Forked from this process, it inherits the clients' CPUs; it only needs to yield to the players.
      try {
        deprioritize(child.pid);
      } catch (err) {
        log(`could not lower the abusers' priority: ${err.message}`);
      }
    }
    abuseDone = new Promise((resolve) => {
      child.on('message', (m) => {
        if (m.type === 'progress' || m.type === 'done') abuseStats = m.stats;
        if (m.type === 'error') log(`abusive clients failed: ${m.message}`);
      });
      child.once('exit', resolve);
    });
    child.send({ urls: origin.urls, plan, abuse: o.abuse, durationMs: endAt - performance.now() });
    log(`abuse phase: abusive clients started (pid ${child.pid})`);
    return child;
  };
  let abuseChild = null;

  const boundaries = [setTimeout(() => {
    sample(['warmup', 'clean']);
    closeEventLoopPhase('warmup');
  }, cleanAt - performance.now())];
  if (o.abuse) {
    boundaries.push(setTimeout(() => {
      sample(['clean', 'abuse']);
      closeEventLoopPhase('clean');
      abuseChild = startAbuse();
    }, abuseAt - performance.now()));
  }
  cleanup.add(() => boundaries.forEach(clearTimeout));

  // Progress every 10 s; a dead origin ends the run.
  const controller = new AbortController();
  // Every player waits on this one signal.
  setMaxListeners(0, controller.signal);
  cleanup.add(() => controller.abort());
  let lastCount = 0;
  let lastBytes = 0;
  let lastTick = t0;
  let originDied = null;
  const progress = setInterval(() => {
    const now = performance.now();
    if (!origin.alive) {
      originDied = `the origin exited during the run:\n${origin.stderrTail().trim()}`;
      controller.abort();
      return;
    }
    const fresh = requests.slice(lastCount);
    const errors = requests.filter((r) => r.error).length;
    const recent = summarize(fresh.filter((r) => !r.error).map((r) => r.ttfbMs));
    const mbit = ((deliveredBytes - lastBytes) * 8) / ((now - lastTick) / 1000) / 1e6;
    const s = samples[samples.length - 1];
    const abuse = abuseStats ? `; abusers: ${abuseStats.nonreaders.connections} non-reader, ${abuseStats.slowloris.connections} slowloris connections, ${abuseStats.rapidreset.streams} reset streams` : '';
    log(`[${seconds(now).toFixed(0)}/${(totalMs / 1000).toFixed(0)} s ${phaseAt(now)}] ${requests.length} requests (+${fresh.length}), ${errors} errors, TTFB p99 ${report.ms(recent.p99)} ms (last ${((now - lastTick) / 1000).toFixed(0)} s), ${mbit.toFixed(0)} Mbit/s; origin RSS ${s ? (s.rssBytes / 1048576).toFixed(0) : '?'} MiB, ${s ? s.fds : '?'} fds${abuse}`);
    lastCount = requests.length;
    lastBytes = deliveredBytes;
    lastTick = now;
  }, PROGRESS_EVERY_MS);
  cleanup.add(() => clearInterval(progress));

  // The players.
  const connections = [];
  const runs = [];
  let index = 0;
  let dcAddress = 2;
  for (const protocol of PROTOCOLS) {
    for (let i = 0; i < o.counts[protocol]; i += 1, index += 1) {
      let connection;
      if (protocol === 'http11') connection = openHttp11Connection(origin.urls.http11, { onBytes });
      else if (protocol === 'h2') connection = openH2Connection(origin.urls.h2, { ca, onBytes });
      else connection = openDataChannelConnection(origin.urls.fdsp, { localAddress: `127.0.0.${dcAddress++}`, onBytes, onSetupRetry: (message) => setupRetries.push({ phase: phaseAt(performance.now()), message }) });
      connections.push(connection);
      runs.push(runMediaPacePlayer({
        protocol,
        connection,
        mpdPath: plan.mpdPath,
        rung: plan.rungs[index % plan.rungs.length],
        // Interleaved over the warm-up, so no protocol starts all at once.
        startAt: t0 + (warmupMs * ((index * 7919) % o.players)) / o.players,
        until: endAt,
        signal: controller.signal,
        record: (r) => requests.push({ ...r, phase: phaseAt(r.startedAt) }),
        stall: (s) => stalls.push({ ...s, phase: phaseAt(s.at) }),
      }));
    }
  }
  cleanup.add(() => connections.forEach((c) => c.close()));
  await Promise.all(runs);
  if (originDied) throw new Error(originDied);
  sample([phases[phases.length - 1]]);
  closeEventLoopPhase(phases[phases.length - 1]);
  clearInterval(progress);
  clearInterval(sampler);
  eventLoop.disable();

  // Clients gone, then the origin's state once more: what it still holds is what it kept.
  for (const c of connections) c.close();
  if (abuseChild) {
    const timer = setTimeout(() => abuseChild.kill('SIGKILL'), 10000);
    await abuseDone;
    clearTimeout(timer);
  }
  const after = [];
  for (const s of AFTER_RUN_SAMPLES_S) {
    await new Promise((r) => setTimeout(r, (s - (after.length ? after[after.length - 1].seconds : 0)) * 1000));
    after.push({ seconds: s, ...sampleProcess(origin.pid) });
    log(`${s} s after all clients left: origin RSS ${(after[after.length - 1].rssBytes / 1048576).toFixed(0)} MiB, ${after[after.length - 1].fds} fds`);
  }
  await origin.close();
  const wallBoundary = (t) => wall0 + (t - t0);
  const originLog = await originLogByPhase(logFile, (ms) => phaseAt(t0 + (ms - wall0)));

  const byPhase = summarizeRequests(requests, stalls, phases, PROTOCOLS);
  const comparison = o.abuse ? compareP99(byPhase, PROTOCOLS.filter((p) => o.counts[p] > 0)) : null;
  const phaseSeconds = { clean: cleanMs / 1000, abuse: (endAt - abuseAt) / 1000 };
  const trends = Object.fromEntries(phases.filter((p) => p !== 'warmup').map((p) => [p, resourceTrend(samples, p, Math.min(SETTLE_S, phaseSeconds[p] / 4))]));
  const cpu = Object.fromEntries(phases.map((p) => [p, cpuPerGbit(samples, p)]));
  const playerErrors = requests.filter((r) => r.error).length;
  return {
    config: { players: o.players, minutes: o.minutes, content: o.content, counts: o.counts, abuse: o.abuse, rungs: plan.rungs.map((r) => r.bandwidth), startupSegments: STARTUP_SEGMENTS, requestTimeoutMs: REQUEST_TIMEOUT_MS, cpus: os.cpus().length, placement: describePlacement(placement), loadAverageAtEnd: os.loadavg(), node: process.version },
    phases: Object.fromEntries(phases.map((p) => [p, { from: new Date(wallBoundary(p === 'warmup' ? t0 : p === 'clean' ? cleanAt : abuseAt)).toISOString() }])),
    byPhase,
    comparison,
    origin: { idle, after, samples, trends, cpu, log: originLog },
    clientEventLoop: eventLoopByPhase,
    dataChannelSetupRetries: setupRetries,
    abuseStats,
    playerErrors,
    pass: playerErrors === 0 && (comparison ? comparison.pass : true),
  };
}

function print(result, o) {
  const out = [];
  const phases = Object.keys(result.phases);
  const used = PROTOCOLS.filter((p) => o.counts[p] > 0);
  out.push('', `Players per phase and protocol (TTFB = request start to response headers / the FDSP HEAD frame; late segments = arrived after their playout time):`, report.requestsTable(result.byPhase, phases, used, o.counts));
  const errorLines = phases.flatMap((p) => Object.entries(result.byPhase[p].all.errorMessages).map(([m, n]) => `  ${p}: ${n} x ${m}`));
  if (errorLines.length) out.push('', 'Player errors:', ...errorLines.slice(0, 20));
  if (result.dataChannelSetupRetries.length) {
    const byMessage = {};
    for (const r of result.dataChannelSetupRetries) byMessage[`${r.phase}: ${r.message}`] = (byMessage[`${r.phase}: ${r.message}`] || 0) + 1;
    out.push('', 'DataChannel session setups that failed on the client side and were retried (not counted as errors unless all 3 attempts failed):', ...Object.entries(byMessage).map(([m, n]) => `  ${n} x ${m}`));
  }
  if (result.comparison) out.push('', 'Players\' TTFB p99, abuse phase against clean:', report.comparisonTable(result.comparison), `=> ${result.comparison.pass ? 'PASS' : 'FAIL'}: abusive clients ${result.comparison.pass ? 'did not raise' : 'raised'} the players' TTFB p99 above ${result.comparison.maxRatio}x its clean value`);
  const s = result.origin.samples;
  const trendPhases = Object.keys(result.origin.trends);
  const afterText = (f) => result.origin.after.map((a) => `${a.seconds} s after all clients left: ${f(a)}`).join('; ');
  out.push('', `Origin RSS (MiB), sampled every ${SAMPLE_EVERY_MS / 1000} s (idle before the players: ${(result.origin.idle.rssBytes / 1048576).toFixed(0)}; ${afterText((a) => (a.rssBytes / 1048576).toFixed(0))}):`, report.seriesLines(s, phases, 'rssBytes', (v) => (v / 1048576).toFixed(0)));
  out.push(`  verdicts from each phase without its first ${SETTLE_S} s (a quarter at most: the heap growing to its working size, the abusers connecting):`);
  for (const p of trendPhases) out.push(`  ${p}: ${report.trendText(result.origin.trends[p].rss, 'MiB', 1048576)}`);
  out.push('', `Origin open fds (idle before the players: ${result.origin.idle.fds}; ${afterText((a) => a.fds)}):`, report.seriesLines(s, phases, 'fds', (v) => String(v)));
  for (const p of trendPhases) out.push(`  ${p}: ${report.trendText(result.origin.trends[p].fds, 'fds', 1)}`);
  out.push('', 'Origin CPU per delivered Gbit (players\' bytes only; the abusers\' count as cost, not delivery):', report.cpuTable(result.origin.cpu, phases));
  const el = result.clientEventLoop;
  out.push('', `Players' own event loop delay p99 (added to every TTFB they measure): ${phases.filter((p) => el[p]).map((p) => `${p} ${el[p].p99Ms.toFixed(1)} ms`).join(', ')}`);
  if (result.abuseStats) {
    const a = result.abuseStats;
    const goaways = Object.entries(a.rapidreset.goaways).map(([code, n]) => `${n} x code ${code}`).join(', ') || 'none';
    const errs = (e) => (Object.keys(e).length ? `; connect errors ${JSON.stringify(e)}` : '');
    out.push('', 'Abusive clients:',
      `  non-readers: ${a.nonreaders.connections} connections, ${a.nonreaders.closedByServer} seen closed by the origin${errs(a.nonreaders.errors)}`,
      `  slowloris:   ${a.slowloris.connections} connections, ${a.slowloris.closedByServer} closed by the origin (${a.slowloris.answered408} with 408), held ${a.slowloris.closedByServer ? (a.slowloris.secondsHeld / a.slowloris.closedByServer).toFixed(1) : '-'} s on average${errs(a.slowloris.errors)}`,
      `  rapid reset: ${a.rapidreset.connections} connections, ${a.rapidreset.streams} streams opened and reset, GOAWAY ${goaways}${errs(a.rapidreset.errors)}`);
  }
  const logRows = [];
  for (const p of phases) {
    for (const [listener, r] of Object.entries(result.origin.log[p] || {})) logRows.push([p, listener, r.responses, r.aborted, Object.entries(r.statuses).map(([k, n]) => `${k}: ${n}`).join(', ')]);
  }
  if (logRows.length) out.push('', 'Origin request log (players and abusers):', report.table(['phase', 'listener', 'responses', 'aborted', 'statuses'], logRows));
  out.push('', `${result.pass ? 'OK' : 'NOT OK'}: ${result.playerErrors} player errors${result.comparison ? `; abuse ${result.comparison.pass ? 'PASS' : 'FAIL'}` : ''}. ${os.cpus().length} CPUs (${result.config.placement}), load average at the end ${os.loadavg().map((v) => v.toFixed(1)).join(' ')}.`);
  process.stdout.write(`${out.join('\n')}\n`);
}

/** Exit paths run these, once, in reverse order: the origin and the abusers never outlive us. */
function createCleanup() {
  const steps = [];
  let done = false;
  return {
    add: (fn) => steps.push(fn),
    run() {
      if (done) return;
      done = true;
      for (const fn of steps.reverse()) {
        try {
          fn();
        } catch { /* best effort on the way out */ }
      }
    },
  };
}

async function main(argv) {
  let o;
  try {
    o = parseOptions(argv);
  } catch (err) {
    process.stderr.write(`bench:load: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (o.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const cleanup = createCleanup();
  process.on('exit', () => cleanup.run());
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      log(`${signal}: stopping the origin and the abusive clients`);
      cleanup.run();
      process.exit(130);
    });
  }
  try {
    const result = await run(o, cleanup);
    print(result, o);
    if (o.json) {
      fs.writeFileSync(o.json, `${JSON.stringify(result, null, 1)}\n`);
      log(`figures written to ${o.json}`);
    }
    return result.pass ? 0 : 1;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`bench:load: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`bench:load: ${err.stack || err.message}\n`);
    return 1;
  } finally {
    cleanup.run();
  }
}

// Exit explicitly: node-datachannel's threads would keep the process up, and its cleanup()
// right after closing peers has crashed (see test/integration/origin-datachannel.test.js).
main(process.argv.slice(2)).then((code) => process.exit(code));
