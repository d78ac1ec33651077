'use strict';
// The emulated link's counters over one playback: the playback's own share (the page and its
// scripts load before it starts, and the link's counters run from its creation), and the
// downlink bytes sampled over time, the wire side of throughput plots and of overhead.
const { labNowMs } = require('./lab-clock');

/** Counters after minus counters before, leaf by leaf (maxima are kept as they are). */
function diffCounters(after, before) {
  const out = {};
  for (const [k, v] of Object.entries(after || {})) {
    if (typeof v === 'number') out[k] = /max/i.test(k) ? v : v - ((before && before[k]) || 0);
    else out[k] = diffCounters(v, before && before[k]);
  }
  return out;
}

/** Counters of several paths as one link's: numbers add up, maxima stay maxima. */
function sumCounters(list) {
  const out = {};
  for (const c of list) {
    for (const [k, v] of Object.entries(c || {})) {
      if (typeof v === 'number') out[k] = /max/i.test(k) ? Math.max(out[k] ?? -Infinity, v) : (out[k] || 0) + v;
      else if (v && typeof v === 'object') out[k] = sumCounters([out[k] || {}, v]);
    }
  }
  return out;
}

/**
 * Samples the bytes delivered to the client since `before` every `everyMs`.
 * @param {{counters: () => Promise<object>}} link  namespace-link.js's link
 * @param {object} before  the link's counters at the playback's start
 * @returns {{stop: () => void, finish: (totalBytes: number, pageTimeOrigin: number) => Array<[number, number]>}}
 *   finish: stops, ends the series with the playback's total and returns it as
 *   [ms on the page's clock, bytes], the clock the QoE JSON's times use; pageTimeOrigin is the
 *   page's time 0 on lab-clock.js's clock (the samples are stamped on it: the wall clock can step)
 */
function sampleWireBytes(link, before, everyMs = 200) {
  const points = []; // [lab clock ms, bytes]
  let timer = setInterval(() => {
    link.counters().then((c) => {
      if (timer) points.push([labNowMs(), c.toClient.bytesOut - before.toClient.bytesOut]);
    }, () => {});
  }, everyMs);
  const stop = () => {
    clearInterval(timer);
    timer = null;
  };
  return {
    stop,
    finish(totalBytes, pageTimeOrigin) {
      stop();
      points.push([labNowMs(), totalBytes]);
      return points.map(([at, bytes]) => [Math.round(at - pageTimeOrigin), bytes]);
    },
  };
}

module.exports = { sumCounters, diffCounters, sampleWireBytes };
