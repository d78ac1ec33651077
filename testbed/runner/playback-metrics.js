'use strict';
// What a playback's record adds to the player's own QoE: numbers only the testbed can know,
// from the emulator's counters and the link's configured rate. Pure functions.
//
//   overhead         1 - response body bytes / IP bytes delivered to the client (paper 003
//                    eq. 1: TCP/IP, TLS and HTTP framing), both counted up to the end of the
//                    last finished response, so a download cut short when the run stops is
//                    not counted as overhead (wireSeries gives the wire bytes at that time)
//   mediaThroughput  media bits / (first segment request -> last segment byte)
//   linkUtilization  mediaThroughput / mean available rate over the same window (paper 003
//                    eq. 2), the rates of all paths summed on a multipath link; null on an
//                    unlimited link (or path)
//   packetLossRatio  packets the emulator dropped (loss, queue, link down) / packets sent,
//                    per direction: the network's PLR. (An unreliable transport's own PLR,
//                    media packets that never reached the player, is the player's to report.)
const { createRateSchedule } = require('../netem/rate-schedule');

/** Mean rate (bits/s) of a rate-schedule spec over [fromMs, toMs) on the schedule's clock. */
function meanRate(spec, fromMs, toMs, stepMs = 10) {
  if (!spec) return null;
  const schedule = createRateSchedule(spec);
  if (!(toMs > fromMs)) return schedule.rateAt(Math.max(0, fromMs)) || null;
  let sum = 0;
  let n = 0;
  for (let t = fromMs; t < toMs; t += stepMs) {
    sum += schedule.rateAt(Math.max(0, t));
    n += 1;
  }
  return n && sum ? sum / n : null;
}

function dropRatio(c) {
  if (!c || !c.packetsIn) return null;
  const dropped = Object.values(c.drops || {}).reduce((a, b) => a + b, 0);
  return dropped / c.packetsIn;
}

/** Linear interpolation in a [[t, value], ...] series sorted by t (clamped at the ends). */
function valueAt(series, t) {
  if (!series || !series.length) return null;
  if (t <= series[0][0]) return series[0][1] * (series[0][0] > 0 ? Math.max(0, t) / series[0][0] : 1);
  for (let i = 1; i < series.length; i += 1) {
    const [t1, v1] = series[i];
    if (t <= t1) {
      const [t0, v0] = series[i - 1];
      return t1 === t0 ? v1 : v0 + ((v1 - v0) * (t - t0)) / (t1 - t0);
    }
  }
  return series[series.length - 1][1];
}

/**
 * @param {object} o
 * @param {object} o.qoe               the player's QoE JSON (window.lab.done)
 * @param {object|null} o.counters     emulator counters {toClient, toServer, lateTimers}
 * @param {object|object[]|null} o.rate  the downlink's rate-schedule spec (null: unlimited), or
 *   one per path of a multipath link (the first path's first): their sum is what is available
 * @param {number} [o.pageToLinkMs]    page clock + this = the link schedule's clock
 * @param {[number, number][]} [o.wireSeries]  [page ms, downlink IP bytes since the start]
 */
function playbackMetrics({ qoe, counters = null, rate = null, pageToLinkMs = 0, wireSeries = null }) {
  const segments = (qoe && qoe.segments) || [];
  const mediaBytes = segments.reduce((a, s) => a + (s.bytes || 0), 0);
  let windowMs = null;
  let mediaThroughput = null;
  let availableRate = null;
  if (segments.length) {
    const from = Math.min(...segments.map((s) => s.requestStart));
    const to = Math.max(...segments.map((s) => s.lastByte));
    windowMs = to - from;
    if (windowMs > 0) mediaThroughput = (8 * mediaBytes) / (windowMs / 1000);
    const rates = (Array.isArray(rate) ? rate : [rate]).map((spec) => meanRate(spec, from + pageToLinkMs, to + pageToLinkMs));
    availableRate = rates.every((r) => r !== null) ? rates.reduce((a, b) => a + b, 0) : null;
  }
  const down = counters && counters.toClient;
  const wireBytesDown = down ? down.bytesOut : null;
  const bodyBytes = qoe && qoe.summary && qoe.summary.bytesPerTransport
    ? Object.values(qoe.summary.bytesPerTransport).reduce((a, b) => a + b, 0) : mediaBytes;
  let wireAtLastResponse = wireBytesDown;
  if (wireSeries && wireSeries.length && segments.length) {
    wireAtLastResponse = Math.min(wireBytesDown, valueAt(wireSeries, Math.max(...segments.map((s) => s.lastByte))));
  }
  return {
    mediaBytes,
    bodyBytes,
    wireBytesDown,
    wireBytesUp: counters && counters.toServer ? counters.toServer.bytesOut : null,
    overhead: wireAtLastResponse ? 1 - bodyBytes / wireAtLastResponse : null,
    mediaThroughput,
    availableRate,
    linkUtilization: mediaThroughput !== null && availableRate ? mediaThroughput / availableRate : null,
    packetLossRatio: dropRatio(down),
    packetLossRatioUp: dropRatio(counters && counters.toServer),
    lateTimers: counters && counters.lateTimers ? counters.lateTimers.count : null,
  };
}

module.exports = { playbackMetrics, meanRate, valueAt };
