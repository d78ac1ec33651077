'use strict';
// What a throughput run (a scenario with `throughput`) and a playback's competing flows add to
// its record, from what the page and the flows measured and the emulator counted. Pure.
//
//   throughput      the page's in-order bytes over time (series: [ms since its start, bytes]),
//                   cut into sampleSeconds windows (paper 001: every 10 s), their mean,
//                   spread and coefficient of variation, and the run's mean in-order throughput
//   model           paper 001's upper bound for this run (testbed/model/paper001-throughput.js):
//                   eq. 4 for a transport with request-response streams (the options streams,
//                   chunkBytes, gapMs), eq. 1 for one connection; capped at the link's rate
//   competingFlows  per flow: its received bytes on the same clock, windows, mean rate while it
//                   ran, and the emulator's counters of its address
//   ratio           paper 001 Fig. 7's throughput ratio: the transport's in-order throughput over
//                   the competing flows' throughput, over the time both ran
const { windowRates, windowStats, rebase, overlap, throughputRatio, meanRate } = require('./throughput-series');
const { meanRate: meanLinkRate } = require('./playback-metrics');
const { boundForRun, PAPER_MSS_BYTES } = require('../model/paper001-throughput');
const { transports, optionsWithDefaults } = require('../../player/transports');

// A transport with these options is paper 001's request-response streams (eq. 4).
const REQUEST_RESPONSE_OPTIONS = ['streams', 'chunkBytes', 'gapMs'];

/** The request-response parameters of a playback's transport, or null for one connection. */
function streamParameters(p) {
  if (!transports.has(p.transportName)) return null;
  const entry = transports.get(p.transportName);
  if (!REQUEST_RESPONSE_OPTIONS.every((k) => entry.options[k])) return null;
  const o = optionsWithDefaults(entry, p.transportOptions || {});
  return { streams: o.streams, chunkBytes: o.chunkBytes, gapMs: o.gapMs };
}

/**
 * Paper 001's bound for one run on its network profile; null without an RTT (the model divides
 * by it) or without emulation.
 * @param {object} p         the playback (transportName, transportOptions)
 * @param {object|null} profile  its network profile (null: loopback)
 * @param {number|null} rateBps  the link's mean rate over the run (null: unlimited)
 */
function modelForRun(p, profile, rateBps) {
  if (!profile || !(profile.rttMs > 0)) return null;
  const streams = streamParameters(p);
  const lossPercent = profile.lossPercent || 0;
  const m = boundForRun({ rttMs: profile.rttMs, lossPercent, rateBps, streams });
  return {
    equation: m.equation,
    bound: Number.isFinite(m.bound) ? m.bound : null, // eq. 1 without loss has none
    capped: m.capped,
    assumptionHolds: m.assumptionHolds,
    ...(m.lostPackets !== undefined ? { lostPackets: m.lostPackets } : {}),
    mssBytes: PAPER_MSS_BYTES,
    rttMs: profile.rttMs,
    lossPercent,
    rateBps,
    streams,
  };
}

/** Per competing flow, on the run's clock (ms since startMs, lab-clock.js); end: the run's length in ms. */
function flowFields(f, { startMs, endMs, windowMs }) {
  const series = rebase(f.samples, startMs);
  const from = f.startSeconds * 1000;
  // Without a run length (a playback's flows): until its last sample.
  const end = endMs ?? (series.length ? series[series.length - 1][0] : from);
  const to = Math.min(end, f.stopSeconds === null || f.stopSeconds === undefined ? end : f.stopSeconds * 1000);
  const rate = meanRate(series, from, to);
  return {
    label: f.label,
    cc: f.cc,
    ccSeen: f.ccSeen,
    address: f.address,
    startSeconds: f.startSeconds,
    stopSeconds: f.stopSeconds,
    error: f.error,
    receivedBytes: f.receivedBytes,
    sentBytes: f.sentBytes,
    emulator: f.emulator || null,
    meanThroughput: rate,
    windows: windowRates(series, { fromMs: from, toMs: to, windowMs }),
    series,
  };
}

/**
 * @param {object} o
 * @param {object} o.playback    the matrix cell (transportName, transportOptions)
 * @param {object|null} o.profile
 * @param {{seconds: number, sampleSeconds: number, requestMiB: number}} o.throughputOptions  the scenario's
 * @param {object} o.throughput  run-throughput.js's page result
 * @param {object[]|null} o.competingFlows  competing-flows.js's stop() results (with emulator counters)
 * @param {number|null} o.linkStartLabMs  when the link's schedules (and the flows) started, on lab-clock.js's clock
 * @param {number|null} o.pageTimeOrigin  the page's time 0 on that clock
 * @param {object|null} o.counters  the emulator's counters of the run
 * @returns {{throughput: object, model: object|null, competingFlows: object[]|null, ratio: object|null, metrics: object}}
 */
function throughputFields({ playback, profile, throughputOptions, throughput: t, competingFlows = null, linkStartLabMs = null, pageTimeOrigin = null, counters = null }) {
  const windowMs = throughputOptions.sampleSeconds * 1000;
  const endMs = t.seconds * 1000;
  const windows = windowRates(t.samples, { fromMs: 0, toMs: endMs, windowMs });
  const stats = windowStats(windows);
  const inOrderThroughput = t.seconds > 0 ? (8 * t.bytes) / t.seconds : null;
  const rateBps = profile && profile.rate ? meanLinkRate(profile.rate, 0, endMs) : null;
  const model = modelForRun(playback, profile, rateBps);
  // The flows' samples are on the lab clock; the page's series starts at its own first sample,
  // put on that clock through the page's time 0 (not through the wall clock, which can step).
  const startMs = typeof t.startedAtPageMs === 'number' && typeof pageTimeOrigin === 'number' ? pageTimeOrigin + t.startedAtPageMs : linkStartLabMs;
  const flows = competingFlows ? competingFlows.map((f) => flowFields(f, { startMs, endMs, windowMs })) : null;
  let ratio = null;
  if (flows && flows.length) {
    const starts = flows.map((f) => f.startSeconds * 1000);
    const stops = flows.map((f) => (f.stopSeconds === null ? endMs : f.stopSeconds * 1000));
    const both = overlap([0, endMs], [Math.max(...starts), Math.min(...stops)]);
    if (both) ratio = { fromMs: both[0], toMs: both[1], ...throughputRatio(t.samples, flows.map((f) => f.series), both) };
  }
  const competingBytesDown = flows ? flows.reduce((a, f) => a + ((f.emulator && f.emulator.toClient && f.emulator.toClient.bytesOut) || 0), 0) : 0;
  const down = counters && counters.toClient;
  const ownWire = down ? down.bytesOut - competingBytesDown : null;
  const drops = (c) => (c && c.packetsIn ? Object.values(c.drops || {}).reduce((a, b) => a + b, 0) / c.packetsIn : null);
  return {
    throughput: {
      seconds: t.seconds,
      sampleSeconds: throughputOptions.sampleSeconds,
      requestBytes: Math.round(throughputOptions.requestMiB * 1024 * 1024),
      bytes: t.bytes,
      requests: t.requests,
      completedRequests: t.completedRequests,
      protocols: t.protocols,
      transportStats: t.transportStats,
      inOrderThroughput,
      windowStats: stats,
      windows,
      series: t.samples,
    },
    model,
    competingFlows: flows,
    ratio,
    metrics: {
      // The columns a playback fills, where they mean the same for a throughput run.
      mediaBytes: t.bytes,
      bodyBytes: t.bytes,
      wireBytesDown: down ? down.bytesOut : null,
      wireBytesUp: counters && counters.toServer ? counters.toServer.bytesOut : null,
      // The run's own IP bytes: the competing flows' (counted by address) are not its overhead.
      overhead: ownWire ? 1 - t.bytes / ownWire : null,
      mediaThroughput: null, // inOrderThroughput: one table of it is enough
      availableRate: rateBps,
      linkUtilization: inOrderThroughput !== null && rateBps ? inOrderThroughput / rateBps : null,
      packetLossRatio: drops(down),
      packetLossRatioUp: drops(counters && counters.toServer),
      lateTimers: counters && counters.lateTimers ? counters.lateTimers.count : null,
      inOrderThroughput,
      throughputCv: stats.cv,
      modelEquation: model ? model.equation : null,
      modelBound: model ? model.capped : null,
      throughputToModel: model && model.capped && inOrderThroughput !== null ? inOrderThroughput / model.capped : null,
      competingThroughput: ratio ? ratio.theirs : null,
      throughputRatio: ratio ? ratio.ratio : null,
    },
  };
}

/**
 * A playback's competing flows (not a throughput run): each flow's figures on the link's clock
 * (ms since the playback started), up to its stop time or its last sample.
 */
function playbackFlowFields({ competingFlows, linkStartLabMs, windowMs = 10000 }) {
  return competingFlows.map((f) => flowFields(f, { startMs: linkStartLabMs, endMs: null, windowMs }));
}

module.exports = { throughputFields, playbackFlowFields, modelForRun, streamParameters };
