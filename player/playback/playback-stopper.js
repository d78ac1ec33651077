'use strict';
// Ends a playback once: stops the recorder, snapshots its record, stops the player, then resolves
// `ended` with the record. Two ways a run's end used to get lost (a paper004 playback once played
// the whole clip while the runner waited 8 minutes for the page to say "done"):
// - a step throwing (dash.js's reset() on a player in an odd state) left `ended` unresolved, so
//   every step runs and `ended` resolves whatever throws, with the error in the record;
// - the media element's one 'ended' event can be missed or spent early, so the caller also checks
//   the element's `ended` flag on every tick.

/**
 * @param {object} o
 * @param {object} o.recorder   PlaybackRecorder: stop(), toJSON(), error(message)
 * @param {object} o.player     dash.js MediaPlayer: pause(), reset()
 * @param {Function} [o.beforeStop] runs first (the caller clears its ticker there)
 * @returns {{stop: Function, ended: Promise<object>, record: Function}}
 */
function createPlaybackStopper({ recorder, player, beforeStop = () => {} }) {
  let stopped = false;
  let finalRecord = null;
  let resolveEnded;
  const ended = new Promise((resolve) => {
    resolveEnded = resolve;
  });
  const attempt = (what, fn) => {
    try {
      return fn();
    } catch (err) {
      recorder.error(`stopping the playback: ${what} failed: ${(err && err.message) || err}`);
      return undefined;
    }
  };

  const stop = () => {
    if (stopped) return;
    stopped = true;
    attempt('the caller', beforeStop);
    attempt('the recorder', () => recorder.stop());
    attempt('pause()', () => player.pause());
    // Snapshot before reset(): reset() detaches the video element and zeroes its frame counters.
    let record = attempt('the record', () => recorder.toJSON());
    // A stopped run stops fetching too: requests after the stop would load the link in a
    // testbed run and never show up in the QoE record.
    const errorsBefore = recorder.errors.length;
    attempt('reset()', () => player.reset());
    if (!record) record = { errors: recorder.errors.slice() };
    else if (recorder.errors.length > errorsBefore) record = { ...record, errors: recorder.errors.slice(), summary: { ...record.summary, errors: recorder.errors.length } };
    finalRecord = record;
    resolveEnded(record);
  };

  return { stop, ended, record: () => finalRecord };
}

module.exports = { createPlaybackStopper };
