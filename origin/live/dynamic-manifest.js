'use strict';
// A content's on-demand MPD (type="static", as the packager wrote it) turned into the MPD of a
// live broadcast of the same segments: type="dynamic" with the broadcast's
// availabilityStartTime, a publishTime, the time-shift window and a suggested presentation delay,
// and a UTCTiming element carrying the origin's clock (urn:mpeg:dash:utc:direct:2014). Without
// it dash.js asks time.akamai.com, which the lab's machines cannot reach. Everything else stays:
// the SegmentTemplate (segment n is chunk-<rep>-<n>.m4s, media time (n - 1)·d) and
// mediaPresentationDuration, which tells the player where the broadcast ends. No
// minimumUpdatePeriod: the MPD never changes, so the player never re-fetches it. Pure.

const iso = (ms) => new Date(ms).toISOString();
/** xs:duration with millisecond precision: 8 -> "PT8S", 2.5 -> "PT2.5S". */
const duration = (seconds) => `PT${Number(seconds.toFixed(3))}S`;

/** Sets (or replaces) one attribute of an opening tag's text. */
function setAttribute(tag, name, value) {
  const re = new RegExp(`(\\s${name}=)"[^"]*"`);
  if (re.test(tag)) return tag.replace(re, `$1"${value}"`);
  return tag.replace(/\s*(\/?>)$/, ` ${name}="${value}"$1`);
}

/**
 * @param {string} staticMpd   the content's manifest.mpd
 * @param {object} o
 * @param {number} o.startMs              availabilityStartTime (ms since the epoch)
 * @param {number} o.nowMs                the origin's clock: publishTime and UTCTiming
 * @param {number} o.timeShiftSeconds     timeShiftBufferDepth
 * @param {number} o.suggestedDelaySeconds  suggestedPresentationDelay (players without their own
 *   target latency use it)
 * @returns {string}
 * @throws {Error} when the text has no <MPD> element or is already dynamic
 */
function dynamicManifest(staticMpd, { startMs, nowMs, timeShiftSeconds, suggestedDelaySeconds }) {
  const open = /<MPD\b[^>]*>/.exec(staticMpd);
  if (!open) throw new Error('not an MPD: no <MPD> element');
  if (/\stype="dynamic"/.test(open[0])) throw new Error('the MPD is already dynamic');
  if (!staticMpd.includes('</MPD>')) throw new Error('not an MPD: no </MPD>');
  let tag = open[0];
  tag = setAttribute(tag, 'type', 'dynamic');
  tag = setAttribute(tag, 'availabilityStartTime', iso(startMs));
  tag = setAttribute(tag, 'publishTime', iso(nowMs));
  tag = setAttribute(tag, 'timeShiftBufferDepth', duration(timeShiftSeconds));
  tag = setAttribute(tag, 'suggestedPresentationDelay', duration(suggestedDelaySeconds));
  const body = staticMpd.slice(0, open.index) + tag + staticMpd.slice(open.index + open[0].length);
  // UTCTiming is the last child the schema allows after the periods: just before </MPD>.
  const at = body.lastIndexOf('</MPD>');
  return `${body.slice(0, at)}\t<UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="${iso(nowMs)}"/>\n${body.slice(at)}`;
}

module.exports = { dynamicManifest };
