/* eslint-disable no-var */
// The lab's charts, drawn by uPlot (https://github.com/leeoniya/uPlot, MIT) in the player page
// and in the report. A chart is described by a plain JSON model, so the page builds its models
// from the QoE record (player/ui/page-charts.js), the report writes its models into report.html
// (testbed/report/report-charts.js), and this one file turns a model into uPlot's options and
// data in both. It is written without require() so that the report can inline its source next
// to uPlot's and stay one self-contained HTML file.
//
// Models:
//   {type: 'lines', title, xLabel, yLabel, unit, series: [{label, points: [[x, y], ...],
//     style: 'line' | 'step' | 'points', dash: boolean, color}]}
//       x in seconds (or any number); y in `unit` ('bit/s' is shown as kbit/s or Mbit/s)
//   {type: 'bars', title, unit, categories: [label], values: [v|null], lo: [v|null],
//     hi: [v|null], whiskerLabel}
//       one bar per category, a whisker from lo to hi (the report's 95 % interval)
(function define(root, factory) {
  var api = factory();
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.labCharts = api;
}(typeof self !== 'undefined' ? self : this, function factory() {
  var COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

  /** A value with its unit, for axes and legends: bit/s scales to kbit/s or Mbit/s. */
  function formatValue(v, unit) {
    if (v === null || v === undefined || !isFinite(v)) return '-';
    if (unit === 'bit/s') {
      if (Math.abs(v) >= 1e6) return (v / 1e6).toFixed(2) + ' Mbit/s';
      return Math.round(v / 1e3) + ' kbit/s';
    }
    var digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
    return v.toFixed(digits) + (unit ? ' ' + unit : '');
  }

  /** An axis tick: short, no unit (the axis label has it); bit/s in Mbit/s. */
  function formatTick(v, unit) {
    if (unit === 'bit/s') return String(Number((v / 1e6).toPrecision(3)));
    return String(Number(v.toPrecision(4)));
  }

  /**
   * Points of several series on one x axis, as uPlot wants them: [xs, ys1, ys2, ...]. A series
   * without a point at some x gets undefined there, which uPlot draws across (null would be a gap).
   */
  function alignSeries(seriesPoints) {
    var xs = [];
    var seen = {};
    seriesPoints.forEach(function each(points) {
      points.forEach(function add(p) {
        if (!seen[p[0]]) {
          seen[p[0]] = true;
          xs.push(p[0]);
        }
      });
    });
    xs.sort(function cmp(a, b) { return a - b; });
    var at = {};
    xs.forEach(function idx(x, i) { at[x] = i; });
    var columns = seriesPoints.map(function column(points) {
      var ys = new Array(xs.length);
      points.forEach(function put(p) { ys[at[p[0]]] = p[1]; });
      return ys;
    });
    return [xs].concat(columns);
  }

  function linesOptions(model, uPlot, size) {
    var unit = model.unit || '';
    var series = [{ label: 'x', value: function xv(u, v) { return v === null || v === undefined ? '-' : formatTick(v, ''); } }];
    model.series.forEach(function each(s, i) {
      var color = s.color || COLORS[i % COLORS.length];
      var o = {
        label: s.label,
        stroke: color,
        width: s.style === 'points' ? 0 : 1.5,
        value: function yv(u, v) { return formatValue(v, unit); },
      };
      if (s.dash) o.dash = [6, 4];
      if (s.style === 'step') o.paths = uPlot.paths.stepped({ align: 1 });
      if (s.style === 'points') o.points = { show: true, size: 5, stroke: color, fill: color };
      else o.points = { show: false };
      series.push(o);
    });
    return {
      title: model.title,
      width: size.width,
      height: size.height,
      series: series,
      // Drag on the plot to zoom into a time range; double-click zooms out.
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: false } },
      axes: [
        { label: model.xLabel || '', values: function xt(u, splits) { return splits.map(function t(v) { return formatTick(v, ''); }); } },
        { label: model.yLabel || unit, size: 60, values: function yt(u, splits) { return splits.map(function t(v) { return formatTick(v, unit); }); } },
      ],
    };
  }

  /** The whisker of every bar (lo to hi), drawn after the bars. */
  function whiskerHook(model) {
    return function drawWhiskers(u) {
      var ctx = u.ctx;
      ctx.save();
      ctx.strokeStyle = '#000';
      ctx.lineWidth = Math.max(1, devicePixelRatioOf());
      model.categories.forEach(function each(c, i) {
        var lo = model.lo[i];
        var hi = model.hi[i];
        if (lo === null || hi === null || lo === undefined || hi === undefined || !(hi > lo)) return;
        var x = u.valToPos(i, 'x', true);
        var y0 = u.valToPos(lo, 'y', true);
        var y1 = u.valToPos(hi, 'y', true);
        var w = 6 * devicePixelRatioOf();
        ctx.beginPath();
        ctx.moveTo(x, y0);
        ctx.lineTo(x, y1);
        ctx.moveTo(x - w, y0);
        ctx.lineTo(x + w, y0);
        ctx.moveTo(x - w, y1);
        ctx.lineTo(x + w, y1);
        ctx.stroke();
      });
      ctx.restore();
    };
  }

  function devicePixelRatioOf() {
    return typeof devicePixelRatio === 'number' ? devicePixelRatio : 1;
  }

  function barsOptions(model, uPlot, size) {
    var unit = model.unit || '';
    var top = 0;
    var bottom = 0;
    model.values.concat(model.hi).forEach(function max(v) { if (v !== null && v !== undefined && v > top) top = v; });
    // An interval of a small mean can reach below 0; the axis shows where it ends.
    model.lo.forEach(function min(v) { if (v !== null && v !== undefined && v < bottom) bottom = v; });
    return {
      title: model.title,
      width: size.width,
      height: size.height,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: function xr() { return [-0.5, model.categories.length - 0.5]; } },
        y: { range: function yr() { return [bottom * 1.1, top > 0 ? top * 1.1 : 1]; } },
      },
      // Room on the right for the last turned label.
      padding: [12, 60, 0, 0],
      series: [
        {},
        { label: model.title, fill: COLORS[0] + 'cc', stroke: COLORS[0], width: 0, points: { show: false }, paths: uPlot.paths.bars({ size: [0.6, 60] }) },
      ],
      axes: [
        {
          // Long labels ("h2 / bba2 / wifi") turned, with room below for them.
          rotate: model.categories.length > 3 ? -35 : 0,
          size: model.categories.length > 3 ? 110 : 40,
          space: 10,
          incrs: [1],
          values: function labels(u, splits) { return splits.map(function l(i) { return model.categories[i] === undefined ? '' : model.categories[i]; }); },
        },
        { label: unit, size: 60, values: function yt(u, splits) { return splits.map(function t(v) { return formatTick(v, unit); }); } },
      ],
      hooks: { draw: [whiskerHook(model)] },
    };
  }

  /**
   * A model -> uPlot's options and data.
   * @param {object} model
   * @param {Function} uPlot   the library (a global in the report, require('uplot') in the page)
   * @param {{width: number, height: number}} size
   */
  function toUplot(model, uPlot, size) {
    if (model.type === 'bars') {
      var xs = model.categories.map(function i(c, k) { return k; });
      return { opts: barsOptions(model, uPlot, size), data: [xs, model.values.map(function v(x) { return x === null ? null : x; })] };
    }
    if (model.type === 'lines') {
      return { opts: linesOptions(model, uPlot, size), data: alignSeries(model.series.map(function p(s) { return s.points; })) };
    }
    throw new Error('unknown chart type ' + model.type);
  }

  /** Draws a model into an element; returns a handle whose update(model) redraws it. */
  function render(el, model, uPlot, size) {
    var built = toUplot(model, uPlot, size);
    var chart = new uPlot(built.opts, built.data, el);
    var shape = JSON.stringify(model.series ? model.series.map(function l(s) { return [s.label, s.style]; }) : model.categories);
    return {
      chart: chart,
      update: function update(next) {
        var nextShape = JSON.stringify(next.series ? next.series.map(function l(s) { return [s.label, s.style]; }) : next.categories);
        var again = toUplot(next, uPlot, size);
        // Same series: new data, and a zoomed-in view stays zoomed (resetScales false while
        // the person has zoomed); other series: a new chart.
        if (nextShape === shape) {
          var zoomed = chart.scales.x.min !== chart.data[0][0] || chart.scales.x.max !== chart.data[0][chart.data[0].length - 1];
          chart.setData(again.data, !zoomed);
        } else {
          chart.destroy();
          chart = new uPlot(again.opts, again.data, el);
          shape = nextShape;
          this.chart = chart;
        }
      },
    };
  }

  return { toUplot: toUplot, render: render, alignSeries: alignSeries, formatValue: formatValue, formatTick: formatTick, COLORS: COLORS };
}));
