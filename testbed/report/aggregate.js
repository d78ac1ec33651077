'use strict';
// Report arithmetic: playbacks grouped by what was varied (transport x ABR x network x
// schedules), each metric summarized over the repetitions as n, mean, the half-width of its 95 %
// confidence interval (Student's t), min and max. Pure.
// Failed playbacks are counted per group but never averaged in (they have no metrics);
// a metric that is null in a playback (no seek happened, unlimited link) is left out of
// that metric only, and `n` says how many values each summary rests on.
// It works on results.csv's rows (results-table.js toRow), so a report can be rebuilt from a
// stored results.csv as well as from a run directory's records.
const { transportColumns, toRow } = require('../runner/results-table');

// The report's metrics every playback has; the transports' own (DataChannel PLR, ...) follow
// the network's packet loss ratio (reportMetrics below).
const BASE_METRICS = [
  { key: 'startupDelaySeconds', label: 'Startup delay', unit: 's', scale: 1, digits: 2, bar: true },
  { key: 'meanSeekWaitSeconds', label: 'Seek wait (mean per playback)', unit: 's', scale: 1, digits: 2, bar: true },
  { key: 'rebufferRate', label: 'Rebuffer rate', unit: '%', scale: 100, digits: 2, bar: true },
  { key: 'rebufferInstances', label: 'Rebuffer instances (stalls after startup)', unit: '', scale: 1, digits: 1 },
  { key: 'rebufferSeconds', label: 'Rebuffer time (stalls after startup; the startup delay not counted)', unit: 's', scale: 1, digits: 2 },
  // Paper 000 Table 3 counts the startup delay as rebuffering instance 1 ("Rebuff 1"), in the
  // time and in the count: derived from the two columns above, so any run can be read both ways.
  { key: 'rebufferInstancesWithStartup', label: 'Rebuffer instances, startup counted as instance 1 (paper 000 Table 3\'s definition)', unit: '', scale: 1, digits: 1, derive: (r) => (r.rebufferInstances === null || r.rebufferInstances === undefined || r.startupDelaySeconds === null || r.startupDelaySeconds === undefined ? null : r.rebufferInstances + 1) },
  { key: 'rebufferSecondsWithStartup', label: 'Rebuffer time, startup delay included (paper 000 Table 3\'s definition)', unit: 's', scale: 1, digits: 2, derive: (r) => (r.rebufferSeconds === null || r.rebufferSeconds === undefined || r.startupDelaySeconds === null || r.startupDelaySeconds === undefined ? null : r.rebufferSeconds + r.startupDelaySeconds) },
  // Paper 000 Fig. 10 (buffer steadiness): from the first frame to the last segment's download,
  // seek waits left out (player/qoe/buffer-occupancy.js).
  { key: 'bufferLevelMeanSeconds', label: 'Buffer level, mean while fed (first frame to the last segment downloaded, seek waits left out)', unit: 's', scale: 1, digits: 1 },
  { key: 'bufferLevelSdSeconds', label: 'Buffer level, standard deviation while fed (paper 000 Fig. 10: lower is steadier)', unit: 's', scale: 1, digits: 2 },
  { key: 'averagePlaybackBitrate', label: 'Average playback bitrate (weighted by time on screen)', unit: 'kbit/s', scale: 1e-3, digits: 0, bar: true },
  { key: 'averageDownloadedBitrate', label: 'Average bitrate of the downloaded segments (paper 002\'s definition)', unit: 'kbit/s', scale: 1e-3, digits: 0 },
  { key: 'switchCount', label: 'Bitrate switches', unit: '', scale: 1, digits: 1 },
  { key: 'droppedFrames', label: 'Dropped frames (the video element\'s droppedVideoFrames: paper 004\'s picture discards)', unit: '', scale: 1, digits: 1, bar: true },
  { key: 'liveLatencyMeanSeconds', label: 'Live latency (mean while playing, live playbacks)', unit: 's', scale: 1, digits: 2 },
  { key: 'liveLatencyGrowthSeconds', label: 'Live latency growth (end - start: time fallen behind the broadcast by stalls)', unit: 's', scale: 1, digits: 2 },
  { key: 'packetLossRatio', label: 'Packet loss ratio (network, downlink)', unit: '%', scale: 100, digits: 3, bar: true },
  { key: 'linkUtilization', label: 'Link utilization (media throughput / available rate)', unit: '%', scale: 100, digits: 1, bar: true },
  { key: 'overhead', label: 'Overhead (1 - media bytes / downlink IP bytes)', unit: '%', scale: 100, digits: 2, bar: true },
  { key: 'mediaThroughput', label: 'Media throughput', unit: 'kbit/s', scale: 1e-3, digits: 0 },
  // Paper 000 Sect. 5.2 / Fig. 9 compares the bandwidth each transport needed for the same clip
  // (94,477 KB for FDSP against 155,441 KB for TCP): every IP byte the client received.
  { key: 'wireBytesDown', label: 'Bytes on the wire, downlink (IP bytes the client received; paper 000 Fig. 9)', unit: 'MB', scale: 1e-6, digits: 2, bar: true },
  { key: 'tcpRetransSegments', label: 'TCP segments retransmitted by the origin (ss -ti, all connections and subflows seen)', unit: '', scale: 1, digits: 0 },
  { key: 'extraPathShare', label: 'Share of downlink bytes over the extra paths (Multipath TCP)', unit: '%', scale: 100, digits: 1, bar: true },
  // Throughput runs and competing flows (paper 001 Figs. 6-7); the model's bound is shown
  // beside the measurement (beside).
  { key: 'inOrderThroughput', label: 'In-order throughput (throughput runs)', unit: 'kbit/s', scale: 1e-3, digits: 0, bar: true, beside: 'modelBound' },
  { key: 'modelBound', label: 'Model upper bound (paper 001: eq. 4 for request-response streams, eq. 1 for one connection; capped at the link rate)', unit: 'kbit/s', scale: 1e-3, digits: 0 },
  { key: 'throughputToModel', label: 'In-order throughput / model bound', unit: '%', scale: 100, digits: 1 },
  { key: 'throughputCv', label: 'Throughput variation (coefficient of variation of the 10 s windows)', unit: '%', scale: 100, digits: 1 },
  { key: 'competingThroughput', label: 'Competing flows throughput (while both ran)', unit: 'kbit/s', scale: 1e-3, digits: 0 },
  { key: 'throughputRatio', label: 'Throughput ratio (measured transport / competing flows; paper 001 Fig. 7, 1 = fair)', unit: '', scale: 1, digits: 2, bar: true },
];

/**
 * Every metric of the report, for the transports registered now: {key, label, unit, scale,
 * digits, bar} (bar: also drawn as a bar chart). scale turns the column's unit into the shown one.
 */
function reportMetrics() {
  const fromTransports = transportColumns().filter((c) => c.metric).map((c) => ({ bar: false, ...c.metric, key: c.name }));
  const at = BASE_METRICS.findIndex((m) => m.key === 'packetLossRatio') + 1;
  return [...BASE_METRICS.slice(0, at), ...fromTransports, ...BASE_METRICS.slice(at)].map((m) => ({ bar: false, ...m }));
}

const GROUP_KEYS = ['transport', 'abr', 'network', 'seekSchedule', 'switchSchedule'];

// Student's t, two-sided 95 %, by degrees of freedom (1-30); beyond, the normal's 1.96.
const T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/**
 * Half the width of the 95 % confidence interval of the mean of the finite numbers in values
 * (Student's t), null with fewer than two.
 */
function interval95(values) {
  const xs = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  if (xs.length < 2) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  return (T95[xs.length - 2] ?? 1.96) * (sd / Math.sqrt(xs.length));
}

/**
 * n, mean, min, max and ci95 (half the 95 % interval's width; null below two values) of the
 * finite numbers in values; mean, min and max are null when there are none.
 */
function describe(values) {
  const xs = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  if (!xs.length) return { n: 0, mean: null, min: null, max: null, ci95: null };
  return { n: xs.length, mean: xs.reduce((a, b) => a + b, 0) / xs.length, min: Math.min(...xs), max: Math.max(...xs), ci95: interval95(xs) };
}

function groupKey(r) {
  return GROUP_KEYS.map((k) => r[k]).join('\u0000');
}

/**
 * @param {object[]} records  playback records (run-directory.js)
 * @returns see aggregateRows
 */
function aggregate(records) {
  return aggregateRows(records.map(toRow));
}

/**
 * @param {object[]} rows  results.csv rows: {id, transport, abr, ..., status, METRIC: number|null}
 * @returns {{key: object, label: string, ok: number, failed: number, ids: string[], metrics: Object<string, {n, mean, min, max, ci95}>}[]}
 *   in the order the groups first appear
 */
function aggregateRows(rows) {
  const metrics = reportMetrics();
  const groups = new Map();
  for (const r of rows) {
    const k = groupKey(r);
    if (!groups.has(k)) groups.set(k, { key: Object.fromEntries(GROUP_KEYS.map((g) => [g, r[g]])), rows: [] });
    groups.get(k).rows.push(r);
  }
  const varying = GROUP_KEYS.filter((k) => new Set([...groups.values()].map((g) => g.key[k])).size > 1);
  // Labels name only what varies: "h2 / bba2", not "h2 / bba2 / the-only-network". A
  // throughput run has no ABR (null): it is left out.
  const labelKeys = varying.length ? varying : ['transport', 'abr'];
  return [...groups.values()].map((g) => {
    const ok = g.rows.filter((r) => r.status === 'ok');
    return {
      key: g.key,
      label: labelKeys.map((k) => g.key[k]).filter((v) => v !== null && v !== undefined).join(' / '),
      ok: ok.length,
      failed: g.rows.length - ok.length,
      ids: g.rows.map((r) => r.id),
      metrics: Object.fromEntries(metrics.map((m) => [m.key, describe(ok.map((r) => (m.derive ? m.derive(r) : r[m.key])))])),
    };
  });
}

/** Which keys actually vary across the groups (a table need not repeat a constant). */
function varyingKeys(groups) {
  return GROUP_KEYS.filter((k) => new Set(groups.map((g) => g.key[k])).size > 1);
}

/**
 * A metric as a pivot table: one row per network (and schedules, where they vary), one column
 * per transport x ABR; cells {n, mean, min, max} or null where nothing ran.
 */
function pivot(groups, metricKey) {
  const varying = varyingKeys(groups);
  const rowKeys = ['network', 'seekSchedule', 'switchSchedule'].filter((k) => k === 'network' || varying.includes(k));
  // Throughput runs have no ABR (null): their columns are transports alone.
  const colKeys = ['transport', 'abr'].filter((k) => k !== 'abr' || groups.some((g) => g.key.abr !== null && g.key.abr !== undefined));
  const name = (g, keys) => keys.map((k) => g.key[k]).filter((v) => v !== null && v !== undefined).join(' / ');
  const rows = [...new Set(groups.map((g) => name(g, rowKeys)))];
  const cols = [...new Set(groups.map((g) => name(g, colKeys)))];
  const cells = rows.map((row) => cols.map((col) => {
    const g = groups.find((x) => name(x, rowKeys) === row && name(x, colKeys) === col);
    return g ? g.metrics[metricKey] : null;
  }));
  return { rowHeader: rowKeys.join(' / '), colHeader: colKeys.join(' / '), rows, cols, cells };
}

/**
 * A summary cell as text in the metric's display unit, or "-". Our measurements (cells with a
 * ci95 field): "mean ± half-width (min-max, n=N)", with one value "mean (n=1)". A paper's figure
 * (no ci95 field): "mean". Marks follow: " †1,2" where the cell has playbacks measured before
 * known fixes 1 and 2 (known-fixes.js sets cell.predates).
 */
function formatCell(cell, metric) {
  if (!cell || cell.n === 0) return '-';
  const f = (v) => (v * metric.scale).toFixed(metric.digits);
  const marks = cell.predates && cell.predates.length ? ` †${cell.predates.join(',')}` : '';
  if (!('ci95' in cell)) return `${cell.n === 1 || cell.min === cell.max ? f(cell.mean) : `${f(cell.mean)} (${f(cell.min)}-${f(cell.max)})`}${marks}`;
  if (cell.n === 1) return `${f(cell.mean)} (n=1)${marks}`;
  return `${f(cell.mean)} ± ${f(cell.ci95)} (${f(cell.min)}-${f(cell.max)}, n=${cell.n})${marks}`;
}

/**
 * Where a row of a pivot table cannot tell its cells apart: the pairs of columns whose 95 %
 * intervals overlap (both cells with n >= 2). Cells with fewer values have no interval and are
 * named apart. A difference between two cells of a pair is not established by these runs.
 * @returns {{row: string, overlapping: [string, string][], noInterval: string[]}[]} rows with something to say
 */
function overlapsByRow(t) {
  const out = [];
  t.rows.forEach((row, i) => {
    const cells = t.cells[i].map((c, j) => ({ col: t.cols[j], c })).filter(({ c }) => c && c.n > 0);
    const withInterval = cells.filter(({ c }) => c.n >= 2 && c.ci95 !== null && c.ci95 !== undefined);
    const overlapping = [];
    for (let a = 0; a < withInterval.length; a += 1) {
      for (let b = a + 1; b < withInterval.length; b += 1) {
        const x = withInterval[a].c;
        const y = withInterval[b].c;
        if (x.mean - x.ci95 <= y.mean + y.ci95 && y.mean - y.ci95 <= x.mean + x.ci95) overlapping.push([withInterval[a].col, withInterval[b].col]);
      }
    }
    const noInterval = cells.filter(({ c }) => c.n < 2).map(({ col }) => col);
    if (cells.length > 1 && (overlapping.length || noInterval.length)) out.push({ row, overlapping, noInterval });
  });
  return out;
}

module.exports = { aggregate, aggregateRows, describe, interval95, pivot, formatCell, overlapsByRow, varyingKeys, reportMetrics, GROUP_KEYS };
// METRICS: the list as it is when read (reportMetrics() for the registered transports).
Object.defineProperty(module.exports, 'METRICS', { enumerable: true, get: reportMetrics });
