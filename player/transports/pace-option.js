'use strict';
// The FDSP transports' pace for their unreliable part (issue 16 item 2): "off", or a margin M:
// the origin sends the unreliable part at most at the content's highest bitrate x M, as paper
// 000's UDP substream was sent at a set rate. The reliable part is never paced (its congestion
// control alone). Why: unpaced, the DataChannel's unreliable burst at a session's start
// overflowed a 100 KB bottleneck queue and SCTP took 20 s to recover the reliable channel's
// losses; one WebTransport session under cubic sent a segment's datagrams as fast as its window
// allowed, and the emulator's queue dropped 1.6-1.8 % of them when cubic probed past the link
// (Chromium's socket on loopback dropped 3-4 %). The origin paces in its channel pump
// (origin/datachannel/channel-pump.js), for either carrier; a split WebTransport carrier's
// fixed-rate session holds its own rate too, and the lower of the two applies.
// The one place its rules are written: the page URL (?pace=), a scenario's transport entry
// ({name: datachannel, pace: 1.5}) and the page's form all parse it here.
const { numberFrom, show } = require('../option-values');
const { MIN_PACE_BPS, MAX_PACE_BPS } = require('../../shared/fdsp/frames');

const MIN_MARGIN = 0.5;
const MAX_MARGIN = 10;

function parse(raw, where, problems) {
  if (typeof raw === 'string' && raw.trim() === 'off') return 'off';
  const n = numberFrom(raw);
  if (!(n >= MIN_MARGIN && n <= MAX_MARGIN)) {
    problems.push(`${where.whole} must be "off" or a margin from ${MIN_MARGIN} to ${MAX_MARGIN} (x the highest bitrate), got ${show(raw)}`);
    return undefined;
  }
  return n;
}

/** bits/s for the origin, or null (unpaced, or the content's bitrates are not known). */
function paceBps(pace, highestBandwidthBps) {
  if (pace === 'off' || !(highestBandwidthBps > 0)) return null;
  // Within what the origin accepts: a tiny ladder x a small margin must not fail every request.
  return Math.min(MAX_PACE_BPS, Math.max(MIN_PACE_BPS, Math.round(highestBandwidthBps * pace)));
}

module.exports = {
  title: 'unreliable pace',
  noun: 'a pace',
  help: `the unreliable part's rate: a margin ${MIN_MARGIN}-${MAX_MARGIN} x the highest representation's bitrate (default 1.5), or "off" (as fast as its congestion control lets it)`,
  default: 1.5,
  parse,
  format: (value) => String(value),
  paceBps,
  MIN_MARGIN,
  MAX_MARGIN,
};
