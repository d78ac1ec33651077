'use strict';
// Percentiles of request timings, nearest-rank (the value of a real request, never an
// interpolation between two), so "p99 = 180 ms" means one per cent of requests took at least
// that long.

/**
 * @param {number[]} sorted  ascending
 * @param {number} p         0 < p <= 100
 * @returns {number|null}    null for no values
 */
function percentileOfSorted(sorted, p) {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * @param {number[]} values  any order; not modified
 * @returns {{count: number, p50: number|null, p99: number|null, max: number|null}}
 */
function summarize(values) {
  const sorted = Float64Array.from(values).sort();
  return {
    count: sorted.length,
    p50: percentileOfSorted(sorted, 50),
    p99: percentileOfSorted(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : null,
  };
}

module.exports = { percentileOfSorted, summarize };
