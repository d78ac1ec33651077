'use strict';
// One row per playback: the columns of results.csv and of the report's tables. A column is a
// name, a unit and where its value comes from in a playback record (run-directory.js), so the
// CSV, the report and the progress line cannot disagree about what a number means.

const { fdspMediaLoss } = require('../../shared/qoe/fdsp-media-loss');

const COLUMNS = [
  ['id', '', (r) => r.id],
  ['transport', '', (r) => r.transport],
  ['bp', '', (r) => r.bp ?? null],
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
  ['playSeconds', 's', (r) => r.summary && r.summary.playSeconds],
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
  // DataChannel (FDSP): media packets lost / all media packets, as the player counted them.
  ['mediaPlr', '', (r) => r.summary && r.summary.transport && r.summary.transport.plr !== undefined ? r.summary.transport.plr : null],
  // The same split by cause (shared/qoe/fdsp-media-loss.js): segments waited for in full show
  // what the network took; deadline stops (counted by the transport) cut the rest.
  ['networkMediaPlr', '', (r) => { const m = r.qoe ? fdspMediaLoss(r.qoe.segments) : null; return m ? m.networkPlr : null; }],
  ['deadlineStops', '', (r) => r.summary && r.summary.transport ? r.summary.transport.deadlineStops ?? null : null],
  ['lateChunks', '', (r) => r.summary && r.summary.transport ? r.summary.transport.lateChunks ?? null : null],
  ['reliableShare', '', (r) => r.summary && r.summary.transport ? r.summary.transport.reliableShare ?? null : null],
  ['lateTimers', '', (r) => r.metrics && r.metrics.lateTimers],
  ['originRequests', '', (r) => r.origin && r.origin.requests],
  ['originConnections', '', (r) => r.origin && r.origin.connections],
  ['wallSeconds', 's', (r) => r.wallSeconds],
].map(([name, unit, get]) => ({ name, unit, get }));

function csvCell(v) {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? String(Number.isInteger(v) ? v : Number(v.toPrecision(6))) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function toRow(record) {
  return Object.fromEntries(COLUMNS.map((c) => {
    const v = c.get(record);
    return [c.name, v === undefined ? null : v];
  }));
}

/** Records -> CSV text (header + one line per record). */
function toCsv(records, columns = COLUMNS) {
  const lines = [columns.map((c) => c.name).join(',')];
  for (const r of records) lines.push(columns.map((c) => csvCell(c.get(r))).join(','));
  return `${lines.join('\n')}\n`;
}

module.exports = { COLUMNS, toRow, toCsv, csvCell };
