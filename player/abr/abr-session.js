'use strict';
// One playback's run of one ABR: the algorithm's state between calls, and the three ways the
// player talks to it (a decision per segment, a seek, a download in progress). Pure: the dash.js
// rules (player/dash/custom-abr-rule.js) and the seek schedule call it, and a unit test can
// drive it with scripted inputs.

/**
 * @param {object} abr     an ABR registry entry that decides (player/abr/contract.js)
 * @param {object} params  its complete parameters (abr.resolveParams(overrides))
 */
function createAbrSession(abr, params) {
  if (!abr.decide) throw new Error(`ABR "${abr.name}" leaves the choice to dash.js: there is nothing to run`);
  // null before the first decision, as the algorithms expect (they start from initialState()).
  let state = null;
  return {
    abr,
    params,
    get state() {
      return state;
    },
    /** The decision for the next segment; the algorithm's new state is kept. */
    decide(input) {
      const decision = abr.decide(input, state, params);
      state = decision.state;
      return decision;
    },
    /** A seek was requested: the algorithm's onSeek hook (if any) updates its state. */
    seek(seek) {
      state = abr.onSeek({ fromSeconds: seek.fromSeconds, toSeconds: seek.toSeconds, scheduled: Boolean(seek.scheduled) }, state, params);
    },
    /**
     * A media segment is downloading: should it be abandoned for a lower rung?
     * @returns {null|{representationIndex: number, reason: string}} null: keep downloading
     */
    shouldAbandon(download) {
      const answer = abr.shouldAbandon(download, state, params);
      if (answer === null || answer === undefined) return null;
      const i = answer.representationIndex;
      // Abandoning for the same or a higher rung would only fetch the same bytes again.
      if (!(Number.isInteger(i) && i >= 0 && i < download.representationIndex)) {
        throw new RangeError(`${abr.name}: shouldAbandon must name a rung below the one downloading (${download.representationIndex}), got ${JSON.stringify(i)}`);
      }
      return { representationIndex: i, reason: String(answer.reason || '') };
    },
    reset() {
      state = null;
    },
  };
}

module.exports = { createAbrSession };
