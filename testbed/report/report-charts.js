'use strict';
// The report's charts: chart models (shared/charts/lab-charts.js, drawn by uPlot as in the
// player page) written into report.html with uPlot, its stylesheet and lab-charts.js inlined, so
// the report stays one self-contained file that opens anywhere, offline. Axes carry units,
// series have legends, line charts zoom (drag; double-click to zoom out). The model builders
// are pure; assets() reads the library from node_modules.
const fs = require('node:fs');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..', '..');

/**
 * A line chart: series of [x, y] points.
 * @param {{title, xLabel, yLabel, unit?, series: {name, points, step?, dashed?, points?, color?}[]}} o
 */
function lineChartModel({ title, xLabel, yLabel, unit = '', series }) {
  return {
    type: 'lines',
    title,
    xLabel,
    yLabel,
    unit,
    series: series.filter((s) => s.points.length).map((s) => ({
      label: s.name,
      points: s.points,
      style: s.step ? 'step' : s.dots ? 'points' : 'line',
      dash: Boolean(s.dashed),
      ...(s.color ? { color: s.color } : {}),
    })),
  };
}

/**
 * A bar per group (the mean), with a whisker over its 95 % confidence interval where there are
 * two or more playbacks (none for one).
 * @param {{title, unit, bars: {label, mean: number|null, ci95: number|null}[]}} o  display units
 */
function barChartModel({ title, unit, bars }) {
  const num = (v) => (Number.isFinite(v) ? v : null);
  return {
    type: 'bars',
    title,
    unit,
    categories: bars.map((b) => b.label),
    values: bars.map((b) => num(b.mean)),
    lo: bars.map((b) => (Number.isFinite(b.mean) && Number.isFinite(b.ci95) ? b.mean - b.ci95 : null)),
    hi: bars.map((b) => (Number.isFinite(b.mean) && Number.isFinite(b.ci95) ? b.mean + b.ci95 : null)),
  };
}

/**
 * Collects the charts of one report: place(model) returns the element that holds the chart,
 * script() the one script that draws them all (after assets()).
 */
function createChartSet() {
  const models = [];
  return {
    place(model) {
      models.push(model);
      return `<div class="chart" data-chart="${models.length - 1}"></div>`;
    },
    get count() {
      return models.length;
    },
    script() {
      // "<" escaped: a title with "</script>" in it must not end the script.
      const json = JSON.stringify(models).replace(/</g, '\\u003c');
      return `<script>
(function drawCharts() {
  var models = ${json};
  var uPlotClass = window.uPlot;
  document.querySelectorAll('.chart[data-chart]').forEach(function draw(el) {
    var model = models[Number(el.getAttribute('data-chart'))];
    var size = model.type === 'bars' ? { width: Math.max(420, Math.min(1100, 110 + 46 * model.categories.length)), height: 340 } : { width: 560, height: 260 };
    window.labCharts.render(el, model, uPlotClass, size);
  });
}());
</script>`;
    },
  };
}

/** uPlot (script and stylesheet) and lab-charts.js, inline. */
function assets() {
  const read = (file) => fs.readFileSync(file, 'utf8');
  const css = read(require.resolve('uplot/dist/uPlot.min.css'));
  const lib = read(require.resolve('uplot/dist/uPlot.iife.min.js'));
  const charts = read(path.join(REPO, 'shared', 'charts', 'lab-charts.js'));
  // A "</script" inside the inlined code would end its element early.
  const safe = (js) => js.replace(/<\/script/gi, '<\\/script');
  return `<style>${css}</style>\n<script>${safe(lib)}</script>\n<script>${safe(charts)}</script>`;
}

module.exports = { lineChartModel, barChartModel, createChartSet, assets };
