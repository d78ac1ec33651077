'use strict';
// One configured playback: dash.js on a <video>, every request through the chosen transport,
// the chosen ABR deciding, a seek schedule applied, and a PlaybackRecorder keeping the QoE
// record. The page and scripted runs both go through startPlayback(), so a person and a
// script measuring the same configuration run the same code. The parts are elsewhere: the
// ABR's input (playback/abr-input.js), dash.js's settings (dash/dash-settings.js), the seek
// schedule (playback/seek-schedule.js) and keep-bitrate-on-seek (playback/keep-bitrate-on-seek.js).
const { transports, createTransport } = require('./transports');
const { abrs } = require('./abr');
const { createAbrSession } = require('./abr/abr-session');
const { createTransportLoader } = require('./dash/transport-loader');
const { createCustomAbrRule, createAbandonRule } = require('./dash/custom-abr-rule');
const { labDashSettings } = require('./dash/dash-settings');
const { createAbrInputBuilder } = require('./playback/abr-input');
const { createSeekSchedule } = require('./playback/seek-schedule');
const { createEndOfMedia } = require('./playback/end-of-media');
const { keepBitrateOnSeek, SEEK_LISTENER_PRIORITY } = require('./playback/keep-bitrate-on-seek');
const { createPlaybackStopper } = require('./playback/playback-stopper');
const { watchStalls } = require('./playback/stall-clock');
const { PlaybackRecorder } = require('./qoe/playback-recorder');
const { broadcastStartMs, liveManifestPath } = require('./live/live-broadcast');
const { LIVE_DELAY_LIMITS } = require('./run-options');

/** A segment URL's file name, as the segment index names it. */
const segmentFileName = (url) => decodeURIComponent(new URL(url, location.href).pathname.split('/').pop());

/** The segment after a segment URL in the same representation, by the content's index (null: the last, or unknown). */
function nextSegmentUrlFrom(index) {
  const next = new Map();
  for (const rep of index.representations) {
    for (let i = 0; i + 1 < rep.segments.length; i += 1) next.set(rep.segments[i].url, rep.segments[i + 1].url);
  }
  return (url) => {
    const following = next.get(segmentFileName(url));
    return following ? new URL(encodeURIComponent(following), new URL(url, location.href)).href : null;
  };
}

/** The segment a URL names, from the segment index (file names are unique per content). */
function segmentLookup(index) {
  const byName = new Map();
  for (const rep of index.representations) {
    for (const seg of rep.segments) {
      byName.set(seg.url, { number: seg.number, representationId: rep.id, bandwidth: rep.bandwidth, durationSeconds: seg.duration, size: seg.size });
    }
  }
  return (url) => byName.get(segmentFileName(url));
}

/** Where the content's media ends (seconds), by the index: the latest segment end of any representation (null: no segments). */
function mediaEndFrom(index) {
  let end = null;
  for (const rep of index.representations) {
    const last = rep.segments[rep.segments.length - 1];
    if (last && Number.isFinite(last.startTime) && Number.isFinite(last.duration)) end = Math.max(end ?? 0, last.startTime + last.duration);
  }
  return end;
}

/**
 * The content's segment index (sizes per segment and representation, which the ABRs read).
 * It is the lab's metadata, not part of the stream: a testbed run loads it with the page,
 * before the link is shaped (see main.js), as it loads dash.js.
 */
async function fetchContentIndex(content) {
  const response = await fetch(`/content/${encodeURIComponent(content)}/index.json`, { cache: 'no-store' });
  if (!response.ok) throw new Error(`content "${content}" has no segment index (${response.status}); is it built?`);
  return response.json();
}

/**
 * @param {object} o
 * @param {object} o.dashjs, o.video
 * @param {object} o.urls          origin listener URLs (GET /api/info)
 * @param {string} [o.certSha256Hex]  the origin certificate's SHA-256 (GET /api/info; WebTransport pins it)
 * @param {string} o.content       content directory name, e.g. 'sample'
 * @param {string} o.transport     a transport registry name ('http11', 'h2', 'datachannel', ...)
 * @param {string} o.abr           an ABR registry name ('dashjs', 'bba2', ...)
 * @param {object} [o.abrParams]   overrides of the algorithm's defaults
 * @param {{at: number, to: number}[]} [o.seeks]  media-time seek schedule
 * @param {number} [o.stopAt]      stop at this media time (seconds)
 * @param {boolean} [o.keepBitrateOnSeek]  hold the pre-seek representation until the target plays (paper 002)
 * @param {boolean} [o.live]       play the content as a live broadcast (origin/live/)
 * @param {number} [o.liveDelay]   its target latency in seconds (default LIVE_DELAY_LIMITS.default)
 * @param {*} [o.<option>]         the transport's options by key (the DataChannel's bp)
 * @param {(e: object) => void} [o.onUpdate]
 * @param {object} [o.index]       the content's segment index, if already loaded (else fetched)
 */
async function startPlayback(o) {
  const contentBase = `/content/${encodeURIComponent(o.content)}`;
  const index = o.index || await fetchContentIndex(o.content);
  const lookup = segmentLookup(index);
  const transportEntry = transports.get(o.transport);
  const abr = abrs.get(o.abr);
  const params = abr.resolveParams(o.abrParams || {});
  let player = null;
  const bufferLevel = () => (player ? player.getBufferLength('video') || 0 : 0);
  const transportOptions = Object.fromEntries(Object.keys(transportEntry.options).filter((k) => o[k] !== undefined && o[k] !== null).map((k) => [k, o[k]]));
  const highestBandwidthBps = Math.max(0, ...index.representations.map((r) => r.bandwidth || 0)) || null;
  let transport = null;
  const stalls = watchStalls(o.video, { onChange: () => { if (transport && transport.stallChanged) transport.stallChanged(); } });
  try {
    transport = createTransport(o.transport, o.urls, transportOptions, { bufferLevel, stallState: stalls.state, highestBandwidthBps, certSha256Hex: o.certSha256Hex, nextSegmentUrl: nextSegmentUrlFrom(index) });
  } catch (err) {
    stalls.dispose();
    throw err;
  }
  const session = abr.decide ? createAbrSession(abr, params) : null;
  const liveDelaySeconds = o.live ? o.liveDelay || LIVE_DELAY_LIMITS.default : null;

  player = o.dashjs.MediaPlayer().create();
  const recorder = new PlaybackRecorder({
    video: o.video,
    bufferLevel: () => player.getBufferLength('video'),
    transportStats: () => (transport.stats ? transport.stats() : null),
    segmentFields: transportEntry.segmentFields,
    // Every seek (scheduled or the viewer's) reaches the ABR's onSeek hook as it is requested,
    // before the decision for its target.
    onSeek: session ? (seek) => {
      try {
        session.seek(seek);
      } catch (err) {
        recorder.error(`${abr.name}: onSeek: ${err.message}`);
      }
    } : null,
    liveLatency: o.live ? () => player.getCurrentLiveLatency() : null,
    // dash.js raises PLAYBACK_SEEKING for every seek but its own (below): the recorder tells
    // the viewer's seeks from dash.js's jumps over gaps in the buffer by that, and the jump to
    // the media's end (which dash.js raises) by its target and the gap limit.
    playerReportsSeeks: true,
    endJumpWindowSeconds: player.getSettings().streaming.gaps.smallGapLimit,
    // A live stream fires no 'ended': its end is dash.js's jump to the last frame (stalled there).
    mediaEndSeconds: mediaEndFrom(index),
    config: {
      content: o.content, transport: o.transport, abr: o.abr, abrParams: params, seeks: o.seeks || [], stopAt: o.stopAt ?? null, keepBitrateOnSeek: Boolean(o.keepBitrateOnSeek),
      live: Boolean(o.live), ...(o.live ? { liveDelaySeconds } : {}), ...transportEntry.configFields(transport), userAgent: navigator.userAgent,
    },
  });

  player.extend(
    'XHRLoader',
    createTransportLoader({
      transport: () => transport,
      onResponse: (info) => recorder.response(info, info.requestType === 'MediaSegment' ? lookup(info.url) : null),
      onError: ({ url, error }) => recorder.error(`${transport.label}: ${url}: ${error.message || error}`),
    }),
    false,
  );

  player.updateSettings(labDashSettings({ abr, params, segmentDurationSeconds: index.segmentDuration, logLevel: o.dashjs.Debug.LOG_LEVEL_WARNING, liveDelaySeconds }));
  if (session) {
    const buildInput = createAbrInputBuilder(index);
    player.addABRCustomRule('qualitySwitchRules', `LabAbrRule_${abr.name}`, createCustomAbrRule({
      dashjs: o.dashjs,
      session,
      inputs: (ladder) => buildInput(ladder, {
        currentTime: o.video.currentTime,
        paused: o.video.paused,
        bufferLevelSeconds: bufferLevel(),
        segments: recorder.segments,
        started: recorder.timeline.some((e) => e.type === 'playing'),
        seekPending: recorder.seekPending,
        keepBitrateOnSeek: Boolean(o.keepBitrateOnSeek),
        representationAtSeek: recorder.representationAtSeek,
      }),
      onDecision: (d) => recorder.decision(d),
      onError: (message) => recorder.error(message),
    }));
    if (abr.abandons) {
      player.addABRCustomRule('abandonFragmentRules', `LabAbandonRule_${abr.name}`, createAbandonRule({
        dashjs: o.dashjs,
        session,
        view: () => ({ bufferLevelSeconds: bufferLevel(), segmentDurationSeconds: index.segmentDuration }),
        onAbandon: (a) => recorder.decision({ abandoned: true, ...a }),
        onError: (message) => recorder.error(message),
      }));
    }
  }

  const E = o.dashjs.MediaPlayer.events;
  // Before dash.js's own listeners: they ask the ABR for the seek's target, and the ABR must
  // have heard of the seek first (onSeek); keepBitrateOnSeek's listener comes after this one.
  player.on(E.PLAYBACK_SEEKING, (e) => recorder.viewerSeeking({ seekTime: e.seekTime }), null, { priority: SEEK_LISTENER_PRIORITY });
  player.on(E.QUALITY_CHANGE_RENDERED, (e) => {
    if (e.mediaType && e.mediaType !== 'video') return;
    const rep = e.newRepresentation;
    if (rep) recorder.quality({ id: rep.id, bandwidth: rep.bandwidth });
  });
  // A media element error dash.js reports has ended the playback: dash.js resets a decode
  // error's MediaSource up to its recoverAttempts (5) and reports only the one after them, then
  // resets its stream. The run stops there with the error (`fatal`), not at the runner's
  // timeout: paper000-fdsp's UDP-only cell waited 600 s on a dead player (Chromium's decoder
  // refuses H.264 whose slice headers were lost).
  let fatal = null;
  player.on(E.ERROR, (e) => {
    const message = `dash.js: ${(e.error && (e.error.message || e.error.code)) || 'error'}`;
    recorder.error(message);
    if (!fatal && isFatalMediaError(e)) {
      fatal = message;
      setTimeout(stop, 0);
    }
  });

  const stopper = createPlaybackStopper({ recorder, player, beforeStop: () => { clearInterval(ticker); stalls.dispose(); } });
  const { stop, ended } = stopper;
  const schedule = createSeekSchedule(o.seeks, o.stopAt);
  // A live stream's duration is Infinity: only on-demand media has an end to reach.
  const endOfMedia = createEndOfMedia();
  const ticker = setInterval(() => {
    const t = o.video.currentTime;
    const due = schedule.dueSeek(t);
    if (due) {
      recorder.seek(t, due.to, { scheduled: true });
      player.seek(due.to);
    }
    // The element's flag as well as its 'ended' event: one missed event must not hang the run;
    // and a playhead standing at the end without either (end-of-media.js).
    const stuckAtEnd = !recorder.seekPending && endOfMedia.atEnd(t, o.video.duration, performance.now());
    if (o.video.ended || stuckAtEnd || schedule.stopDue(t, recorder.seekPending)) stop();
    if (o.onUpdate) o.onUpdate(recorder);
  }, 100);
  o.video.addEventListener('ended', () => setTimeout(stop, 0), { once: true });

  recorder.start();
  if (o.keepBitrateOnSeek) keepBitrateOnSeek({ player, events: E, recorder });
  // Absolute: dash.js's CMCD reporter builds URL objects from request URLs and throws on a
  // relative MPD URL.
  const manifestPath = o.live ? liveManifestPath(o.content, broadcastStartMs(Date.now(), liveDelaySeconds)) : `${contentBase}/manifest.mpd`;
  recorder.config.manifest = manifestPath;
  player.initialize(o.video, new URL(manifestPath, location.href).href, true);
  return { player, recorder, transport, stop, ended, fatal: () => fatal, qoe: () => stopper.record() || recorder.toJSON(), index };
}

/** dash.js's report of a media element error it does not recover from (MEDIA_ERR_* codes 1-5). */
function isFatalMediaError(e) {
  const err = e && e.error;
  return Boolean(err) && typeof err.message === 'string' && /^MEDIA_ERR_/.test(err.message) && err.code >= 1 && err.code <= 5;
}

module.exports = { startPlayback, fetchContentIndex, segmentLookup, nextSegmentUrlFrom, mediaEndFrom, isFatalMediaError };
