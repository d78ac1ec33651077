'use strict';
// Throughput series arithmetic, pure: cumulative byte counts sampled over time (the page's
// in-order bytes of a throughput run, a competing flow's received bytes) cut into fixed windows
// (paper 001: "every 10 seconds the in-order throughput is measured"), their mean and
// variation, a flow's mean rate over an interval, and the throughput ratio of paper 001 Fig. 7.
// A series is [[ms, cumulative bytes], ...] sorted by time, on one clock for all series of a
// playback (ms since its start).

/** Cumulative bytes at t, linear between samples; clamped to the first and last sample. */
function bytesAt(series, t) {
  if (!series.length) return 0;
  if (t <= series[0][0]) return series[0][1];
  for (let i = 1; i < series.length; i += 1) {
    const [t1, b1] = series[i];
    if (t <= t1) {
      const [t0, b0] = series[i - 1];
      return t1 === t0 ? b1 : b0 + ((b1 - b0) * (t - t0)) / (t1 - t0);
    }
  }
  return series[series.length - 1][1];
}

/** Mean rate in bit/s over [fromMs, toMs] (null for an empty interval or series). */
function meanRate(series, fromMs, toMs) {
  if (!series.length || !(toMs > fromMs)) return null;
  return (8 * (bytesAt(series, toMs) - bytesAt(series, fromMs))) / ((toMs - fromMs) / 1000);
}

/**
 * The whole windows of windowMs from fromMs up to toMs, each with its rate in bit/s (a last
 * partial window is left out: it would be a rate over a shorter time).
 * @returns {{startMs: number, endMs: number, bitsPerSecond: number}[]}
 */
function windowRates(series, { fromMs, toMs, windowMs = 10000 }) {
  const out = [];
  for (let start = fromMs; start + windowMs <= toMs + 1e-6; start += windowMs) {
    out.push({ startMs: start, endMs: start + windowMs, bitsPerSecond: meanRate(series, start, start + windowMs) });
  }
  return out;
}

/**
 * Mean, standard deviation and coefficient of variation of the windows' rates: how steady a
 * throughput is (paper 001's claim is that its streams' throughput is stable under loss).
 */
function windowStats(windows) {
  const xs = windows.map((w) => w.bitsPerSecond).filter((v) => typeof v === 'number' && Number.isFinite(v));
  if (!xs.length) return { n: 0, mean: null, sd: null, cv: null, min: null, max: null };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1)) : 0;
  return { n: xs.length, mean, sd, cv: mean > 0 ? sd / mean : null, min: Math.min(...xs), max: Math.max(...xs) };
}

/** The common part of two intervals [a0, a1] and [b0, b1], or null. */
function overlap([a0, a1], [b0, b1]) {
  const from = Math.max(a0, b0);
  const to = Math.min(a1, b1);
  return to > from ? [from, to] : null;
}

/** Samples [[ms, bytes], ...] on a playback's clock (ms since startMs, on the samples' clock). */
function rebase(samples, startMs) {
  return samples.map(([t, b]) => [t - startMs, b]);
}

/**
 * Paper 001's throughput ratio: the measured transport's rate over the competing flows' rate,
 * both over the time they ran together (> 1: the transport takes more than its share).
 * @param {[number, number][]} ours     the transport's series
 * @param {[number, number][][]} theirs  each competing flow's series
 * @param {[number, number]} window     the interval both ran
 * @returns {{ours: number|null, theirs: number|null, ratio: number|null}}
 */
function throughputRatio(ours, theirs, [fromMs, toMs]) {
  const a = meanRate(ours, fromMs, toMs);
  const rates = theirs.map((s) => meanRate(s, fromMs, toMs)).filter((v) => v !== null);
  const b = rates.length ? rates.reduce((x, y) => x + y, 0) : null;
  return { ours: a, theirs: b, ratio: a !== null && b ? a / b : null };
}

module.exports = { bytesAt, meanRate, windowRates, windowStats, overlap, rebase, throughputRatio };
