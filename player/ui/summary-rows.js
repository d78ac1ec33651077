'use strict';
// The rows of the page's live QoE table: the metrics every playback has, then what its
// transport adds (its registry entry's summaryRows). Pure, so it can be checked in Node.
const { transports } = require('../transports');
const { formatValue } = require('../../shared/charts/lab-charts');

/** @returns {[string, string][]} [label, text] per row */
function qoeSummaryRows(q) {
  const s = q.summary;
  const sec = (v) => (v === null || v === undefined ? '-' : `${v.toFixed(2)} s`);
  const rows = [
    ['state', s.state],
    ['startup delay', sec(s.startupDelaySeconds)],
    ['played', sec(s.playSeconds)],
    ['rebuffers', `${s.rebufferInstances} (${sec(s.rebufferSeconds)})`],
    ['rebuffer rate', `${(100 * s.rebufferRate).toFixed(2)} %`],
    ['seeks / mean wait', `${s.seeks.length} / ${sec(s.meanSeekWaitSeconds)}`],
    ['avg playback bitrate', s.averagePlaybackBitrate ? formatValue(s.averagePlaybackBitrate, 'bit/s') : '-'],
    ['avg downloaded bitrate', s.averageDownloadedBitrate ? formatValue(s.averageDownloadedBitrate, 'bit/s') : '-'],
    ['switches', `${s.switchCount} (mean ${formatValue(s.switchMagnitudeMean, 'bit/s')})`],
    ['frames decoded / dropped', `${s.decodedFrames ?? '-'} / ${s.droppedFrames ?? '-'}`],
    ['bytes per transport', Object.entries(s.bytesPerTransport).map(([k, v]) => `${k}: ${(v / 1e6).toFixed(2)} MB`).join(', ') || '-'],
    ['protocols (Resource Timing)', Object.keys(s.protocols).join(', ') || '-'],
    ['errors', String(s.errors)],
  ];
  // A live playback: how far behind the broadcast, and how much it fell behind (stalls).
  if (q.config && q.config.live) {
    rows.splice(1, 0,
      ['live latency now / target', `${sec(s.liveLatencyEndSeconds)} / ${sec(q.config.liveDelaySeconds)}`],
      ['live latency mean / max / grown by', `${sec(s.liveLatencyMeanSeconds)} / ${sec(s.liveLatencyMaxSeconds)} / ${sec(s.liveLatencyGrowthSeconds)}`]);
  }
  const entry = q.config && transports.has(q.config.transport) ? transports.get(q.config.transport) : null;
  return entry ? [...rows, ...entry.summaryRows(q)] : rows;
}

/** The page's segment log row's last cell: the protocol, and what the transport adds. */
function segmentProtocolCell(q, segment) {
  const entry = q.config && transports.has(q.config.transport) ? transports.get(q.config.transport) : null;
  return `${segment.protocol}${entry ? entry.segmentNote(segment) : ''}`;
}

module.exports = { qoeSummaryRows, segmentProtocolCell };
