'use strict';
// Paper 002 §3.1 keeps, across a seek, "the bitrate ... of the last played segment before the
// seeking". dash.js fetches a seek's target segment at the representation it last requested,
// without asking the ABR rules ("right after a seek we should not immediately check the
// playback quality", ScheduleController), so the one on screen is set by hand, on every seek
// (scheduled or the viewer's). The ABR side of the hold is DecisionInput.holdCurrent
// (abr-input.js).

/**
 * Must be called after the recorder has started: its own 'seeking' listener notes what was on
 * screen, and this one reads it.
 * @param {object} o
 * @param {HTMLVideoElement} o.video
 * @param {object} o.player      the dash.js MediaPlayer
 * @param {object} o.recorder    the PlaybackRecorder (seekPending, representationAtSeek, error)
 */
function keepBitrateOnSeek({ video, player, recorder }) {
  video.addEventListener('seeking', () => {
    if (!recorder.seekPending || recorder.representationAtSeek === null) return;
    try {
      player.setRepresentationForTypeById('video', recorder.representationAtSeek);
    } catch (err) {
      recorder.error(`keeping the bitrate across a seek: ${err.message}`);
    }
  });
}

module.exports = { keepBitrateOnSeek };
