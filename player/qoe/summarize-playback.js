'use strict';
// QoE metric definitions, written once and used by the player page, the QoE runner and the
// report. Everything is computed from a playback's event timeline, so the same numbers come
// out wherever the timeline is summarized (live on the page, or later from saved JSON).
//
// Definitions (paper 002 §4 unless noted):
// - startup delay: from the load request to the first frame playing.
// - seek wait: from a seek request to playback resuming at the target; a seek during startup or
//   during another seek's wait ends that wait and starts its own.
// - rebuffering: a stall during playback (not startup, not a seek wait) until playback resumes;
//   instances and total time are both reported. A seek the player makes itself during playback
//   (dash.js over a gap in its buffer, e.g. where FDSP data was lost) is no seek of the viewer's:
//   from it until frames advance again the picture stands still or jumps, so that wait is
//   rebuffering, an instance when it interrupted playing, however short (as any 'waiting' is;
//   a jump whose target was buffered waits a frame or two); one that ends the media is none.
//   A live stream fires no 'ended': there dash.js's jump to the media's end (stalled within
//   a gap limit of it) is the end itself when the summary is told where the media ends
//   (opts.mediaEndSeconds); without it the picture stood still until the record's end.
//   gapJumpCount counts these; playerSeeks lists every seek of the player's own, also those during
//   startup or a seek's wait (dash.js moving to what is buffered), whose time is those metrics'.
// - rebuffer rate = rebuffer time / (rebuffer time + media play time).
// - average playback bitrate: the rendered representation's bitrate weighted by the wall time
//   it was playing (what the viewer actually saw, not what was downloaded).
// - average downloaded bitrate: the representations' bitrates weighted by segment duration, over
//   every segment downloaded (including ones never played).
// - switches: rendered quality changes after the first quality; magnitude in bits/s.
//
// Timeline events, all with `t` in milliseconds on one clock (the page's performance.now()):
//   {type:'load', t}                           playback requested
//   {type:'playing', t}                        frames are advancing
//   {type:'stall', t}                          playback stopped for lack of data
//   {type:'seek', t, from, to}                 seek requested (media seconds)
//   {type:'playerSeek', t, from, to}           the player seeked by itself (over a gap, ...)
//   {type:'pause', t} / {type:'ended', t}      the viewer paused / the media ended
//   {type:'quality', t, bandwidth, representationId}   rendered quality changed
//   {type:'segment', t, bandwidth, durationSeconds, bytes}  a media segment finished downloading

// A player seek this close to the media's end is a jump to its end (dash.js lands a
// millionth of a second before it; a frame is 33-42 ms).
const END_TOLERANCE_SECONDS = 0.05;

const STATES = Object.freeze({ IDLE: 'idle', STARTUP: 'startup', PLAYING: 'playing', STALLED: 'stalled', SEEKING: 'seeking', GAP_JUMP: 'gap-jump', PAUSED: 'paused', ENDED: 'ended' });

function checkTimeline(events) {
  if (!Array.isArray(events)) throw new TypeError('timeline must be an array of events');
  let last = -Infinity;
  events.forEach((e, i) => {
    if (!e || typeof e.type !== 'string') throw new TypeError(`timeline event ${i} has no type`);
    if (!Number.isFinite(e.t)) throw new TypeError(`timeline event ${i} (${e.type}) has no finite time t`);
    if (e.t < last) throw new RangeError(`timeline event ${i} (${e.type}) at ${e.t} ms is earlier than the one before (${last} ms)`);
    last = e.t;
  });
}

/**
 * @param {object[]} events  the timeline, in time order
 * @param {object} [opts]
 * @param {number} [opts.now]  the time to close open intervals at (default: the last event's t)
 * @param {number} [opts.mediaEndSeconds]  where the media ends (media seconds): a player seek
 *   to within END_TOLERANCE_SECONDS of it ends the playback
 * @returns {object} the QoE summary (times in seconds, bitrates in bits/s)
 */
function summarizePlayback(events, { now, mediaEndSeconds = null } = {}) {
  checkTimeline(events);
  if (mediaEndSeconds !== null && !(Number.isFinite(mediaEndSeconds) && mediaEndSeconds > 0)) {
    throw new RangeError(`mediaEndSeconds must be a positive number of seconds, got ${mediaEndSeconds}`);
  }
  const atMediaEnd = (to) => mediaEndSeconds !== null && Number.isFinite(to) && to >= mediaEndSeconds - END_TOLERANCE_SECONDS;
  const end = now ?? (events.length ? events[events.length - 1].t : 0);
  let state = STATES.IDLE;
  let since = 0; // when the current state began
  let loadAt = null;
  let startupMs = null;
  let playMs = 0;
  let rebufferMs = 0;
  let rebufferInstances = 0;
  let bitrate = null; // rendered bandwidth right now
  let bitrateTimeMs = 0;
  let bitrateWeighted = 0;
  let lastQuality = null;
  const switches = [];
  const seeks = [];
  let openSeek = null;
  const playerSeeks = [];
  let jump = null; // the open wait after the player's own seek during playback: {record, fromPlaying, ms}
  const downloads = { segments: 0, bytes: 0, seconds: 0, weighted: 0 };

  // A jump's wait is rebuffering once it ends in anything but the media's end.
  function closeJump(counts) {
    jump.record.waitSeconds = jump.ms / 1000;
    if (counts) {
      rebufferMs += jump.ms;
      if (jump.fromPlaying && jump.ms > 0) rebufferInstances += 1;
    } else {
      jump.record.toEnd = true;
    }
    jump = null;
  }
  function leave(t) {
    const dt = t - since;
    if (state === STATES.GAP_JUMP) {
      jump.ms += dt;
    } else if (state === STATES.PLAYING) {
      playMs += dt;
      if (bitrate !== null) {
        bitrateTimeMs += dt;
        bitrateWeighted += bitrate * dt;
      }
    } else if (state === STATES.STALLED) {
      rebufferMs += dt;
    }
    since = t;
  }
  function enter(next, t) {
    leave(t);
    if (state === STATES.GAP_JUMP && next !== STATES.GAP_JUMP) closeJump(next !== STATES.ENDED);
    state = next;
  }

  for (const e of events) {
    switch (e.type) {
      case 'load':
        enter(STATES.STARTUP, e.t);
        loadAt = e.t;
        break;
      case 'playing':
        if (state === STATES.STARTUP && startupMs === null) startupMs = e.t - loadAt;
        if (state === STATES.SEEKING && openSeek) {
          openSeek.waitSeconds = (e.t - openSeek.t) / 1000;
          openSeek = null;
        }
        if (state !== STATES.ENDED) enter(STATES.PLAYING, e.t);
        break;
      case 'stall':
        // Only a stall while playing is a rebuffer; startup and seek waits are their own metrics.
        if (state === STATES.PLAYING) {
          enter(STATES.STALLED, e.t);
          rebufferInstances += 1;
        }
        break;
      case 'seek': {
        if (openSeek) openSeek.superseded = true;
        openSeek = { t: e.t, from: e.from ?? null, to: e.to ?? null, waitSeconds: null };
        seeks.push(openSeek);
        // A seek during startup ends startup without a first frame; its wait is the seek's.
        enter(STATES.SEEKING, e.t);
        break;
      }
      case 'playerSeek': {
        const record = { t: e.t, from: e.from ?? null, to: e.to ?? null, during: state, waitSeconds: null };
        playerSeeks.push(record);
        if (state === STATES.GAP_JUMP) {
          // Another jump before frames moved again: one wait, timed to the newest jump's end.
          jump.record.superseded = true;
          jump.record.waitSeconds = null;
          jump.record = record;
        } else if (state === STATES.PLAYING || state === STATES.STALLED) {
          // Within a stall the stall's instance already counts; the wait goes on.
          const fromPlaying = state === STATES.PLAYING;
          leave(e.t);
          jump = { record, fromPlaying, ms: 0 };
          state = STATES.GAP_JUMP;
        }
        // To the media's end: nothing more is to be played, so nothing waits (as at 'ended').
        if (state === STATES.GAP_JUMP && atMediaEnd(record.to)) enter(STATES.ENDED, e.t);
        // During startup or a seek's wait the time is that metric's; paused or ended, nothing waits.
        break;
      }
      case 'pause':
        if (state === STATES.PLAYING || state === STATES.STALLED || state === STATES.GAP_JUMP) enter(STATES.PAUSED, e.t);
        break;
      case 'ended':
        enter(STATES.ENDED, e.t);
        break;
      case 'quality':
        if (!Number.isFinite(e.bandwidth)) throw new TypeError(`quality event at ${e.t} ms has no bandwidth`);
        leave(e.t);
        if (lastQuality !== null && e.bandwidth !== lastQuality) {
          switches.push({ t: e.t, from: lastQuality, to: e.bandwidth, magnitude: Math.abs(e.bandwidth - lastQuality) });
        }
        lastQuality = e.bandwidth;
        bitrate = e.bandwidth;
        break;
      case 'segment':
        downloads.segments += 1;
        downloads.bytes += e.bytes || 0;
        if (Number.isFinite(e.durationSeconds) && Number.isFinite(e.bandwidth)) {
          downloads.seconds += e.durationSeconds;
          downloads.weighted += e.bandwidth * e.durationSeconds;
        }
        break;
      default:
        // Other events (buffer samples, logs) ride along in the timeline but do not change QoE.
        break;
    }
  }
  leave(end);
  // Still standing at the record's end: the picture is frozen until then.
  if (state === STATES.GAP_JUMP) closeJump(true);

  const playSeconds = playMs / 1000;
  const rebufferSeconds = rebufferMs / 1000;
  const finishedSeeks = seeks.filter((s) => s.waitSeconds !== null);
  const magnitudes = switches.map((s) => s.magnitude);
  return {
    state,
    startupDelaySeconds: startupMs === null ? null : startupMs / 1000,
    playSeconds,
    rebufferSeconds,
    rebufferInstances,
    rebufferRate: rebufferSeconds + playSeconds > 0 ? rebufferSeconds / (rebufferSeconds + playSeconds) : 0,
    seeks: seeks.map(({ t, from, to, waitSeconds, superseded }) => ({ t, from, to, waitSeconds, superseded: Boolean(superseded) })),
    meanSeekWaitSeconds: finishedSeeks.length ? finishedSeeks.reduce((s, x) => s + x.waitSeconds, 0) / finishedSeeks.length : null,
    playerSeeks: playerSeeks.map(({ t, from, to, during, waitSeconds, superseded, toEnd }) => ({ t, from, to, during, waitSeconds, ...(superseded ? { superseded: true } : {}), ...(toEnd ? { toEnd: true } : {}) })),
    gapJumpCount: playerSeeks.filter((x) => x.during === STATES.PLAYING || x.during === STATES.STALLED).length,
    averagePlaybackBitrate: bitrateTimeMs > 0 ? bitrateWeighted / bitrateTimeMs : null,
    averageDownloadedBitrate: downloads.seconds > 0 ? downloads.weighted / downloads.seconds : null,
    switchCount: switches.length,
    switchMagnitudeTotal: magnitudes.reduce((a, b) => a + b, 0),
    switchMagnitudeMean: magnitudes.length ? magnitudes.reduce((a, b) => a + b, 0) / magnitudes.length : 0,
    switches,
    segmentsDownloaded: downloads.segments,
    bytesDownloaded: downloads.bytes,
  };
}

module.exports = { summarizePlayback, STATES, END_TOLERANCE_SECONDS };
