'use strict';
// The playback's scripted seeks and stop time, checked against media time several times a
// second. Pure: it says what is due; the playback does it.

/**
 * @param {{at: number, to: number}[]} seeks  media seconds
 * @param {number|null|undefined} stopAt  stop at this media time (none: play to the end)
 */
function createSeekSchedule(seeks, stopAt) {
  const pending = (seeks || []).map((s) => ({ at: s.at, to: s.to, done: false })).sort((a, b) => a.at - b.at);
  return {
    /** The first seek due at media time t that has not been done yet (then marked done), or null. */
    dueSeek(t) {
      const due = pending.find((s) => !s.done && t >= s.at);
      if (!due) return null;
      due.done = true;
      return { at: due.at, to: due.to };
    },
    /** Whether to stop now. A stop waits for a pending seek to end, so its wait is measured in full. */
    stopDue(t, seekPending) {
      return stopAt !== undefined && stopAt !== null && t >= stopAt && !seekPending;
    },
  };
}

module.exports = { createSeekSchedule };
