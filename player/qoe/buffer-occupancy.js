'use strict';
// How steady the buffer stays while the playback is fed (paper 000 Fig. 10: FDSP's "consistent
// client buffer occupancy compared to the more erratic results exhibited by TCP"). The paper
// shows plots; the lab puts a number on them: the mean and the standard deviation of the
// sampled buffer level from the first frame to the end of the last segment's download. After
// that the buffer can only drain to the end of the media, whatever the transport, so that tail
// is left out; so are seek waits (a seek empties the buffer by the seek, not by the transport).
// Stalls stay in: the buffer running dry is what the paper's plots show. Pure.

/**
 * @param {[number, number][]} bufferSeries  [t ms, seconds buffered ahead], sampled evenly
 * @param {object[]} timeline                the playback's events (summarize-playback.js)
 * @returns {{meanSeconds: number, sdSeconds: number, samples: number}|null}  null without a
 *   first frame, a downloaded segment after it, or samples between the two
 */
function bufferOccupancy(bufferSeries, timeline) {
  if (!Array.isArray(bufferSeries) || !Array.isArray(timeline)) return null;
  const first = timeline.find((e) => e.type === 'playing');
  const segments = timeline.filter((e) => e.type === 'segment');
  const last = segments.length ? segments[segments.length - 1] : null;
  if (!first || !last || !(last.t > first.t)) return null;
  const seekWaits = [];
  timeline.forEach((e, i) => {
    if (e.type !== 'seek') return;
    const resumed = timeline.slice(i + 1).find((x) => x.type === 'playing');
    seekWaits.push([e.t, resumed ? resumed.t : Infinity]);
  });
  const inSeekWait = (t) => seekWaits.some(([from, to]) => t >= from && t < to);
  const levels = bufferSeries.filter(([t, v]) => t >= first.t && t <= last.t && Number.isFinite(v) && !inSeekWait(t)).map(([, v]) => v);
  if (!levels.length) return null;
  const mean = levels.reduce((a, b) => a + b, 0) / levels.length;
  const variance = levels.reduce((a, v) => a + (v - mean) ** 2, 0) / levels.length;
  return { meanSeconds: mean, sdSeconds: Math.sqrt(variance), samples: levels.length };
}

module.exports = { bufferOccupancy };
