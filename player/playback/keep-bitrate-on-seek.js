'use strict';
// Paper 002 §3.1 keeps, across a seek, "the bitrate ... of the last played segment before the
// seeking". dash.js fetches a seek's target segment at the representation it last requested,
// without asking the ABR rules ("right after a seek we should not immediately check the
// playback quality", ScheduleController), so the one on screen is set by hand, on every seek
// (scheduled or the viewer's). The ABR side of the hold is DecisionInput.holdCurrent
// (abr-input.js).

/**
 * Must be called after lab-player.js has passed dash.js's PLAYBACK_SEEKING to the recorder
 * (recorder.viewerSeeking()): that listener notes what was on screen, and this one reads it. Both
 * run before dash.js's own PLAYBACK_SEEKING listeners (priority, below), which fetch the
 * target. A seek the recorder takes for the player's own (a jump over a gap) holds nothing.
 * @param {object} o
 * @param {object} o.player      the dash.js MediaPlayer
 * @param {object} o.events      dash.js's MediaPlayer.events
 * @param {object} o.recorder    the PlaybackRecorder (seekPending, representationAtSeek, error)
 */
function keepBitrateOnSeek({ player, events, recorder }) {
  player.on(events.PLAYBACK_SEEKING, () => {
    if (!recorder.seekPending || recorder.representationAtSeek === null) return;
    try {
      player.setRepresentationForTypeById('video', recorder.representationAtSeek);
    } catch (err) {
      recorder.error(`keeping the bitrate across a seek: ${err.message}`);
    }
  }, null, { priority: SEEK_LISTENER_PRIORITY });
}

// dash.js's EventBus.EVENT_PRIORITY_HIGH: before its own listeners, in the order registered.
const SEEK_LISTENER_PRIORITY = 5000;

module.exports = { keepBitrateOnSeek, SEEK_LISTENER_PRIORITY };
