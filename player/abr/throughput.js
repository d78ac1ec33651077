'use strict';
// Throughput estimates from the last few segment downloads (most recent last).

/** The last `count` downloads (fewer if there are fewer). */
function lastDownloads(downloads, count) {
  return downloads.slice(Math.max(0, downloads.length - count));
}

/**
 * BASIC's estimate (AStream basic_dash2.py): 8 * sum(bytes) / sum(seconds) over the window,
 * i.e. total bits over total download time, not the mean of per-segment rates.
 * @returns {number|null} bits/s, null without downloads
 */
function windowThroughputBitsPerSecond(downloads, count) {
  const window = lastDownloads(downloads, count);
  if (window.length === 0) return null;
  let bytes = 0;
  let seconds = 0;
  for (const d of window) {
    bytes += d.bytes;
    seconds += d.seconds;
  }
  return (8 * bytes) / seconds;
}

/**
 * SARA's estimate (Juluri et al. 2015, the weighted harmonic mean): H = sum(w_i) / sum(w_i / d_i)
 * with weight w_i = segment i's size and d_i = its download rate. Written out as the paper does;
 * since d_i = w_i / t_i it equals sum(bytes) / sum(seconds), the same number BASIC computes. The
 * size weighting is what makes a big segment count for more than a small one.
 * @returns {number|null} bits/s, null without downloads
 */
function sizeWeightedHarmonicMeanBitsPerSecond(downloads, count) {
  const window = lastDownloads(downloads, count);
  if (window.length === 0) return null;
  let weights = 0;
  let weightOverRate = 0;
  for (const d of window) {
    const rateBitsPerSecond = (8 * d.bytes) / d.seconds;
    weights += d.bytes;
    weightOverRate += d.bytes / rateBitsPerSecond;
  }
  return weights / weightOverRate;
}

module.exports = { lastDownloads, windowThroughputBitsPerSecond, sizeWeightedHarmonicMeanBitsPerSecond };
