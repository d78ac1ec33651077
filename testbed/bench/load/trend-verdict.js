'use strict';
// "Flat or growing" for a resource sampled over time (the origin's RSS, its open fds): a
// least-squares line through the samples, and the growth it predicts over the sampled span.
// A line, not first-vs-last, because RSS saws up and down with garbage collection and a single
// unlucky sample at either end would decide the verdict.

/**
 * @param {{t: number, value: number}[]} samples  t in seconds
 * @returns {{slopePerSecond: number, intercept: number}|null}  null with fewer than 2 distinct times
 */
function fitLine(samples) {
  const n = samples.length;
  if (n < 2) return null;
  let st = 0;
  let sv = 0;
  for (const s of samples) {
    st += s.t;
    sv += s.value;
  }
  const mt = st / n;
  const mv = sv / n;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.t - mt) * (s.value - mv);
    den += (s.t - mt) ** 2;
  }
  if (den === 0) return null;
  const slopePerSecond = num / den;
  return { slopePerSecond, intercept: mv - slopePerSecond * mt };
}

/**
 * @param {{t: number, value: number}[]} samples
 * @param {{relativeTolerance: number, absoluteTolerance: number}} tolerance
 *   growing = the fitted growth over the span exceeds both tolerance × mean and the absolute
 *   tolerance (RSS in bytes, fds in descriptors): small noise on a small number is not a leak.
 * @returns {{verdict: 'flat'|'growing'|'too few samples', growth: number|null, slopePerSecond: number|null, mean: number|null}}
 */
function trendVerdict(samples, { relativeTolerance, absoluteTolerance }) {
  const line = samples.length >= 3 ? fitLine(samples) : null;
  if (!line) return { verdict: 'too few samples', growth: null, slopePerSecond: null, mean: null };
  const mean = samples.reduce((a, s) => a + s.value, 0) / samples.length;
  const span = samples[samples.length - 1].t - samples[0].t;
  const growth = line.slopePerSecond * span;
  const limit = Math.max(relativeTolerance * Math.abs(mean), absoluteTolerance);
  return { verdict: growth > limit ? 'growing' : 'flat', growth, slopePerSecond: line.slopePerSecond, mean };
}

module.exports = { fitLine, trendVerdict };
