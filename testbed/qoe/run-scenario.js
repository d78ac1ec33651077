'use strict';
// Runs a scenario's playbacks one after another (2 shared cores: parallel playbacks would
// measure each other), each in a fresh emulated link, a fresh origin process in the server
// namespace and a fresh Chromium in the client namespace, and records each one as it ends.
// A failed playback is recorded with its error and the run goes on; a playback recorded "ok"
// is not run again when the run is resumed.
const fs = require('node:fs');
const { expandMatrix } = require('../scenario/expand-matrix');
const { profileToLinkSettings, describeProfile, mergeProfile } = require('../scenario/network-profile');
const { createEmulatedLink, setCongestionControl, requireRoot } = require('../netem/namespace-link');
const { leftoverNotice } = require('../netem/leftover-namespaces');
const { readEndpointDrops, diffDrops } = require('../netem/endpoint-drops');
const { startOriginInNamespace } = require('./origin-in-namespace');
const { runPlayback } = require('../run-playback');
const { describeExit } = require('../chromium');
const { openRunDirectory } = require('./run-directory');
const { playbackMetrics } = require('./playback-metrics');
const { summarizeRequestLog, readRequestLog } = require('./origin-log-summary');
const { createProgressBar, formatSeconds } = require('../../origin/content/progress-bar');
const { startOrigin } = require('../../origin/start-origin');

/** Counters after minus counters before, leaf by leaf (maxima are kept as they are). */
function diffCounters(after, before) {
  const out = {};
  for (const [k, v] of Object.entries(after || {})) {
    if (typeof v === 'number') out[k] = /max/i.test(k) ? v : v - ((before && before[k]) || 0);
    else out[k] = diffCounters(v, before && before[k]);
  }
  return out;
}

/** "transport=h2,abr=bba2" -> predicate over playbacks (keys: transport, abr, network, seek, switch, repetition, id) */
function parseOnly(text) {
  if (!text) return () => true;
  const conds = text.split(',').map((part) => {
    const m = /^\s*(transport|abr|network|seek|switch|repetition|id)\s*=\s*(.+?)\s*$/.exec(part);
    if (!m) throw new Error(`--only "${part}" is not KEY=VALUE with KEY one of transport, abr, network, seek, switch, repetition, id`);
    return [m[1], m[2]];
  });
  const value = (p, key) => ({ transport: p.transport, abr: p.abr.label, network: p.network, seek: p.seekSchedule, switch: p.switchSchedule, repetition: String(p.repetition), id: p.id })[key];
  // Same key twice = either value; different keys = all must hold.
  return (p) => Object.entries(conds.reduce((acc, [k, v]) => ({ ...acc, [k]: [...(acc[k] || []), v] }), {}))
    .every(([k, values]) => values.includes(value(p, k)));
}

// When late timers are worth a WARNING. A handful of delays under 20 ms in a 10-minute playback
// (tens of thousands of packets) happen on this 2-core machine even with nothing else running and
// move no figure; many late timers, or long ones, mean the run competed for CPU and its delays and
// rates were not the configured ones.
const LATE_WARN_MAX_MS = 20;
const LATE_WARN_SHARE = 0.001;

function describeLateTimers(late, counters) {
  const packets = ['toClient', 'toServer'].reduce((n, d) => n + ((counters[d] && counters[d].packetsOut) || 0), 0);
  const text = `emulator timers late ${late.count}x (max ${late.maxMs.toFixed(1)} ms)`;
  const serious = late.maxMs > LATE_WARN_MAX_MS || !(packets > 0) || late.count / packets > LATE_WARN_SHARE;
  return serious ? `WARNING: ${text}; the machine was too busy` : text;
}

function describeOutcome(r) {
  if (r.status !== 'ok') {
    const v = r.diagnostics && r.diagnostics.video;
    const where = v ? ` (page ${r.diagnostics.labState}: media time ${v.currentTime.toFixed(1)} s${v.duration !== null ? ` of ${v.duration.toFixed(1)}` : ''}, buffered ${v.buffered.map(([a, b]) => `${a}-${b}`).join(' ') || 'nothing'}, ${v.paused ? 'paused' : 'playing'}${v.ended ? ', ended' : ''}, readyState ${v.readyState}${v.error ? `, error ${v.error}` : ''})` : '';
    return `FAILED: ${r.error}${where}`;
  }
  const s = r.summary;
  const parts = [
    `startup ${s.startupDelaySeconds === null ? '-' : s.startupDelaySeconds.toFixed(2)} s`,
    `rebuffer ${(100 * s.rebufferRate).toFixed(1)} % (${s.rebufferInstances}x)`,
    `${s.averagePlaybackBitrate === null ? '-' : (s.averagePlaybackBitrate / 1e6).toFixed(2)} Mbit/s`,
  ];
  if (s.meanSeekWaitSeconds !== null) parts.push(`seek wait ${s.meanSeekWaitSeconds.toFixed(2)} s`);
  if (r.metrics && r.metrics.linkUtilization !== null) parts.push(`link use ${(100 * r.metrics.linkUtilization).toFixed(0)} %`);
  // The emulator itself fell behind (a delivery timer fired > 5 ms late): say so where it is seen.
  const late = r.counters && r.counters.lateTimers;
  if (late && late.count > 0) parts.push(describeLateTimers(late, r.counters));
  // Loss nobody configured: a full socket buffer in the browser or the origin.
  const d = r.endpointDrops;
  const endpoint = d ? d.client.udp.RcvbufErrors + d.server.udp.RcvbufErrors + d.client.tun.txDropped + d.server.tun.txDropped : 0;
  if (endpoint > 0) parts.push(`WARNING: ${endpoint} packets dropped at the endpoints (socket buffers), outside the emulator`);
  const t = s.transport;
  if (t && t.plr !== undefined && t.unreliableChunks > 0) parts.push(`PLR ${(100 * t.plr).toFixed(2)} %`);
  return parts.join(', ');
}

/** One playback through the emulator. Everything it starts is ended before it returns. */
async function runEmulatedPlayback(p, ctx) {
  const settings = profileToLinkSettings(p.profile, { repetition: p.repetition });
  let link = null;
  let origin = null;
  let poll = null;
  const timers = [];
  try {
    // The page and its scripts (dash.js alone is 800 KB) load over a clean link: at paper 003's
    // 100 kbit/s they would take a minute and are not part of the experiment. The profile
    // applies from the playback's start (beforeStart below).
    link = await createEmulatedLink({ index: ctx.linkIndex, toClient: {}, toServer: {} });
    setCongestionControl(link.serverNs, ctx.scenario.congestionControl);
    origin = await startOriginInNamespace({
      netns: link.serverNs, host: link.serverIp, contentDir: ctx.contentDir, dataDir: ctx.dataDir, logFile: ctx.logFile,
    });
    let before = null;
    let dropsBefore = null;
    let linkClockWallMs = null;
    const switchLog = [];
    // Downlink bytes over time (wall ms, bytes delivered since the start): the wire side of
    // throughput plots, and of overhead up to the last finished response.
    const wireSeries = [];
    const result = await runPlayback({
      pageBase: origin.pageBase,
      netns: link.clientNs,
      config: ctx.playerConfig,
      timeoutMs: p.timeoutSeconds * 1000,
      signal: ctx.signal,
      // An origin that dies (killed, crashed) ends the playback at once: the player would
      // retry for the whole timeout, or finish from its buffer and look like a result.
      failWhen: origin.exited.then((e) => {
        const said = origin.stderrTail();
        return new Error(`the origin exited (${describeExit(e)}) during the playback${said ? `; its last stderr: ${said.slice(-500)}` : ''}`);
      }),
      onPlaying: ({ chromiumPid }) => ctx.onPlaying({ originPid: origin.pid, serverNs: link.serverNs, chromiumPid, clientNs: link.clientNs }),
      beforeStart: async () => {
        before = await link.counters();
        dropsBefore = readEndpointDrops(link);
        // The schedules (rate traces, square waves, outages) start with the playback.
        const downIntervals = p.switches.filter((e) => e.outageSeconds > 0)
          .map((e) => ({ fromMs: e.atSeconds * 1000, toMs: (e.atSeconds + e.outageSeconds) * 1000 }));
        await link.configure('toClient', { ...settings.toClient, downIntervals, timeOriginMs: 'now' });
        await link.configure('toServer', { ...settings.toServer, downIntervals, timeOriginMs: 'now' });
        linkClockWallMs = Date.now();
        poll = setInterval(() => {
          link.counters().then((c) => wireSeries.push([Date.now(), c.toClient.bytesOut - before.toClient.bytesOut]), () => {});
        }, 200);
        for (const e of p.switches) {
          timers.push(setTimeout(() => {
            const next = profileToLinkSettings(mergeProfile(ctx.scenario.profiles[e.network], p.abr.link), { repetition: p.repetition });
            // The wall time too, to line the switch up with the origin's request log.
            const now = Date.now();
            const entry = { atSeconds: (now - linkClockWallMs) / 1000, at: new Date(now).toISOString(), network: e.network, clientIp: null };
            try {
              if (e.newAddress) entry.clientIp = link.switchClientAddress();
              link.configure('toClient', next.toClient).catch((err) => { entry.error = err.message; });
              link.configure('toServer', next.toServer).catch((err) => { entry.error = err.message; });
            } catch (err) {
              entry.error = err.message;
            }
            switchLog.push(entry);
          }, e.atSeconds * 1000));
        }
      },
    });
    clearInterval(poll);
    if (link.broken) throw new Error(`the emulated link broke during the playback: ${link.broken}`);
    const after = await link.counters();
    const counters = diffCounters(after, before);
    const endpointDrops = diffDrops(readEndpointDrops(link), dropsBefore);
    wireSeries.push([Date.now(), counters.toClient.bytesOut]);
    return {
      qoe: result.qoe,
      pageErrors: result.pageErrors,
      console: result.console,
      counters,
      endpointDrops,
      countersPageLoad: before,
      switchLog,
      pageToLinkMs: result.pageTimeOrigin - linkClockWallMs,
      wireSeries: wireSeries.map(([wall, bytes]) => [Math.round(wall - result.pageTimeOrigin), bytes]),
    };
  } finally {
    clearInterval(poll);
    for (const t of timers) clearTimeout(t);
    if (origin) await origin.close().catch(() => {});
    if (link) await link.close().catch(() => {});
  }
}

/** Without emulation (asked for explicitly): loopback, one in-process origin for the run. */
async function runLoopbackPlayback(p, ctx) {
  ctx.currentLog.length = 0;
  const result = await runPlayback({
    pageBase: ctx.loopbackOrigin.urls.http11,
    config: ctx.playerConfig,
    timeoutMs: p.timeoutSeconds * 1000,
    signal: ctx.signal,
    onPlaying: ({ chromiumPid }) => ctx.onPlaying({ originPid: process.pid, serverNs: null, chromiumPid, clientNs: null }),
  });
  fs.writeFileSync(ctx.logFile, ctx.currentLog.map((e) => JSON.stringify(e)).join('\n') + (ctx.currentLog.length ? '\n' : ''));
  return { qoe: result.qoe, pageErrors: result.pageErrors, console: result.console, counters: null, switchLog: [], pageToLinkMs: 0 };
}

/**
 * @param {object} o
 * @param {object} o.scenario     normalized (validate-scenario.js)
 * @param {string} o.runDir
 * @param {boolean} o.emulate     false: loopback, no network profile applied
 * @param {string} o.contentDir, o.dataDir
 * @param {string} [o.only]       filter, "transport=h2,abr=bba2"
 * @param {AbortSignal} [o.signal]
 * @param {boolean} [o.verbose]   print each playback's processes (PIDs, namespaces) as it starts
 * @param {(line: string) => void} [o.print]
 * @returns {Promise<{planned: number, ran: number, ok: number, failed: number, skipped: number, records: object[], interrupted: boolean}>}
 */
async function runScenario(o) {
  const print = o.print || ((line) => process.stderr.write(`${line}\n`));
  const { scenario } = o;
  const all = expandMatrix(scenario);
  const playbacks = all.filter(parseOnly(o.only));
  if (!playbacks.length) throw new Error(`--only "${o.only}" matches none of the scenario's ${all.length} playbacks`);
  if (o.emulate) requireRoot();
  const rd = openRunDirectory(o.runDir, scenario);
  const previous = new Map(rd.read().map((r) => [r.id, r]));
  const todo = playbacks.filter((p) => !(previous.get(p.id) && previous.get(p.id).status === 'ok'));
  const totalSeconds = todo.reduce((a, p) => a + p.expectedSeconds, 0);
  print(`${scenario.name}: ${playbacks.length} playbacks (${playbacks.length - todo.length} already done), ${todo.length} to run, about ${formatSeconds(totalSeconds)} (m:ss)`);
  print(`run directory: ${o.runDir}`);
  if (o.emulate) {
    const notice = leftoverNotice();
    if (notice) print(notice);
  }
  if (!o.emulate) print('warning: running WITHOUT network emulation (--no-emulation): every playback uses loopback; network profiles and switch schedules are ignored');

  const ctx = {
    scenario,
    contentDir: o.contentDir,
    dataDir: o.dataDir,
    signal: o.signal,
    linkIndex: 40 + (process.pid % 150),
    currentLog: [],
  };
  if (!o.emulate) {
    ctx.loopbackOrigin = await startOrigin({ host: '127.0.0.1', http11Port: 0, http10Port: 0, h2Port: 0, contentDir: o.contentDir, dataDir: o.dataDir, log: (e) => ctx.currentLog.push(e) });
  }
  const bar = createProgressBar(scenario.name);
  let doneSeconds = 0;
  let ran = 0;
  let interrupted = false;
  try {
    for (const [i, p] of todo.entries()) {
      if (o.signal && o.signal.aborted) {
        interrupted = true;
        break;
      }
      const label = `[${i + 1}/${todo.length}] ${p.id}`;
      bar.update(doneSeconds / totalSeconds, label);
      // Which processes play it, for whoever watches them (and the fault test, which kills them).
      ctx.onPlaying = ({ originPid, serverNs, chromiumPid, clientNs }) => {
        if (!o.verbose) return;
        bar.done();
        print(`${label} playing: origin PID ${originPid}${serverNs ? ` in ${serverNs}` : ' (this process)'}, Chromium PID ${chromiumPid}${clientNs ? ` in ${clientNs}` : ''}`);
      };
      ctx.logFile = rd.logFile(p.id);
      // A playback run again (failed before) starts a fresh log: the origin appends.
      fs.rmSync(ctx.logFile, { force: true });
      ctx.playerConfig = {
        content: scenario.content,
        transport: p.transportName,
        ...(p.bp !== null ? { bp: p.bp } : {}),
        abr: p.abr.name,
        abrParams: p.abr.params,
        seeks: p.seeks,
        stopAt: p.durationSeconds,
        keepBitrateOnSeek: scenario.keepBitrateOnSeek,
      };
      const startedAt = new Date();
      const record = {
        id: p.id,
        scenario: scenario.name,
        transport: p.transport,
        transportName: p.transportName,
        bp: p.bp,
        abr: p.abr.label,
        abrName: p.abr.name,
        abrParams: p.abr.params,
        network: p.network,
        networkDescription: o.emulate ? describeProfile(p.profile) : 'loopback (no emulation)',
        profile: o.emulate ? p.profile : null,
        seekSchedule: p.seekSchedule,
        switchSchedule: p.switchSchedule,
        repetition: p.repetition,
        emulated: Boolean(o.emulate),
        congestionControl: o.emulate ? scenario.congestionControl : null,
        playerConfig: ctx.playerConfig,
        startedAt: startedAt.toISOString(),
      };
      try {
        const out = await (o.emulate ? runEmulatedPlayback(p, ctx) : runLoopbackPlayback(p, ctx));
        const pageErrors = out.pageErrors.filter(Boolean);
        Object.assign(record, {
          // Errors the player recovered from (a request that failed during a link outage and
          // was retried) stay in qoe.errors and the summary; they do not fail the playback.
          status: 'ok',
          error: null,
          summary: out.qoe.summary,
          metrics: playbackMetrics({ qoe: out.qoe, counters: out.counters, rate: o.emulate ? p.profile.rate : null, pageToLinkMs: out.pageToLinkMs, wireSeries: out.wireSeries }),
          wireSeries: out.wireSeries || null,
          counters: out.counters,
          endpointDrops: out.endpointDrops || null,
          countersPageLoad: out.countersPageLoad || null,
          switchLog: out.switchLog,
          pageToLinkMs: out.pageToLinkMs,
          pageErrors,
          console: out.console.slice(0, 50),
          qoe: out.qoe,
        });
      } catch (err) {
        if (o.signal && o.signal.aborted) {
          interrupted = true;
          break; // an interrupted playback is not a result: resume runs it again
        }
        Object.assign(record, {
          status: 'failed',
          error: err.message,
          // The page's state at the failure and the QoE so far: not results, what to look into.
          ...(err.diagnostics ? { diagnostics: err.diagnostics } : {}),
          ...(err.partialQoe ? { partialQoe: err.partialQoe } : {}),
        });
      }
      record.wallSeconds = (Date.now() - startedAt.getTime()) / 1000;
      record.origin = summarizeRequestLog(readRequestLog(ctx.logFile));
      record.requestLog = `logs/${p.id}.requests.ndjson`;
      rd.write(record);
      rd.writeCsv(all.map((x) => x.id));
      ran += 1;
      doneSeconds += p.expectedSeconds;
      bar.done();
      print(`${label} ${record.status === 'ok' ? 'ok' : ''} ${describeOutcome(record)} (${record.wallSeconds.toFixed(0)} s)`.replace('  ', ' '));
    }
  } finally {
    bar.done();
    if (ctx.loopbackOrigin) await ctx.loopbackOrigin.close();
  }
  const records = rd.writeCsv(all.map((x) => x.id));
  const inPlan = new Set(playbacks.map((p) => p.id));
  const mine = records.filter((r) => inPlan.has(r.id));
  return {
    planned: playbacks.length,
    ran,
    ok: mine.filter((r) => r.status === 'ok').length,
    failed: mine.filter((r) => r.status !== 'ok').length,
    skipped: playbacks.length - todo.length,
    records,
    interrupted,
  };
}

module.exports = { runScenario, diffCounters, parseOnly, describeOutcome };
