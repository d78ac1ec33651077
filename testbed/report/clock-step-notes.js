'use strict';
// Playbacks kept although the wall clock was set during them. The runner plays such a
// playback again (runner/clock-step.js); when every try stepped, or the run had --late-limit off,
// it keeps the last with a WARNING on its progress line, and the report names it and its cell
// above the tables: its live latency and the ABR's download timing hold the step, not the
// network's doing.
// Needs the records (clock); results.csv does not keep it.

const { clockSteppedBeyondLimit, WALL_CLOCK_READERS } = require('../runner/clock-step');
const { cellsHolding } = require('./cells-holding');

/**
 * @param {object[]} records  playback records (playback-record.js)
 * @param {{label: string, ids: string[]}[]} groups  the report's cells (aggregate.js)
 * @returns {string[]} a sentence, or none when no kept playback's clock stepped
 */
function clockStepNotes(records, groups) {
  const stepped = records.map((r) => ({ id: r.id, step: clockSteppedBeyondLimit(r) })).filter((x) => x.step);
  if (!stepped.length) return [];
  const n = stepped.length;
  return [`${n} playback${n === 1 ? ' was' : 's were'} kept although the wall clock was set during ${n === 1 ? 'it' : 'them'}, so ${n === 1 ? 'its' : 'their'} ${WALL_CLOCK_READERS} hold the step: ${stepped.map((x) => `${x.id} (${x.step.stepMs.toFixed(0)} ms)`).join('; ')}. In ${cellsHolding(groups, stepped.map((x) => x.id))}; play ${n === 1 ? 'it' : 'them'} again to be sure.`];
}

module.exports = { clockStepNotes };
