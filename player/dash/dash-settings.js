'use strict';
// The dash.js settings a lab playback runs with, from the chosen ABR's registry entry. Pure:
// the same entry and parameters always give the same settings.
const { builtInRulesOff } = require('./custom-abr-rule');

/**
 * @param {object} o
 * @param {object} o.abr        the ABR registry entry (player/abr/contract.js)
 * @param {object} o.params     its complete parameters
 * @param {number} o.segmentDurationSeconds
 * @param {number} o.logLevel   dashjs.Debug.LOG_LEVEL_WARNING
 * @param {number} [o.liveDelaySeconds]  a live playback's target latency (none: on demand)
 * @returns {object} for player.updateSettings()
 */
function labDashSettings({ abr, params, segmentDurationSeconds, logLevel, liveDelaySeconds }) {
  // No request timeout: dash.js aborts a segment download after 20 s by default and asks again,
  // so on a slow link a 10 s segment (paper 000's) is fetched over and over and never arrives.
  // The papers' players waited; a lab measuring what a link delivers must too.
  const settings = { streaming: { buffer: {}, abr: {}, fragmentRequestTimeout: 0 }, debug: { logLevel } };
  if (liveDelaySeconds) {
    settings.streaming.delay = { liveDelay: liveDelaySeconds };
    // No catch-up: paper 002's player played at 1x, so a stall's length stays in the latency
    // (the QoE record's liveLatencyGrowthSeconds), and playback-rate changes would alter the
    // play time that rebuffer rates are computed against.
    settings.streaming.liveCatchup = { enabled: false };
  }
  // An entry that leaves the choice to dash.js (dashjs.js) keeps dash.js's defaults.
  if (!abr.decide) return settings;
  Object.assign(settings.streaming.abr, builtInRulesOff().streaming.abr);
  // dash.js 5 switches fast by default: on every up-switch it fetches the segment at the
  // playhead again at the new rung. BASIC's ramp-up then fetched segment 1 once per rung
  // (13 times on paper-http2's ladder) while playback stalled, and ~45 % of all downloads in
  // paper003-trace were such repeats. The papers' players fetch each segment once, and the
  // algorithms decide for the next segment only.
  settings.streaming.buffer.fastSwitchEnabled = false;
  // dash.js stops requesting at its own buffer target (12-30 s by default), which is below
  // where BASIC, SARA and BBA-2 start to wait; the algorithm's ceiling becomes dash.js's
  // target so that the algorithm, not dash.js, decides when to pause.
  const ceiling = abr.bufferCeilingSeconds(params, segmentDurationSeconds);
  settings.streaming.buffer.bufferTimeDefault = ceiling;
  settings.streaming.buffer.bufferTimeAtTopQuality = ceiling;
  settings.streaming.buffer.bufferTimeAtTopQualityLongForm = ceiling;
  settings.streaming.buffer.longFormContentDurationThreshold = Infinity;
  return settings;
}

module.exports = { labDashSettings };
