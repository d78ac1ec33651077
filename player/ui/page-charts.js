'use strict';
// What the page's three charts show, as chart models (shared/charts/lab-charts.js draws them
// with uPlot): buffer level (and live latency), bitrate (rendered, each ABR decision, each
// downloaded segment) and throughput (each segment's, and the emulated link's configured rate
// when the origin knows it: npm run lab). x is seconds since the playback was requested. Pure.
const { createRateSchedule } = require('../../testbed/netem/rate-schedule');

const LINK_STEP_MS = 250;

/**
 * The link's configured downlink rate over the playback, from the link states seen so far
 * (GET /api/link; a new state each time the lab's link was changed). The rate schedule is the
 * emulator's own definition (testbed/netem/rate-schedule.js), its clock started at the state's
 * clockOriginWallMs.
 * @param {{downlinkRate: object|null, clockOriginWallMs: number}[]} history  oldest first
 * @param {number} loadWallMs   the wall clock of x = 0
 * @param {number} seconds      how far the chart goes
 * @returns {[number, number][]|null} null when no state gives a rate (unlimited or unknown)
 */
function linkRatePoints(history, loadWallMs, seconds) {
  if (!history || !history.length || !history.some((s) => s.downlinkRate)) return null;
  const schedules = history.map((s) => ({ since: s.clockOriginWallMs, schedule: s.downlinkRate ? createRateSchedule(s.downlinkRate) : null }));
  const points = [];
  for (let ms = 0; ms <= seconds * 1000; ms += LINK_STEP_MS) {
    const wall = loadWallMs + ms;
    let current = null;
    for (const s of schedules) if (s.since <= wall) current = s;
    if (!current) continue;
    // An unlimited link has no rate to draw: a gap.
    points.push([ms / 1000, current.schedule ? current.schedule.rateAt(wall - current.since) || null : null]);
  }
  return points;
}

/**
 * @param {object} q  the QoE record (window.qoe)
 * @param {object} [o]
 * @param {object[]} [o.linkHistory]   link states (GET /api/link), oldest first
 * @param {number} [o.pageTimeOrigin]  performance.timeOrigin: page time -> wall clock
 * @returns {object[]} chart models
 */
function pageChartModels(q, { linkHistory = null, pageTimeOrigin = 0 } = {}) {
  const t0 = q.timeline.length ? q.timeline[0].t : 0;
  const x = (t) => (t - t0) / 1000;
  const series = (points) => points.map(([t, v]) => [x(t), v]);
  const end = Math.max(1, ...q.bufferSeries.map(([t]) => x(t)));

  const buffer = [{ label: 'buffer level', points: series(q.bufferSeries) }];
  if (q.liveLatencySeries) buffer.push({ label: 'live latency', points: series(q.liveLatencySeries) });

  const bitrate = [{ label: 'rendered', style: 'step', points: series(q.bitrateSeries) }];
  const decisions = (q.decisions || []).filter((d) => !d.abandoned && Number.isFinite(d.bandwidth));
  if (decisions.length) bitrate.push({ label: 'ABR decision', style: 'points', points: decisions.map((d) => [x(d.t), d.bandwidth]) });
  const downloaded = q.segments.filter((s) => Number.isFinite(s.bandwidth));
  if (downloaded.length) bitrate.push({ label: 'downloaded segment', style: 'points', points: downloaded.map((s) => [x(s.lastByte), s.bandwidth]) });

  const throughput = [{ label: 'segment throughput', style: 'points', points: q.segments.filter((s) => s.throughput).map((s) => [x(s.lastByte), s.throughput]) }];
  const link = linkRatePoints(linkHistory, pageTimeOrigin + t0, end);
  if (link) throughput.push({ label: 'link rate (configured)', style: 'step', dash: true, points: link });

  const xLabel = 'seconds since the playback was requested';
  return [
    { type: 'lines', title: q.liveLatencySeries ? 'Buffer level and live latency' : 'Buffer level', xLabel, yLabel: 'seconds', unit: 's', series: buffer },
    { type: 'lines', title: 'Bitrate', xLabel, yLabel: 'Mbit/s', unit: 'bit/s', series: bitrate },
    { type: 'lines', title: 'Throughput', xLabel, yLabel: 'Mbit/s', unit: 'bit/s', series: throughput },
  ];
}

module.exports = { pageChartModels, linkRatePoints };
