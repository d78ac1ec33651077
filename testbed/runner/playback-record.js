'use strict';
// The record a playback leaves in the run directory (playbacks/<id>.json): what was asked (the
// matrix cell, the network, the player's run configuration), then either what was measured
// (status "ok": the player's QoE JSON, derived metrics, the emulator's counters) or why it
// failed (status "failed": the error, the page's state, the QoE so far), then the origin's side
// (its request log in numbers). results.csv, the report and resume read it; run-directory.js
// stores it. Pure: the caller runs the playback and reads the request log.
const { describeProfile } = require('../scenario/network-profile');
const { playbackMetrics } = require('./playback-metrics');
const { summarizeRequestLog } = require('./origin-log-summary');
const { connectionsAcrossSwitches } = require('./switch-connections');
const { throughputFields, playbackFlowFields } = require('./throughput-record');

// The console of a long playback can hold thousands of lines: the first ones say what went wrong.
const CONSOLE_LINES_KEPT = 50;

/** The run configuration the player page gets (player/run-config.js) for one playback. */
function playerConfigFor(scenario, p) {
  // A throughput run plays nothing: its page gets the transport and the throughput settings.
  if (p.kind === 'throughput') return { transport: p.transportName, ...(p.transportOptions || {}), throughput: scenario.throughput };
  return {
    content: scenario.content,
    transport: p.transportName,
    // Every option the scenario's transport entry sets (bp for the DataChannel), by its URL key.
    ...(p.transportOptions || {}),
    abr: p.abr.name,
    abrParams: p.abr.params,
    seeks: p.seeks,
    stopAt: p.durationSeconds,
    keepBitrateOnSeek: scenario.keepBitrateOnSeek,
    ...(scenario.live ? { live: true, liveDelay: scenario.live.delaySeconds } : {}),
  };
}

/** The fields every finished run has, playback or throughput run. */
function commonFields(played) {
  return {
    wireSeries: played.wireSeries || null,
    counters: played.counters,
    endpointDrops: played.endpointDrops || null,
    countersPageLoad: played.countersPageLoad || null,
    switchLog: played.switchLog,
    pageToLinkMs: played.pageToLinkMs,
    // The origin's TCP connections (retransmissions; per path with extra paths) and each
    // path's own counters (profiles with extraPaths).
    tcp: played.tcp || null,
    pathCounters: played.pathCounters || null,
    // With --capture: where the client's packets are (relative to the run directory) and tcpdump's counts.
    ...(played.capture ? { capture: played.capture } : {}),
    pageErrors: played.pageErrors.filter(Boolean),
    console: played.console.slice(0, CONSOLE_LINES_KEPT),
  };
}

/** What a throughput run measured: in-order throughput, the model's bound, competing flows, ratio. */
function throughputRunFields(played, { scenario, playback, emulated }) {
  const f = throughputFields({
    playback,
    profile: emulated ? playback.profile : null,
    throughputOptions: scenario.throughput,
    throughput: played.throughput,
    competingFlows: played.competingFlows || null,
    linkStartLabMs: played.linkStartLabMs ?? null,
    pageTimeOrigin: played.pageTimeOrigin ?? null,
    counters: played.counters,
  });
  return {
    status: 'ok',
    error: null,
    kind: 'throughput',
    summary: null,
    metrics: f.metrics,
    throughput: f.throughput,
    model: f.model,
    ...(f.competingFlows ? { competingFlows: f.competingFlows, ratio: f.ratio } : {}),
    ...commonFields(played),
  };
}

/** What a playback that ran to its end measured (played: what emulated-/loopback-playback.js return). */
function playedFields(played, { rate }) {
  return {
    // Errors the player recovered from (a request that failed during a link outage and was
    // retried) stay in qoe.errors and the summary; they do not fail the playback.
    status: 'ok',
    error: null,
    summary: played.qoe.summary,
    metrics: playbackMetrics({ qoe: played.qoe, counters: played.counters, rate, pageToLinkMs: played.pageToLinkMs, wireSeries: played.wireSeries }),
    ...commonFields(played),
    qoe: played.qoe,
    // The scenario's competing flows beside the playback (testbed/competing/).
    ...(played.competingFlows ? { competingFlows: playbackFlowFields({ competingFlows: played.competingFlows, linkStartLabMs: played.linkStartLabMs }) } : {}),
  };
}

/** Why a playback failed; the page's state at the failure and the QoE so far are what to look into, not results. */
function failedFields(error) {
  return {
    status: 'failed',
    error: error.message,
    ...(error.diagnostics ? { diagnostics: error.diagnostics } : {}),
    ...(error.partialQoe ? { partialQoe: error.partialQoe } : {}),
  };
}

/**
 * @param {object} o
 * @param {object} o.scenario      normalized (validate-scenario.js)
 * @param {object} o.playback      one entry of expand-matrix.js
 * @param {boolean} o.emulated
 * @param {object} o.playerConfig  playerConfigFor(scenario, playback)
 * @param {Date} o.startedAt, o.endedAt
 * @param {object} [o.played]      what the playback returned, if it ran to its end
 * @param {Error} [o.error]        else why it failed
 * @param {object[]} o.requestLog  the origin's request log entries for this playback
 * @param {{commit: string|null, dirty: boolean|null}} [o.code]  the lab's commit (code-version.js)
 * @param {string|null} [o.contentDigest]  the content build's digest (content-build-digest.js)
 */
function playbackRecord({ scenario, playback: p, emulated, playerConfig, startedAt, endedAt, played = null, error = null, requestLog, code = null, contentDigest = null }) {
  if (!played === !error) throw new Error('playbackRecord: give exactly one of played and error');
  return {
    id: p.id,
    scenario: scenario.name,
    transport: p.transport,
    transportName: p.transportName,
    bp: p.bp,
    abr: p.abr.label,
    abrName: p.abr.name,
    abrParams: p.abr.params,
    network: p.network,
    networkDescription: emulated ? describeProfile(p.profile) : 'loopback (no emulation)',
    profile: emulated ? p.profile : null,
    seekSchedule: p.seekSchedule,
    switchSchedule: p.switchSchedule,
    repetition: p.repetition,
    emulated: Boolean(emulated),
    congestionControl: emulated ? scenario.congestionControl : null,
    playerConfig,
    startedAt: startedAt.toISOString(),
    // The code that measured it: a report marks figures made before a listed fix.
    commit: code ? code.commit : null,
    commitDirty: code ? code.dirty : null,
    // And the content it played: builds can differ (content-build-digest.js, report/content-builds.js).
    contentDigest,
    ...(played && played.throughput ? throughputRunFields(played, { scenario, playback: p, emulated }) : {}),
    // Every path's rate: two 5 Mbit/s paths offer 10 (paper004's utilization was over one path's
    // rate, 125 % for a cubic playback, before 2026-11-26).
    ...(played && !played.throughput ? playedFields(played, { rate: emulated ? [p.profile.rate, ...(p.profile.extraPaths || []).map((x) => x.rate)] : null }) : {}),
    ...(error ? failedFields(error) : {}),
    wallSeconds: (endedAt.getTime() - startedAt.getTime()) / 1000,
    origin: summarizeRequestLog(requestLog),
    // Per network switch: a migrated QUIC connection, or a new handshake (switch-connections.js).
    ...(played && played.switchLog && played.switchLog.length ? { switchConnections: connectionsAcrossSwitches(played.switchLog, requestLog) } : {}),
    requestLog: `logs/${p.id}.requests.ndjson`,
  };
}

module.exports = { playbackRecord, playerConfigFor };
