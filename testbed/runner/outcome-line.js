'use strict';
// The line the runner prints when a playback ends: its main figures, or why it failed and where
// the page was, and a WARNING wherever the measurement itself is in doubt (the emulator fell
// behind, packets were dropped outside it).

const { keptPastLimit } = require('./late-timers');
const { clockSteppedBeyondLimit, WALL_CLOCK_READERS } = require('./clock-step');

// When late timers are worth a WARNING. A handful late by under ~30 ms in a long playback happen
// on this 2-core machine even with nothing else running and move no figure; one later than the
// lab's 50 ms limit or the run's stricter --late-limit (lateBeyondLimit in late-timers.js is the
// rule the runner sets playbacks aside by; keptPastLimit judges kept records by it), or many late
// ones, mean the run competed for CPU and its delays and rates were not the configured ones.
const LATE_WARN_SHARE = 0.001;

function describeLateTimers(record) {
  const { counters } = record;
  const late = counters.lateTimers;
  const packets = ['toClient', 'toServer'].reduce((n, d) => n + ((counters[d] && counters[d].packetsOut) || 0), 0);
  const text = `emulator timers late ${late.count}x (max ${late.maxMs.toFixed(1)} ms)`;
  // Judged by the limit the run played it under (record.lateCheck), not only today's default.
  const kept = keptPastLimit(record);
  if (kept) return `WARNING: ${text}, ${kept.why}; the machine was too busy`;
  if (!(packets > 0) || late.count / packets > LATE_WARN_SHARE) return `WARNING: ${text}, more than 1 in ${1 / LATE_WARN_SHARE} packets; the machine was busy`;
  return text;
}

/** Where the page was when a playback failed (a timeout above all), from run-playback.js's diagnostics. */
function describeFailure(r) {
  const v = r.diagnostics && r.diagnostics.video;
  const where = v ? ` (page ${r.diagnostics.labState}: media time ${v.currentTime.toFixed(1)} s${v.duration !== null ? ` of ${v.duration.toFixed(1)}` : ''}, buffered ${v.buffered.map(([a, b]) => `${a}-${b}`).join(' ') || 'nothing'}, ${v.paused ? 'paused' : 'playing'}${v.ended ? ', ended' : ''}, readyState ${v.readyState}${v.error ? `, error ${v.error}` : ''})` : '';
  return `FAILED: ${r.error}${where}`;
}

const mbps = (bps) => (bps === null || bps === undefined ? '-' : (bps / 1e6).toFixed(2));

/** A throughput run's figures: in-order throughput, its steadiness, the model, the competing flows. */
function throughputParts(r) {
  const m = r.metrics;
  const parts = [`in-order ${mbps(m.inOrderThroughput)} Mbit/s`];
  if (m.throughputCv !== null) parts.push(`${r.throughput.sampleSeconds} s windows vary ${(100 * m.throughputCv).toFixed(0)} %`);
  if (r.model) parts.push(`model <= ${mbps(r.model.capped)} Mbit/s (${r.model.equation}${r.model.assumptionHolds ? '' : ', past its assumption'})`);
  for (const f of r.competingFlows || []) parts.push(`${f.label} (${f.ccSeen || `${f.cc}?`}) ${mbps(f.meanThroughput)} Mbit/s${f.error ? ` [${f.error}]` : ''}`);
  if (m.throughputRatio !== null && m.throughputRatio !== undefined) parts.push(`ratio ${m.throughputRatio.toFixed(2)}`);
  return parts;
}

/** A playback's figures: startup, rebuffering, bitrate, seeks, link use, competing flows. */
function playbackParts(r) {
  const s = r.summary;
  const parts = [
    `startup ${s.startupDelaySeconds === null ? '-' : s.startupDelaySeconds.toFixed(2)} s`,
    `rebuffer ${(100 * s.rebufferRate).toFixed(1)} % (${s.rebufferInstances}x)`,
    `${s.averagePlaybackBitrate === null ? '-' : (s.averagePlaybackBitrate / 1e6).toFixed(2)} Mbit/s`,
  ];
  if (s.meanSeekWaitSeconds !== null) parts.push(`seek wait ${s.meanSeekWaitSeconds.toFixed(2)} s`);
  if (s.gapJumpCount) parts.push(`${s.gapJumpCount} gap jump(s)`);
  if (Number.isFinite(s.liveLatencyMeanSeconds)) {
    // Signed growth; a few ms less at the end than at the start is "+0.0", not "+-0.0".
    const grown = Number(s.liveLatencyGrowthSeconds.toFixed(1));
    parts.push(`live latency ${s.liveLatencyMeanSeconds.toFixed(1)} s (${grown < 0 ? '' : '+'}${grown.toFixed(1)})`);
  }
  if (r.metrics && r.metrics.linkUtilization !== null) parts.push(`link use ${(100 * r.metrics.linkUtilization).toFixed(0)} %`);
  for (const f of r.competingFlows || []) parts.push(`${f.label} (${f.ccSeen || `${f.cc}?`}) ${mbps(f.meanThroughput)} Mbit/s`);
  return parts;
}

/** @param {object} r  a playback record (playback-record.js) */
function describeOutcome(r) {
  if (r.status !== 'ok') return describeFailure(r);
  const s = r.summary;
  const parts = r.throughput ? throughputParts(r) : playbackParts(r);
  // The emulator itself fell behind (a delivery timer fired > 5 ms late): say so where it is seen.
  const late = r.counters && r.counters.lateTimers;
  if (late && late.count > 0) parts.push(describeLateTimers(r));
  // Kept although the wall clock was set during it (every try stepped, or --late-limit off).
  const stepped = clockSteppedBeyondLimit(r);
  if (stepped) parts.push(`WARNING: the wall clock stepped ${stepped.stepMs.toFixed(0)} ms during the playback; its ${WALL_CLOCK_READERS} hold the step`);
  // Loss nobody configured: a full socket buffer in the browser or the origin.
  const d = r.endpointDrops;
  const endpoint = d ? d.client.udp.RcvbufErrors + d.server.udp.RcvbufErrors + d.client.tun.txDropped + d.server.tun.txDropped : 0;
  if (endpoint > 0) parts.push(`WARNING: ${endpoint} packets dropped at the endpoints (socket buffers), outside the emulator`);
  const t = s && s.transport;
  if (t && t.plr !== undefined && t.unreliableChunks > 0) parts.push(`PLR ${(100 * t.plr).toFixed(2)} %`);
  return parts.join(', ');
}

/** The whole progress line: "[2/4] ID ok startup 0.80 s, ... (24 s)" or "[2/4] ID FAILED: ... (3 s)". */
function outcomeLine(label, r) {
  return `${label} ${r.status === 'ok' ? 'ok ' : ''}${describeOutcome(r)} (${r.wallSeconds.toFixed(0)} s)`;
}

module.exports = { describeOutcome, describeLateTimers, outcomeLine };
