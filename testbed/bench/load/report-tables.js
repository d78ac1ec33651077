'use strict';
// The load bench's printed report: plain-text tables (Markdown pipes, so they paste into the
// README as they are) and short series.

function table(header, rows) {
  const cells = rows.map((r) => r.map((c) => String(c)));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

const ms = (v) => (v === null || v === undefined ? '-' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const mb = (bytes) => (bytes / 1e6).toFixed(1);

function requestsTable(byPhase, phases, protocols, playerCounts) {
  const rows = [];
  for (const phase of phases) {
    for (const protocol of [...protocols, 'all']) {
      const r = byPhase[phase][protocol];
      if (protocol !== 'all' && !playerCounts[protocol]) continue;
      rows.push([phase, protocol, protocol === 'all' ? Object.values(playerCounts).reduce((a, b) => a + b, 0) : playerCounts[protocol], r.requests, r.errors, ms(r.ttfbMs.p50), ms(r.ttfbMs.p99), ms(r.ttfbMs.max), ms(r.totalMs.p99), mb(r.bytes), `${r.stalls} (${r.stallSeconds.toFixed(1)} s)`]);
    }
  }
  return table(['phase', 'protocol', 'players', 'requests', 'errors', 'TTFB p50 ms', 'TTFB p99 ms', 'TTFB max ms', 'total p99 ms', 'MB delivered', 'late segments (stall)'], rows);
}

function comparisonTable(comparison) {
  return table(['protocol', 'clean TTFB p99 ms', 'abuse TTFB p99 ms', 'abuse / clean', `verdict (<= ${comparison.maxRatio}x)`], comparison.rows.map((r) => [r.protocol, ms(r.cleanP99Ms), ms(r.abuseP99Ms), r.ratio === null ? '-' : r.ratio.toFixed(2), r.verdict]));
}

/** At most `points` values of a phase's samples, evenly picked, first and last included. */
function pick(values, points) {
  if (values.length <= points) return values;
  return Array.from({ length: points }, (_, i) => values[Math.round((i * (values.length - 1)) / (points - 1))]);
}

function seriesLines(samples, phases, field, format) {
  return phases
    .map((phase) => {
      const mine = samples.filter((s) => s.phase === phase);
      if (mine.length === 0) return null;
      const first = mine[0].t;
      const last = mine[mine.length - 1].t;
      return `  ${phase.padEnd(7)} ${Math.round(first)}-${Math.round(last)} s: ${pick(mine, 10).map((s) => format(s[field])).join(' ')}`;
    })
    .filter(Boolean)
    .join('\n');
}

function trendText(t, unit, scale) {
  if (t.growth === null) return t.verdict;
  const sign = t.growth >= 0 ? '+' : '';
  return `${t.verdict} (fitted ${sign}${(t.growth / scale).toFixed(1)} ${unit} over the phase, mean ${(t.mean / scale).toFixed(1)} ${unit})`;
}

function cpuTable(cpu, phases) {
  const rows = phases.filter((p) => cpu[p]).map((p) => {
    const c = cpu[p];
    return [p, c.seconds.toFixed(0), c.cpuSeconds.toFixed(1), c.cpuPercent.toFixed(0), c.mbitPerSecond.toFixed(1), c.gbit.toFixed(2), c.cpuSecondsPerGbit === null ? '-' : c.cpuSecondsPerGbit.toFixed(2)];
  });
  return table(['phase', 'seconds', 'origin CPU s', 'origin CPU % of a core', 'delivered Mbit/s', 'delivered Gbit', 'CPU s per Gbit'], rows);
}

module.exports = { table, requestsTable, comparisonTable, seriesLines, trendText, cpuTable, ms, mb };
