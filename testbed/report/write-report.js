'use strict';
// A run directory -> report.html (self-contained: tables and uPlot charts, the library inlined:
// report-charts.js), report.md
// (the same tables in Markdown), tables.csv (every metric summary in long form) and, from the
// playback records, results.csv again. A directory
// with results.csv and scenario.json but no playback records (results/ keeps runs that way)
// gets the same tables, without the plots over time. Cells measured before a known fix that
// changes them are marked (known-fixes.js).
const fs = require('node:fs');
const path = require('node:path');
const { aggregateRows, pivot, formatCell, overlapsByRow, reportMetrics, GROUP_KEYS } = require('./aggregate');
const { readRun } = require('./read-run');
const { loadKnownFixes, markCells, gitAncestry, namesFromScenario } = require('./known-fixes');
const { contentBuildNotes } = require('./content-builds');
const { lateLinkNotes } = require('./late-link-notes');
const { clockStepNotes } = require('./clock-step-notes');
const { lineChartModel, barChartModel, createChartSet, assets: chartAssets } = require('./report-charts');
const { describeProfile } = require('../scenario/network-profile');
const { createRateSchedule } = require('../netem/rate-schedule');
const { csvCell, toCsv } = require('../runner/results-table');
const { expandMatrix } = require('../scenario/expand-matrix');
const { referencePivot } = require('./paper-reference');
const { cdfsByRow, segmentThroughputsMbps, seekWaitsSeconds } = require('./distributions');
const { transports } = require('../../player/transports');
const { readContentShares, contentSharesMarkdown, contentSharesHtml } = require('./content-shares-table');

const DEFAULT_PLOTS = 12;

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** The playbacks to plot over time: the ones asked for, else the first ok one of each group. */
function choosePlots(records, groups, ids) {
  const byId = new Map(records.map((r) => [r.id, r]));
  if (ids && ids.length) {
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length) throw new Error(`--plots: no playback ${missing.join(', ')} in this run (ids are the file names in playbacks/)`);
    return ids.map((id) => byId.get(id));
  }
  return groups.map((g) => g.ids.map((id) => byId.get(id)).find((r) => r.status === 'ok' && (r.qoe || r.throughput))).filter(Boolean).slice(0, DEFAULT_PLOTS);
}

/**
 * A throughput run over time: its in-order throughput per window, each competing flow's, and
 * the model's bound (paper 001 Figs. 6-7's quantities, one run).
 */
function throughputCharts(r, charts) {
  const secs = (ms) => ms / 1000;
  const steps = (windows) => windows.flatMap((w) => [[secs(w.startMs), w.bitsPerSecond / 1e6], [secs(w.endMs), w.bitsPerSecond / 1e6]]);
  const series = [{ name: `${r.transport} (in order)`, points: steps(r.throughput.windows) }];
  for (const f of r.competingFlows || []) series.push({ name: `${f.label} (${f.ccSeen || f.cc})`, points: steps(f.windows), color: '#d62728' });
  const end = secs(1000 * r.throughput.seconds);
  if (r.model && r.model.capped) series.push({ name: `model bound (${r.model.equation})`, dashed: true, step: true, points: [[0, r.model.capped / 1e6], [end, r.model.capped / 1e6]] });
  const chart = charts.place(lineChartModel({ title: `${r.id}: throughput per ${r.throughput.sampleSeconds} s`, xLabel: 'time since the run started (s)', yLabel: 'Mbit/s', series }));
  return `<div class="pair">${chart}</div>`;
}

/** The chart(s) of one record over time: a playback's buffer and bitrate, or a throughput run's throughput. */
function chartsOf(r, charts) {
  return r.throughput ? throughputCharts(r, charts) : timeSeriesCharts(r, charts);
}

/** CDF plots across repetitions: per-segment throughput and seek waits, one chart per network row. */
function distributionCharts(groups, records, chartSet) {
  const byId = new Map(records.map((r) => [r.id, r]));
  const charts = [];
  for (const [what, valuesOf, xLabel] of [['segment download throughput', segmentThroughputsMbps, 'Mbit/s (segment bytes / request to last byte)'], ['seek wait', seekWaitsSeconds, 'seconds (seek asked -> playing at the target)']]) {
    for (const { row, series } of cdfsByRow(groups, byId, valuesOf)) {
      charts.push(chartSet.place(lineChartModel({ title: `${row}: CDF of ${what}`, xLabel, yLabel: 'fraction <= x', series: series.map((x) => ({ name: x.name, step: true, points: x.points })) })));
    }
  }
  return charts;
}

function timeSeriesCharts(r, charts) {
  const q = r.qoe;
  const secs = (t) => t / 1000;
  const bufferSeries = [{ name: 'buffer', points: (q.bufferSeries || []).map(([t, v]) => [secs(t), v]) }];
  if (q.liveLatencySeries) bufferSeries.push({ name: 'live latency', points: q.liveLatencySeries.map(([t, v]) => [secs(t), v]) });
  const buffer = charts.place(lineChartModel({
    title: `${r.id}: buffer level${q.liveLatencySeries ? ' and live latency' : ''}`,
    xLabel: 'time since page load (s)',
    yLabel: 'seconds',
    unit: 's',
    series: bufferSeries,
  }));
  const series = [{ name: 'rendered bitrate', step: true, points: (q.bitrateSeries || []).map(([t, b]) => [secs(t), b / 1e6]) }];
  const end = Math.max(0, ...(q.bufferSeries || []).map(([t]) => t));
  if (r.profile && r.profile.rate && end > 0) {
    const schedule = createRateSchedule(r.profile.rate);
    const points = [];
    for (let t = 0; t <= end; t += 250) points.push([secs(t), schedule.rateAt(Math.max(0, t + (r.pageToLinkMs || 0))) / 1e6]);
    series.push({ name: 'link rate', step: true, dashed: true, points });
  }
  if (r.wireSeries && r.wireSeries.length > 1) {
    // Downlink IP throughput in 1 s steps (the 200 ms samples are too noisy to read).
    const points = [];
    let prev = r.wireSeries[0];
    for (const cur of r.wireSeries.slice(1)) {
      if (cur[0] - prev[0] < 1000 && cur !== r.wireSeries[r.wireSeries.length - 1]) continue;
      points.push([secs(prev[0]), (8 * (cur[1] - prev[1])) / (cur[0] - prev[0]) / 1000], [secs(cur[0]), (8 * (cur[1] - prev[1])) / (cur[0] - prev[0]) / 1000]);
      prev = cur;
    }
    series.push({ name: 'link throughput (IP)', points, color: '#2ca02c' });
  }
  const segs = (q.segments || []).filter((s) => s.bandwidth).map((s) => [secs(s.lastByte), s.bandwidth / 1e6]);
  if (segs.length) series.push({ name: 'downloaded segments', step: true, points: segs, color: '#aaa' });
  const decisions = (q.decisions || []).filter((d) => !d.abandoned && Number.isFinite(d.bandwidth));
  if (decisions.length) series.push({ name: 'ABR decision', dots: true, points: decisions.map((d) => [secs(d.t), d.bandwidth / 1e6]), color: '#9467bd' });
  const bitrate = charts.place(lineChartModel({ title: `${r.id}: bitrate`, xLabel: 'time since page load (s)', yLabel: 'Mbit/s', series }));
  return `<div class="pair">${buffer}${bitrate}${subflowChart(r, charts)}</div>`;
}

/**
 * Multipath TCP: each subflow's bytes sent over time, by path (paper 004 Figs. 9-10 plot the
 * subflows' sequence numbers; their slopes are each path's share). Empty on one path.
 */
function subflowChart(r, charts) {
  const flows = (r.tcp && r.tcp.subflowSeries) || [];
  if (!flows.length) return '';
  const series = flows.filter((f) => f.points.length > 1).map((f) => ({
    name: `path ${f.path ?? '?'} (${f.local} -> ${f.peer})`,
    points: f.points.map(([ms, bytes]) => [ms / 1000, bytes / 1e6]),
  }));
  return charts.place(lineChartModel({ title: `${r.id}: bytes sent per subflow (sequence-number progress)`, xLabel: 'time since the playback started (s)', yLabel: 'MB sent', series }));
}

/**
 * A cell's text; with `beside` (the same table of another metric, e.g. the model's bound for
 * the measured throughput) that metric's value follows in brackets.
 */
function cellText(t, i, j, metric, beside) {
  const text = formatCell(t.cells[i][j], metric);
  if (!beside) return text;
  const other = beside.t.cells[i] && beside.t.cells[i][j];
  return other && other.n ? `${text} (${beside.word} ${formatCell(other, beside.m)})` : text;
}

/** One sentence per row where the 95 % intervals do not tell cells apart (one in all when no cell has an interval). */
function overlapSentences(t) {
  const rows = overlapsByRow(t);
  const cells = t.cells.flat().filter((c) => c && c.n > 0);
  if (cells.length > 1 && cells.every((c) => c.n < 2)) return ['every cell rests on one playback: no intervals, so no difference between cells is established'];
  return rows.map(({ row, overlapping, noInterval }) => {
    const parts = [];
    if (overlapping.length) parts.push(`intervals overlap: ${overlapping.map(([a, b]) => `${a} ~ ${b}`).join(', ')}`);
    if (noInterval.length) parts.push(`one value, no interval: ${noInterval.join(', ')}`);
    return `${row}: ${parts.join('; ')}`;
  });
}

function htmlTable(t, metric, beside = null) {
  const head = `<tr><th>${esc(t.rowHeader)} \\ ${esc(t.colHeader)}</th>${t.cols.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`;
  const body = t.rows.map((row, i) => `<tr><th>${esc(row)}</th>${t.cells[i].map((c, j) => `<td>${esc(cellText(t, i, j, metric, beside))}</td>`).join('')}</tr>`).join('');
  return `<table>${head}${body}</table>`;
}

function markdownTable(t, metric, beside = null) {
  const lines = [`| ${t.rowHeader} \\ ${t.colHeader} | ${t.cols.join(' | ')} |`, `|${' --- |'.repeat(t.cols.length + 1)}`];
  t.rows.forEach((row, i) => lines.push(`| ${row} | ${t.cells[i].map((c, j) => cellText(t, i, j, metric, beside)).join(' | ')} |`));
  return lines.join('\n');
}

function longCsv(groups, metrics) {
  const header = ['metric', 'unit', ...GROUP_KEYS, 'ok', 'failed', 'n', 'mean', 'min', 'max', 'ci95', 'predatesFixes'];
  const lines = [header.join(',')];
  for (const m of metrics) {
    for (const g of groups) {
      const c = g.metrics[m.key];
      const scaled = (v) => (v === null ? null : v * m.scale);
      // ci95: half the 95 % interval's width (two or more values); predatesFixes: the numbers
      // of the known fixes some of the cell's playbacks were measured without.
      lines.push([m.key, m.unit, ...GROUP_KEYS.map((k) => g.key[k]), g.ok, g.failed, c.n, scaled(c.mean), scaled(c.min), scaled(c.max), scaled(c.ci95 ?? null), (c.predates || []).join(' ')].map(csvCell).join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The known-fix marks, and the report's lines about them. */
function markKnownFixes(groups, rows, scenario, o) {
  const fixes = o.knownFixes !== undefined ? o.knownFixes : loadKnownFixes(undefined, reportMetrics().map((m) => m.key));
  if (!fixes.length) return { lines: [] };
  const metricByKey = new Map(reportMetrics().map((m) => [m.key, m]));
  const metricValue = (r, key) => (metricByKey.get(key).derive ? metricByKey.get(key).derive(r) : r[key]);
  const { used, unknown } = markCells(groups, new Map(rows.map((r) => [r.id, r])), fixes, { contains: o.contains || gitAncestry(), namesOf: namesFromScenario(scenario), metricValue });
  const lines = used.map((n) => {
    const f = fixes[n - 1];
    return `†${n}: measured before ${f.commit.slice(0, 7)} (${f.date}), which changes ${f.metrics === '*' ? 'every metric' : f.metrics.join(', ')}${Object.keys(f.scope).length ? ` of ${Object.entries(f.scope).map(([k, v]) => `${k} ${v.join('/')}`).join(', ')}` : ''}: ${f.what}`;
  });
  if (unknown.length) lines.push(`${unknown.length} playback(s) record no commit this clone knows (${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', ...' : ''}): whether they predate the known fixes cannot be told.`);
  return { lines };
}

/**
 * @param {string} runDir
 * @param {{plots?: string[], knownFixes?: object[], contains?: Function}} [o]  playback ids to plot
 *   over time; the known fixes (default results/known-fixes.json) and how to tell whether a
 *   playback's code contains one (default: git history)
 * @returns {{html: string, md: string, csv: string}} the files written
 */
function writeReport(runDir, o = {}) {
  const scenarioFile = path.join(runDir, 'scenario.json');
  if (!fs.existsSync(scenarioFile)) throw new Error(`${runDir} is not a run directory (no scenario.json); give the directory npm run qoe wrote`);
  const scenario = JSON.parse(fs.readFileSync(scenarioFile, 'utf8'));
  // In the scenario's own order (transports, then ABRs, ...), not the file names' order.
  const rank = new Map(expandMatrix(scenario).map((p, i) => [p.id, i]));
  const byRank = (a, b) => (rank.get(a.id) ?? 1e9) - (rank.get(b.id) ?? 1e9);
  const run = readRun(runDir);
  const rows = run.rows.sort(byRank);
  const records = run.records ? run.records.sort(byRank) : [];
  if (!rows.length) throw new Error(`${runDir} has no playback records yet`);
  if (o.plots && o.plots.length && !run.records) throw new Error(`--plots: ${runDir} keeps no playback records (only results.csv), so there is nothing to plot over time`);
  const groups = aggregateRows(rows);
  const fixNotes = markKnownFixes(groups, rows, scenario, o).lines;
  const ok = rows.filter((r) => r.status === 'ok').length;
  const failed = rows.filter((r) => r.status !== 'ok');
  const emulated = rows.some((r) => r.emulated);
  const generated = new Date().toISOString();
  const profiles = Object.entries(scenario.profiles).map(([name, p]) => [name, describeProfile(p)]);
  const shares = readContentShares(runDir);
  // What a transport says about some of its playbacks (a congestion control that is not
  // TCP-friendly), each sentence once.
  // And whether the playbacks played more than one build of the content, and which were kept
  // with a link that ran late or a wall clock that was set.
  const notes = [
    ...new Set(records.map((r) => (transports.has(r.transportName) ? transports.get(r.transportName).reportNote(r) : null)).filter(Boolean)),
    ...(scenario.throughput ? [] : contentBuildNotes(records, groups, scenario.content)),
    ...lateLinkNotes(records, groups),
    ...clockStepNotes(records, groups),
  ];

  const metrics = reportMetrics();
  const chartSet = createChartSet();
  // Each metric a table; those marked bar also a bar chart.
  const sections = metrics.map((m) => {
    const t = pivot(groups, m.key);
    if (t.cells.every((row) => row.every((c) => !c || c.n === 0))) return null;
    const bars = m.bar ? chartSet.place(barChartModel({
      title: m.label,
      unit: m.unit,
      bars: groups.map((g) => {
        const c = g.metrics[m.key];
        const s = (v) => (v === null || v === undefined ? null : v * m.scale);
        return { label: g.label, mean: s(c.mean), ci95: s(c.ci95) };
      }),
    })) : '';
    const besideMetric = m.beside ? metrics.find((x) => x.key === m.beside) : null;
    const beside = besideMetric ? { m: besideMetric, t: pivot(groups, besideMetric.key), word: 'model' } : null;
    return { m, t, bars, beside, paper: referencePivot(groups, scenario.reference, m.key), overlaps: overlapSentences(t) };
  }).filter(Boolean);
  const paperCaption = scenario.reference ? `The paper's figures (${scenario.reference.source}), same layout; - where it gives none` : '';

  const plots = run.records ? choosePlots(records, groups, o.plots) : [];
  const distributions = run.records && !scenario.throughput ? distributionCharts(groups, records, chartSet) : [];
  const plotted = run.records ? plots.map((r) => chartsOf(r, chartSet)).join('\n') : null;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(scenario.name)}: QoE report</title>
<style>
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 1200px; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th { background: #f4f4f4; } tr th:first-child { text-align: left; }
.pair { display: flex; flex-wrap: wrap; gap: 8px; } .note { color: #555; font-size: 13px; }
.warn { color: #a00; }
.chart { margin: 4px 0 12px; }
</style>
${chartAssets()}
</head><body>
<h1>${esc(scenario.name)}</h1>
<p>${esc(scenario.description || '')}</p>
<p class="note">${scenario.throughput ? `Throughput runs: each fetches the origin's byte source for <b>${scenario.throughput.seconds} s</b>, in-order throughput per ${scenario.throughput.sampleSeconds} s` : `Content <b>${esc(scenario.content)}</b>, stop at ${scenario.durationSeconds} s of media`}, ${scenario.repetitions} repetition(s);
${ok} playbacks ok, ${failed.length} failed; ${emulated ? `through the link emulator, TCP congestion control ${esc(scenario.congestionControl)} at the origin` : '<span class="warn">WITHOUT network emulation (loopback): network profiles were not applied</span>'}.
Cells: mean ± half the 95 % confidence interval (Student's t) (min-max, n = playbacks it rests on); one playback: mean (n=1), no interval. Under each table, per row, the cells whose intervals overlap: their difference is not established by these runs. Bar charts: the mean, the whisker its 95 % interval (none for one playback). Line charts zoom: drag across a range, double-click to zoom out.${scenario.competingFlows ? ` Competing flows: ${esc(scenario.competingFlows.map((f) => `${f.label} (${f.cc}, ${f.startSeconds}-${f.stopSeconds ?? 'end'} s)`).join(', '))}.` : ''} Report generated ${generated}.</p>
${notes.map((n) => `<p class="note warn">${esc(n)}</p>`).join('\n')}
${fixNotes.length ? `<h2>Figures measured before a fix</h2>\n<ul class="warn">${fixNotes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
<h2>Network profiles</h2>
<table><tr><th>profile</th><th>settings</th></tr>${profiles.map(([n, d]) => `<tr><th>${esc(n)}</th><td style="text-align:left">${esc(d)}</td></tr>`).join('')}</table>
${contentSharesHtml(shares, esc)}
${sections.map(({ m, t, bars, beside, paper, overlaps }) => `<h2>${esc(m.label)}${m.unit ? ` (${esc(m.unit)})` : ''}</h2>\n${htmlTable(t, m, beside)}\n${overlaps.length ? `<p class="note">${overlaps.map(esc).join('<br>')}</p>\n` : ''}${paper ? `<p class="note">${esc(paperCaption)}:</p>\n${htmlTable(paper, m)}\n` : ''}${bars}`).join('\n')}
${distributions.length ? `<h2>Distributions across repetitions</h2>
<p class="note">Every media segment's download throughput and every seek's wait, pooled over each combination's successful playbacks (n = values, then playbacks), per network.</p>
<div class="pair">${distributions.join('')}</div>` : ''}
${scenario.throughput ? `<h2>Throughput over time</h2>
<p class="note">${plots.length} run(s)${o.plots && o.plots.length ? ' (as asked)' : ': the first successful repetition of each combination'}; in-order throughput per ${scenario.throughput.sampleSeconds} s window, competing flows in red, the model's bound dashed.</p>` : `<h2>Buffer level and bitrate over time</h2>
<p class="note">${plots.length} playback(s)${o.plots && o.plots.length ? ' (as asked)' : ': the first successful repetition of each combination'}; the dashed line is the link's configured downlink rate, green what it carried (IP bytes, 1 s steps).</p>`}
${plotted !== null ? plotted : '<p class="note">This directory keeps results.csv only, not the playback records: no plots over time.</p>'}
${chartSet.script()}
${failed.length ? `<h2>Failed playbacks</h2><table><tr><th>playback</th><th>error</th></tr>${failed.map((r) => `<tr><th>${esc(r.id)}</th><td style="text-align:left">${esc(r.error)}</td></tr>`).join('')}</table>` : ''}
</body></html>
`;
  const md = [`# ${scenario.name}`, '', scenario.description || '', '',
    `${scenario.throughput ? `Throughput runs of ${scenario.throughput.seconds} s (in-order throughput per ${scenario.throughput.sampleSeconds} s)` : `Content ${scenario.content}, stop at ${scenario.durationSeconds} s`}, ${scenario.repetitions} repetition(s); ${ok} ok, ${failed.length} failed; ${emulated ? `emulated link, ${scenario.congestionControl}` : 'NO emulation (loopback)'}. Cells: mean ± half the 95 % confidence interval (min-max, n=playbacks); one playback: mean (n=1). Under each table, per row, the cells whose intervals overlap (difference not established).`, '',
    ...notes.flatMap((n) => [n, '']),
    ...(fixNotes.length ? ['## Figures measured before a fix', '', ...fixNotes.map((n) => `- ${n}`), ''] : []),
    '| profile | settings |', '| --- | --- |', ...profiles.map(([n, d]) => `| ${n} | ${d} |`), '',
    ...contentSharesMarkdown(shares),
    ...sections.flatMap(({ m, t, beside, paper, overlaps }) => [`## ${m.label}${m.unit ? ` (${m.unit})` : ''}`, '', markdownTable(t, m, beside), '',
      ...(overlaps.length ? [...overlaps.map((x) => `- ${x}`), ''] : []),
      ...(paper ? [`${paperCaption}:`, '', markdownTable(paper, m), ''] : [])]),
    ...(failed.length ? ['## Failed playbacks', '', ...failed.map((r) => `- ${r.id}: ${r.error}`), ''] : []),
  ].join('\n');
  const files = { html: path.join(runDir, 'report.html'), md: path.join(runDir, 'report.md'), csv: path.join(runDir, 'tables.csv') };
  fs.writeFileSync(files.html, html);
  fs.writeFileSync(files.md, md);
  fs.writeFileSync(files.csv, longCsv(groups, metrics));
  // Where the records are kept, results.csv too is rebuilt with the current code (a column added
  // since the run fills in); a directory with results.csv alone keeps it as it is.
  if (run.records) fs.writeFileSync(path.join(runDir, 'results.csv'), toCsv(records));
  return files;
}

module.exports = { writeReport, choosePlots, throughputCharts };
