'use strict';
// The fuzz run's report: one row per batch (cases, statuses seen, 5xx, slowest /healthz and how
// much of it was spent waiting for a CPU, descriptors before and after, memory, failures),
// then each kind of failure with its first case, then the origin's descriptors and memory at
// the start and the end, and how to run the same cases again.

function topStatuses(statuses, n = 5) {
  const sorted = [...statuses].sort((a, b) => b[1] - a[1]);
  const shown = sorted.slice(0, n).map(([k, c]) => `${k}×${c}`);
  if (sorted.length > n) shown.push(`+${sorted.length - n} more`);
  return shown.join(' ');
}

function pad(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

const mb = (kb) => (kb === null || kb === undefined ? '-' : `${Math.round(kb / 1024)} MB`);

/**
 * @param {object} result  runFuzz()'s result
 * @param {object} o  {command: the command line that reproduces the run}
 */
function formatSummary(result, { command } = {}) {
  const rows = [['batch', 'cases', 'statuses seen (top 5)', '5xx', 'max /healthz', 'fds', 'RSS (2nd half)', 'failures']];
  for (const b of result.batches) {
    rows.push([
      b.name,
      b.cases < b.planned ? `${b.cases}/${b.planned}` : String(b.cases),
      topStatuses(b.statuses) || '-',
      String(b.fiveXX),
      b.healthz ? `${Math.round(b.healthz.maxMs)} ms (${b.monitored}${b.healthz.worst && b.healthz.worst.waitMs ? `, ${b.healthz.worst.waitMs} waiting` : ''})` : '-',
      b.fds && b.fds.total !== null ? `${b.fds.before} -> ${b.fds.total}` : '-',
      b.rssKb ? `${mb(b.rssKb)} (${b.rssSecondHalfKb >= 0 ? '+' : ''}${Math.round((b.rssSecondHalfKb || 0) / 1024)})` : '-',
      String(b.failureCount),
    ]);
  }
  const lines = ['', pad(rows), ''];
  for (const b of result.batches) {
    if (b.failureCount === 0 && b.notes.length === 0) continue;
    lines.push(`${b.name} (${b.title}):`);
    for (const n of b.notes) lines.push(`  note: ${n}`);
    for (const f of b.failures) lines.push(`  FAIL: ${f.replace(/\n/g, '\n        ')}`);
    const shown = [...b.failureKinds.values()].reduce((n, k) => n + k.count, 0);
    if (b.failureCount > shown) lines.push(`  ... and ${b.failureCount - shown} more failures of other kinds`);
  }
  lines.push(`origin: ${result.start.fds} fds, ${mb(result.start.rssKb)} resident after warm-up; ${result.end.fds ?? '-'} fds, ${mb(result.end.rssKb)} after the run`);
  for (const f of result.failures) lines.push(`FAIL: ${f}`);
  const failed = result.failures.length + result.batches.reduce((n, b) => n + b.failureCount, 0);
  lines.push(failed === 0 ? `fuzz: PASS (seed ${result.seed})` : `fuzz: FAIL, ${failed} failures (seed ${result.seed})${command ? `; again with: ${command}` : ''}`);
  return lines.join('\n');
}

module.exports = { formatSummary, topStatuses };
