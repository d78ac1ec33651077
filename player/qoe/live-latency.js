'use strict';
// Live latency (how far behind the broadcast the viewer is: wall clock - availabilityStartTime
// - media time, dash.js's getCurrentLiveLatency) summarized from samples taken while frames
// were playing. A stall adds its length to the latency, and without catch-up (the lab's
// player, like paper 002's, plays at 1x) it stays added: the latency at the end minus at the
// start is the time the viewer fell behind. Pure.

// A change between two consecutive samples at least this large is a jump (a stall, a seek to
// the live edge), not the sampling's jitter.
const JUMP_SECONDS = 0.5;

/**
 * @param {[number, number][]} series  [t ms, latency seconds], in time order, playing samples only
 * @returns {object|null} null without samples (an on-demand playback)
 */
function summarizeLiveLatency(series) {
  const values = (series || []).map(([, v]) => v).filter(Number.isFinite);
  if (!values.length) return null;
  let jumpsUp = 0;
  let jumpsDown = 0;
  for (let i = 1; i < values.length; i += 1) {
    const d = values[i] - values[i - 1];
    if (d >= JUMP_SECONDS) jumpsUp += 1;
    else if (d <= -JUMP_SECONDS) jumpsDown += 1;
  }
  const first = values[0];
  const last = values[values.length - 1];
  return {
    liveLatencyStartSeconds: first,
    liveLatencyEndSeconds: last,
    liveLatencyMeanSeconds: values.reduce((a, b) => a + b, 0) / values.length,
    liveLatencyMaxSeconds: Math.max(...values),
    liveLatencyGrowthSeconds: last - first,
    liveLatencyJumpsUp: jumpsUp,
    liveLatencyJumpsDown: jumpsDown,
  };
}

module.exports = { summarizeLiveLatency, JUMP_SECONDS };
