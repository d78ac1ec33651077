'use strict';
// Playbacks kept although their emulated link was not the configured one. The runner sets a
// playback aside and plays it again when an emulator timer fired later than the lab's limit
// (runner/late-timers.js); when every try ran late it keeps the last one with a WARNING on its
// progress line. That WARNING must not end with the run: the report names such playbacks and
// their cells above the tables, by the same limit, so nobody has to flag them by hand.
// Needs the records (counters.lateTimers.maxMs); results.csv keeps only the count.

const { lateBeyondLimit, DEFAULT_LATE_LIMIT_MS } = require('../runner/late-timers');

/**
 * @param {object[]} records  playback records (playback-record.js)
 * @param {{label: string, ids: string[]}[]} groups  the report's cells (aggregate.js)
 * @param {number} [limitMs]
 * @returns {string[]} sentences; none when every kept playback's timers stayed within the limit
 */
function lateLinkNotes(records, groups, limitMs = DEFAULT_LATE_LIMIT_MS) {
  const late = records.map((r) => ({ id: r.id, late: lateBeyondLimit(r, limitMs) })).filter((x) => x.late);
  if (!late.length) return [];
  const ids = new Set(late.map((x) => x.id));
  const cells = groups.filter((g) => g.ids.some((id) => ids.has(id))).map((g) => g.label);
  const n = late.length;
  return [`${n} playback${n === 1 ? ' was' : 's were'} kept although emulator timers fired later than the lab's ${limitMs} ms limit on every try (the machine was too busy), so ${n === 1 ? 'its' : 'their'} link was not exactly the configured one: ${late.map((x) => `${x.id} (up to ${x.late.maxMs.toFixed(1)} ms, ${x.late.count}x)`).join(', ')}. In cell${cells.length === 1 ? '' : 's'} ${cells.join(', ')}; play ${n === 1 ? 'it' : 'them'} again on a quieter machine to be sure.`];
}

module.exports = { lateLinkNotes };
