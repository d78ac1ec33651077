'use strict';
// Distributions across repetitions (the report's CDF plots): every media segment's download
// throughput and every seek's wait, pooled over a cell's playbacks. A mean hides whether a cell
// was steadily mediocre or mostly fine with a bad tail; a CDF shows which. Pure.

/** The empirical CDF of the finite values as step points [x, F(x)], F from 1/n to 1. */
function empiricalCdf(values) {
  const xs = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  const n = xs.length;
  if (!n) return [];
  const points = [[xs[0], 0]];
  xs.forEach((x, i) => {
    // A run of equal values is one step.
    if (i + 1 < n && xs[i + 1] === x) return;
    points.push([x, (i + 1) / n]);
  });
  return points;
}

/** Each downloaded media segment's throughput in Mbit/s (bytes over request start to last byte). */
function segmentThroughputsMbps(record) {
  const segments = (record && record.qoe && record.qoe.segments) || [];
  return segments.filter((s) => s.bytes > 0 && s.lastByte > s.requestStart).map((s) => (8 * s.bytes) / ((s.lastByte - s.requestStart) / 1000) / 1e6);
}

/** Each finished seek's wait in seconds (a seek superseded by the next one has none). */
function seekWaitsSeconds(record) {
  const seeks = (record && record.qoe && record.qoe.summary && record.qoe.summary.seeks) || [];
  return seeks.filter((s) => !s.superseded && Number.isFinite(s.waitSeconds)).map((s) => s.waitSeconds);
}

/**
 * Per network row of the report, one CDF series per transport/ABR column, pooled over the
 * cell's ok playbacks.
 * @param {object[]} groups   aggregate output (key, label, ids)
 * @param {Map<string, object>} recordsById
 * @param {(record: object) => number[]} valuesOf
 * @returns {{row: string, series: {name: string, n: number, playbacks: number, points: [number, number][]}[]}[]}
 *   rows with at least one value
 */
function cdfsByRow(groups, recordsById, valuesOf) {
  const rows = new Map();
  for (const g of groups) {
    const row = [g.key.network, g.key.seekSchedule, g.key.switchSchedule].filter((v) => v && v !== 'none').join(' / ') || g.key.network;
    const records = g.ids.map((id) => recordsById.get(id)).filter((r) => r && r.status === 'ok');
    const values = records.flatMap(valuesOf);
    if (!values.length) continue;
    const name = [g.key.transport, g.key.abr].filter((v) => v !== null && v !== undefined).join(' / ');
    if (!rows.has(row)) rows.set(row, []);
    rows.get(row).push({ name: `${name} (n=${values.length}, ${records.length} playback${records.length === 1 ? '' : 's'})`, n: values.length, playbacks: records.length, points: empiricalCdf(values) });
  }
  return [...rows.entries()].map(([row, series]) => ({ row, series }));
}

module.exports = { empiricalCdf, segmentThroughputsMbps, seekWaitsSeconds, cdfsByRow };
