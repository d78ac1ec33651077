'use strict';
// A small canvas line chart for the page's buffer and bitrate plots: no charting library,
// since two time series with a step or line shape is all the page draws.

/** Pure: maps [t, v] points to canvas pixels. Returns [[x, y], ...]. */
function scalePoints(points, { width, height, pad = 30, tMin, tMax, vMax }) {
  const t0 = tMin ?? (points.length ? points[0][0] : 0);
  const t1 = Math.max(tMax ?? (points.length ? points[points.length - 1][0] : 1), t0 + 1);
  const top = vMax ?? Math.max(1e-9, ...points.map((p) => p[1]));
  return points.map(([t, v]) => [pad + ((t - t0) / (t1 - t0)) * (width - 2 * pad), height - pad - (Math.min(v, top) / top) * (height - 2 * pad)]);
}

function drawLineChart(canvas, points, { label, unit, step = false, color = '#1565c0', vMax, tMin, tMax } = {}) {
  const ctx = canvas.getContext('2d');
  const { width, height } = canvas;
  ctx.clearRect(0, 0, width, height);
  ctx.font = '12px system-ui, sans-serif';
  ctx.fillStyle = '#444';
  const top = vMax ?? Math.max(1e-9, ...points.map((p) => p[1]));
  ctx.fillText(`${label} (max ${formatValue(top, unit)})`, 30, 14);
  ctx.strokeStyle = '#ccc';
  ctx.strokeRect(30, 30, width - 60, height - 60);
  if (points.length < 1) return;
  const xy = scalePoints(points, { width, height, vMax: top, tMin, tMax });
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.beginPath();
  xy.forEach(([x, y], i) => {
    if (i === 0) ctx.moveTo(x, y);
    else if (step) {
      ctx.lineTo(x, xy[i - 1][1]);
      ctx.lineTo(x, y);
    } else ctx.lineTo(x, y);
  });
  if (step && xy.length) ctx.lineTo(width - 30, xy[xy.length - 1][1]);
  ctx.stroke();
}

function formatValue(v, unit) {
  if (unit === 'bps') return v >= 1e6 ? `${(v / 1e6).toFixed(2)} Mbit/s` : `${Math.round(v / 1e3)} kbit/s`;
  if (unit === 's') return `${v.toFixed(1)} s`;
  return String(v);
}

module.exports = { scalePoints, drawLineChart, formatValue };
