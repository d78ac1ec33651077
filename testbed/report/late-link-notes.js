'use strict';
// Playbacks kept although their emulated link was not the configured one. The runner sets a
// playback aside and plays it again when an emulator timer fired later than the run's limit
// (runner/late-timers.js); when every try ran late it keeps the last one with a WARNING on its
// progress line. That WARNING must not end with the run: the report names such playbacks and
// their cells above the tables, so nobody has to flag them by hand. Each is judged by the lab's
// 50 ms limit or its run's own stricter one, and the reason given is what that run did (its
// limit and tries, from the record's lateCheck): a run made with --late-limit off or a higher
// limit did not "play it again on every try".
// Needs the records (counters.lateTimers.maxMs); results.csv keeps only the count.

const { keptPastLimit } = require('../runner/late-timers');
const { cellsHolding } = require('./cells-holding');

/**
 * @param {object[]} records  playback records (playback-record.js)
 * @param {{label: string, ids: string[]}[]} groups  the report's cells (aggregate.js)
 * @returns {string[]} sentences; none when every kept playback's timers stayed within the limit
 */
function lateLinkNotes(records, groups) {
  const late = records.map((r) => ({ id: r.id, late: keptPastLimit(r) })).filter((x) => x.late);
  if (!late.length) return [];
  const n = late.length;
  return [`${n} playback${n === 1 ? ' was' : 's were'} kept although emulator timers fired later than the limit (the machine was too busy), so ${n === 1 ? 'its' : 'their'} link was not exactly the configured one: ${late.map((x) => `${x.id} (up to ${x.late.maxMs.toFixed(1)} ms, ${x.late.count}x, ${x.late.why})`).join('; ')}. In ${cellsHolding(groups, late.map((x) => x.id))}; play ${n === 1 ? 'it' : 'them'} again on a quieter machine to be sure.`];
}

module.exports = { lateLinkNotes };
