'use strict';
// Small SVG charts as strings, so the report is one self-contained HTML file that opens
// anywhere (no scripts, no network). Pure functions of their data.

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** Round axis maximum: 1, 2, 2.5, 5 x 10^k at or above v. */
function niceMax(v) {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function ticks(max, count = 4) {
  return Array.from({ length: count + 1 }, (_, i) => (max * i) / count);
}

function fmt(v) {
  if (v === 0) return '0';
  if (Math.abs(v) >= 100) return v.toFixed(0);
  if (Math.abs(v) >= 10) return v.toFixed(1).replace(/\.0$/, '');
  return Number(v.toPrecision(2)).toString();
}

/**
 * @param {object} o
 * @param {{name: string, points: [number, number][], step?: boolean, dashed?: boolean}[]} o.series
 * @param {string} o.title, o.xLabel, o.yLabel
 */
function lineChart({ series, title, xLabel, yLabel, width = 560, height = 220 }) {
  const m = { l: 52, r: 12, t: 26, b: 40 };
  const w = width - m.l - m.r;
  const h = height - m.t - m.b;
  const all = series.flatMap((s) => s.points);
  const xMax = niceMax(Math.max(0, ...all.map((p) => p[0])));
  const yMax = niceMax(Math.max(0, ...all.map((p) => p[1])));
  const X = (x) => m.l + (x / xMax) * w;
  const Y = (y) => m.t + h - (y / yMax) * h;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<text x="${m.l}" y="16" font-weight="bold">${esc(title)}</text>`];
  for (const t of ticks(yMax)) parts.push(`<line x1="${m.l}" x2="${m.l + w}" y1="${Y(t)}" y2="${Y(t)}" stroke="#ddd"/><text x="${m.l - 4}" y="${Y(t) + 4}" text-anchor="end">${fmt(t)}</text>`);
  for (const t of ticks(xMax, 5)) parts.push(`<text x="${X(t)}" y="${m.t + h + 14}" text-anchor="middle">${fmt(t)}</text>`);
  parts.push(`<line x1="${m.l}" x2="${m.l}" y1="${m.t}" y2="${m.t + h}" stroke="#333"/><line x1="${m.l}" x2="${m.l + w}" y1="${m.t + h}" y2="${m.t + h}" stroke="#333"/>`);
  parts.push(`<text x="${m.l + w / 2}" y="${height - 6}" text-anchor="middle">${esc(xLabel)}</text>`);
  parts.push(`<text transform="translate(12 ${m.t + h / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`);
  series.forEach((s, i) => {
    if (!s.points.length) return;
    const pts = [];
    s.points.forEach(([x, y], j) => {
      if (s.step && j > 0) pts.push(`${X(x).toFixed(1)},${Y(s.points[j - 1][1]).toFixed(1)}`);
      pts.push(`${X(x).toFixed(1)},${Y(y).toFixed(1)}`);
    });
    const color = s.color || COLORS[i % COLORS.length];
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="1.5"${s.dashed ? ' stroke-dasharray="4 3"' : ''} points="${pts.join(' ')}"/>`);
    parts.push(`<text x="${m.l + w - 4}" y="${m.t + 12 + 13 * i}" text-anchor="end" fill="${color}">${esc(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

/**
 * Horizontal bars (labels can be long: "h2 / bba2 / wifi"), a whisker from min to max.
 * @param {{label: string, value: number|null, min?: number, max?: number}[]} bars  display units
 */
function barChart({ bars, title, unit, width = 560 }) {
  const rowH = 18;
  const m = { l: 200, r: 70, t: 26, b: 24 };
  const w = width - m.l - m.r;
  const height = m.t + m.b + rowH * bars.length;
  const vMax = niceMax(Math.max(0, ...bars.flatMap((b) => [b.value, b.max]).filter((v) => Number.isFinite(v))));
  const X = (v) => m.l + (v / vMax) * w;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<text x="4" y="16" font-weight="bold">${esc(title)}${unit ? ` (${esc(unit)})` : ''}</text>`];
  for (const t of ticks(vMax)) parts.push(`<line x1="${X(t)}" x2="${X(t)}" y1="${m.t}" y2="${height - m.b}" stroke="#eee"/><text x="${X(t)}" y="${height - m.b + 13}" text-anchor="middle">${fmt(t)}</text>`);
  bars.forEach((b, i) => {
    const y = m.t + i * rowH;
    const label = b.label.length > 34 ? `${b.label.slice(0, 33)}…` : b.label;
    parts.push(`<text x="${m.l - 6}" y="${y + 13}" text-anchor="end">${esc(label)}</text>`);
    if (!Number.isFinite(b.value)) {
      parts.push(`<text x="${m.l + 4}" y="${y + 13}" fill="#999">no data</text>`);
      return;
    }
    parts.push(`<rect x="${m.l}" y="${y + 3}" width="${Math.max(0.5, X(b.value) - m.l).toFixed(1)}" height="${rowH - 6}" fill="${COLORS[0]}"/>`);
    if (Number.isFinite(b.min) && Number.isFinite(b.max) && b.max > b.min) {
      parts.push(`<line x1="${X(b.min).toFixed(1)}" x2="${X(b.max).toFixed(1)}" y1="${y + rowH / 2}" y2="${y + rowH / 2}" stroke="#000"/>`);
    }
    parts.push(`<text x="${Math.max(X(b.value), Number.isFinite(b.max) ? X(b.max) : 0) + 4}" y="${y + 13}">${fmt(b.value)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

module.exports = { lineChart, barChart, niceMax, esc };
