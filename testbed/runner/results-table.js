'use strict';
// One row per playback: the columns of results.csv and of the report's tables. A column is a
// name, a unit and where its value comes from in a playback record (run-directory.js), so the
// CSV, the report and the progress line cannot disagree about what a number means. The
// transports' own columns and options come from the transport registry (player/transports/).

const { transports, transportOptions } = require('../../player/transports');
const { bufferOccupancy } = require('../../player/qoe/buffer-occupancy');

const column = ([name, unit, get]) => ({ name, unit, get });

/** Bytes down over paths 2.. / over all paths (null on one path). */
function tcpCongestionControls(r) {
  if (!r.tcp) return null;
  if (r.tcp.byPath) return r.tcp.byPath.map((p) => (p.congestionControls || []).join('+') || '-').join('|');
  return (r.tcp.congestionControls || []).join('+') || null;
}

/** The buffer's level while fed (buffer-occupancy.js), from the record's series. */
function occupancy(r) {
  return r.qoe ? bufferOccupancy(r.qoe.bufferSeries, r.qoe.timeline) : null;
}

function extraPathShare(r) {
  const paths = r.pathCounters;
  if (!paths || paths.length < 2) return null;
  const down = paths.map((p) => (p.toClient ? p.toClient.bytesOut : 0));
  const all = down.reduce((a, b) => a + b, 0);
  return all ? (all - down[0]) / all : null;
}

// Columns every playback has, around those the transports add (transportColumns below).
const HEAD = [
  ['id', '', (r) => r.id],
  ['transport', '', (r) => r.transport],
].map(column);
const RUN = [
  ['abr', '', (r) => r.abr],
  ['network', '', (r) => r.network],
  ['seekSchedule', '', (r) => r.seekSchedule],
  ['switchSchedule', '', (r) => r.switchSchedule],
  ['repetition', '', (r) => r.repetition],
  ['status', '', (r) => r.status],
  ['error', '', (r) => r.error || ''],
  ['startupDelaySeconds', 's', (r) => r.summary && r.summary.startupDelaySeconds],
  ['meanSeekWaitSeconds', 's', (r) => r.summary && r.summary.meanSeekWaitSeconds],
  ['rebufferInstances', '', (r) => r.summary && r.summary.rebufferInstances],
  ['rebufferSeconds', 's', (r) => r.summary && r.summary.rebufferSeconds],
  ['rebufferRate', '', (r) => r.summary && r.summary.rebufferRate],
  // The player's own jumps over gaps in its buffer (their waits are in the rebuffering above);
  // empty in records from before they were told from the viewer's seeks.
  ['gapJumps', '', (r) => r.summary && r.summary.gapJumpCount],
  ['playSeconds', 's', (r) => r.summary && r.summary.playSeconds],
  ['bufferLevelMeanSeconds', 's', (r) => occupancy(r)?.meanSeconds],
  ['bufferLevelSdSeconds', 's', (r) => occupancy(r)?.sdSeconds],
  ['averagePlaybackBitrate', 'bit/s', (r) => r.summary && r.summary.averagePlaybackBitrate],
  ['averageDownloadedBitrate', 'bit/s', (r) => r.summary && r.summary.averageDownloadedBitrate],
  ['switchCount', '', (r) => r.summary && r.summary.switchCount],
  ['droppedFrames', '', (r) => r.summary && r.summary.droppedFrames],
  ['mediaBytes', 'B', (r) => r.metrics && r.metrics.mediaBytes],
  ['wireBytesDown', 'B', (r) => r.metrics && r.metrics.wireBytesDown],
  ['overhead', '', (r) => r.metrics && r.metrics.overhead],
  ['mediaThroughput', 'bit/s', (r) => r.metrics && r.metrics.mediaThroughput],
  ['linkUtilization', '', (r) => r.metrics && r.metrics.linkUtilization],
  ['packetLossRatio', '', (r) => r.metrics && r.metrics.packetLossRatio],
  // The origin's TCP connections as the kernel counted them (tcp-sockets-watch.js), and the share
  // of the downlink's bytes that went over the extra paths (Multipath TCP; empty on one path).
  ['tcpConnections', '', (r) => (r.tcp ? r.tcp.connections : null)],
  ['tcpRetransSegments', '', (r) => (r.tcp ? r.tcp.retransSegs : null)],
  // The congestion controls the kernel ran on the origin's sockets (`ss -ti`), per path on
  // several paths ("lab_lia|lab_lia"), so a run shows the variant it asked for was used.
  ['tcpCongestionControls', '', (r) => tcpCongestionControls(r)],
  ['extraPathShare', '', (r) => extraPathShare(r)],
  // Live playbacks only (player/qoe/live-latency.js): seconds behind the broadcast.
  ['liveLatencyMeanSeconds', 's', (r) => r.summary && r.summary.liveLatencyMeanSeconds],
  ['liveLatencyGrowthSeconds', 's', (r) => r.summary && r.summary.liveLatencyGrowthSeconds],
].map(column);
// Throughput runs (a scenario's `throughput`) and competing flows (its `competingFlows`):
// empty for playbacks without them (throughput-record.js says what each is).
const THROUGHPUT = [
  ['inOrderThroughput', 'bit/s', (r) => r.metrics && r.metrics.inOrderThroughput],
  ['throughputCv', '', (r) => r.metrics && r.metrics.throughputCv],
  ['modelEquation', '', (r) => r.metrics && r.metrics.modelEquation],
  ['modelBound', 'bit/s', (r) => r.metrics && r.metrics.modelBound],
  ['throughputToModel', '', (r) => r.metrics && r.metrics.throughputToModel],
  ['competingThroughput', 'bit/s', (r) => r.metrics && r.metrics.competingThroughput],
  ['throughputRatio', '', (r) => r.metrics && r.metrics.throughputRatio],
].map(column);
const TAIL = [
  ['lateTimers', '', (r) => r.metrics && r.metrics.lateTimers],
  ['originRequests', '', (r) => r.origin && r.origin.requests],
  ['originConnections', '', (r) => r.origin && r.origin.connections],
  ['wallSeconds', 's', (r) => r.wallSeconds],
  // When and by which code (a dirty work tree adds "+"): the report marks cells measured before
  // a fix in results/known-fixes.json.
  ['startedAt', '', (r) => r.startedAt],
  ['commit', '', (r) => (r.commit ? `${r.commit}${r.commitDirty ? '+' : ''}` : null)],
].map(column);

/**
 * A column per transport option (bp), after the transport: what the playback ran with. A
 * record keeps its options in transportOptions, and each as a field of its own as well
 * (expand-matrix.js); records written before transportOptions existed have only the field.
 */
function optionColumns() {
  return [...transportOptions().keys()].map((key) => ({
    name: key,
    unit: '',
    get: (r) => (r.transportOptions && r.transportOptions[key] !== undefined ? r.transportOptions[key] : r[key] ?? null),
  }));
}

/** The columns the registered transports add (the DataChannel's PLR, deadline stops, ...), each once. */
function transportColumns() {
  const seen = new Map();
  for (const t of transports.list()) for (const c of t.resultColumns) if (!seen.has(c.name)) seen.set(c.name, c);
  return [...seen.values()];
}

/** Every column, in results.csv's order, for the transports registered now. */
function resultColumns() {
  return [...HEAD, ...optionColumns(), ...RUN, ...transportColumns(), ...THROUGHPUT, ...TAIL];
}

function csvCell(v) {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? String(Number.isInteger(v) ? v : Number(v.toPrecision(6))) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function toRow(record) {
  return Object.fromEntries(resultColumns().map((c) => {
    const v = c.get(record);
    return [c.name, v === undefined ? null : v];
  }));
}

/** Records -> CSV text (header + one line per record). */
function toCsv(records, columns = resultColumns()) {
  const lines = [columns.map((c) => c.name).join(',')];
  for (const r of records) lines.push(columns.map((c) => csvCell(c.get(r))).join(','));
  return `${lines.join('\n')}\n`;
}

module.exports = { resultColumns, transportColumns, toRow, toCsv, csvCell };
