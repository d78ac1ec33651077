'use strict';
// One configured playback: dash.js on a <video>, every request through the chosen transport,
// the chosen ABR deciding, a seek schedule applied, and a PlaybackRecorder keeping the QoE
// record. The page and scripted runs both go through startPlayback(), so a person and a
// script measuring the same configuration run the same code.
const { createTransport } = require('./transports');
const { createTransportLoader } = require('./dash/transport-loader');
const { createCustomAbrRule, builtInRulesOff } = require('./dash/custom-abr-rule');
const { nextSegmentNumber } = require('./dash/next-segment-number');
const { PlaybackRecorder } = require('./qoe/playback-recorder');
const { ALGORITHMS } = require('./abr');

/** The segment a URL names, from the segment index (file names are unique per content). */
function segmentLookup(index) {
  const byName = new Map();
  for (const rep of index.representations) {
    for (const seg of rep.segments) {
      byName.set(seg.url, { number: seg.number, representationId: rep.id, bandwidth: rep.bandwidth, durationSeconds: seg.duration, size: seg.size });
    }
  }
  return (url) => byName.get(decodeURIComponent(new URL(url).pathname.split('/').pop()));
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
 * @param {string} o.content       content directory name, e.g. 'sample'
 * @param {string} o.transport     'http11' | 'http10' | 'h2' | ...
 * @param {string} o.abr           'dashjs' (dash.js's own rules) or a key of player/abr ALGORITHMS
 * @param {object} [o.abrParams]   overrides of the algorithm's defaults
 * @param {{at: number, to: number}[]} [o.seeks]  media-time seek schedule
 * @param {number} [o.stopAt]      stop at this media time (seconds)
 * @param {boolean} [o.keepBitrateOnSeek]  hold the pre-seek representation until the target plays (paper 002)
 * @param {number} [o.bp]          DataChannel transport: Bitstream Prioritization 0-100 (paper 000)
 * @param {(e: object) => void} [o.onUpdate]
 * @param {object} [o.index]       the content's segment index, if already loaded (else fetched)
 */
async function startPlayback(o) {
  const contentBase = `/content/${encodeURIComponent(o.content)}`;
  const index = o.index || await fetchContentIndex(o.content);
  const lookup = segmentLookup(index);
  let player = null;
  const transport = createTransport(o.transport, o.urls, { bp: o.bp, bufferLevel: () => (player ? player.getBufferLength('video') || 0 : 0) });
  const algorithm = o.abr === 'dashjs' ? null : ALGORITHMS[o.abr];
  if (o.abr !== 'dashjs' && !algorithm) throw new Error(`unknown ABR "${o.abr}" (known: dashjs, ${Object.keys(ALGORITHMS).join(', ')})`);
  const params = algorithm ? { ...algorithm.defaults, ...(o.abrParams || {}) } : {};
  const repsById = new Map(index.representations.map((r) => [r.id, r]));
  // Mean segment size per representation over the whole stream (BBA-2's chunk map range).
  const meanSize = new Map(index.representations.map((r) => [r.id, r.segments.reduce((a, x) => a + x.size, 0) / r.segments.length]));
  const seeks = (o.seeks || []).map((s) => ({ ...s, done: false })).sort((a, b) => a.at - b.at);

  player = o.dashjs.MediaPlayer().create();
  const recorder = new PlaybackRecorder({
    video: o.video,
    bufferLevel: () => player.getBufferLength('video'),
    transportStats: () => (transport.stats ? transport.stats() : null),
    config: { content: o.content, transport: o.transport, abr: o.abr, abrParams: params, seeks: o.seeks || [], stopAt: o.stopAt ?? null, keepBitrateOnSeek: Boolean(o.keepBitrateOnSeek), ...(transport.setBp ? { bp: transport.bp } : {}), userAgent: navigator.userAgent },
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

  // No request timeout: dash.js aborts a segment download after 20 s by default and asks again,
  // so on a slow link a 10 s segment (paper 000's) is fetched over and over and never arrives.
  // The papers' players waited; a lab measuring what a link delivers must too.
  const settings = { streaming: { buffer: {}, abr: {}, fragmentRequestTimeout: 0 }, debug: { logLevel: o.dashjs.Debug.LOG_LEVEL_WARNING } };
  if (algorithm) {
    Object.assign(settings.streaming.abr, builtInRulesOff().streaming.abr);
    // dash.js 5 switches fast by default: on every up-switch it fetches the segment at the
    // playhead again at the new rung. BASIC's ramp-up then fetched segment 1 once per rung
    // (13 times on paper-http2's ladder) while playback stalled, and ~45 % of all downloads in
    // paper003-trace were such repeats. The papers' players fetch each segment once, and the
    // algorithms decide for the next segment only.
    settings.streaming.buffer.fastSwitchEnabled = false;
    // dash.js stops requesting at its own buffer target (12-30 s by default), which is below
    // where BASIC, SARA and BBA-2 start to wait; the algorithm's ceiling becomes dash.js's
    // target so that the algorithm, not dash.js, decides when to pause.
    const ceiling = algorithm.bufferCeilingSeconds(params, index.segmentDuration);
    settings.streaming.buffer.bufferTimeDefault = ceiling;
    settings.streaming.buffer.bufferTimeAtTopQuality = ceiling;
    settings.streaming.buffer.bufferTimeAtTopQualityLongForm = ceiling;
    settings.streaming.buffer.longFormContentDurationThreshold = Infinity;
    player.addABRCustomRule(
      'qualitySwitchRules',
      `LabAbrRule_${algorithm.name}`,
      createCustomAbrRule({
        dashjs: o.dashjs,
        algorithm,
        params,
        inputs: (ladder) => {
          const bufferLevelSeconds = player.getBufferLength('video') || 0;
          const segDur = index.segmentDuration;
          const nextNumber = nextSegmentNumber(o.video.currentTime, bufferLevelSeconds, segDur);
          const reps = ladder.map((l) => repsById.get(l.id));
          const known = reps.every(Boolean);
          const nextSegmentSizes = known ? reps.map((r) => (r.segments[nextNumber - 1] || r.segments[r.segments.length - 1]).size) : null;
          const lowest = reps[0];
          const ids = ladder.map((l) => l.id);
          const holdCurrent = Boolean(o.keepBitrateOnSeek && recorder.seekPending);
          // Paper 002 §3.1 keeps "the bitrate ... of the last played segment before the
          // seeking": the rung on screen when the seek was asked for, not the last one
          // requested, which a full buffer puts many rungs higher (BASIC climbs one rung per
          // segment, 40 s ahead of playback).
          const held = holdCurrent ? ids.indexOf(recorder.representationAtSeek) : -1;
          return {
            // Before the first media segment nothing has been requested yet: the algorithm
            // picks its own starting rung (BASIC and SARA the lowest, as in the papers).
            ...(recorder.segments.length === 0 ? { currentIndex: null } : {}),
            ...(held >= 0 ? { currentIndex: held } : {}),
            bufferLevelSeconds,
            segmentDurationSeconds: segDur,
            // A download timed at 0 ms (a cached or instant response) carries no throughput.
            recentDownloads: recorder.segments
              .filter((s) => s.lastByte > s.requestStart && s.bytes > 0)
              .slice(-20)
              .map((s) => ({ bytes: s.bytes, seconds: (s.lastByte - s.requestStart) / 1000, representationIndex: ids.indexOf(s.representationId) })),
            nextSegmentNumber: nextNumber,
            nextSegmentSizes,
            averageSegmentSizes: known ? reps.map((r) => meanSize.get(r.id)) : null,
            upcomingLowestRungSizes: lowest ? lowest.segments.slice(nextNumber - 1).map((x) => x.size) : null,
            started: recorder.timeline.some((e) => e.type === 'playing'),
            playing: !o.video.paused,
            justSeeked: recorder.seekPending,
            holdCurrent,
          };
        },
        onDecision: (d) => recorder.decision(d),
        onError: (message) => recorder.error(message),
      }),
    );
  }
  player.updateSettings(settings);

  const E = o.dashjs.MediaPlayer.events;
  player.on(E.QUALITY_CHANGE_RENDERED, (e) => {
    if (e.mediaType && e.mediaType !== 'video') return;
    const rep = e.newRepresentation;
    if (rep) recorder.quality({ id: rep.id, bandwidth: rep.bandwidth });
  });
  player.on(E.ERROR, (e) => recorder.error(`dash.js: ${(e.error && (e.error.message || e.error.code)) || 'error'}`));

  let stopped = false;
  let finalRecord = null;
  let resolveEnded;
  const ended = new Promise((resolve) => {
    resolveEnded = resolve;
  });
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(ticker);
    recorder.stop();
    player.pause();
    // Snapshot first: reset() detaches the video element and zeroes its frame counters.
    const record = recorder.toJSON();
    // A stopped run stops fetching too: requests after the stop would load the link in a
    // testbed run and never show up in the QoE record.
    player.reset();
    finalRecord = record;
    resolveEnded(record);
  };
  // Seek schedule and stop time, checked against media time several times a second.
  const ticker = setInterval(() => {
    const t = o.video.currentTime;
    const due = seeks.find((s) => !s.done && t >= s.at);
    if (due) {
      due.done = true;
      recorder.seek(t, due.to, { scheduled: true });
      player.seek(due.to);
    }
    if (o.stopAt !== undefined && o.stopAt !== null && t >= o.stopAt && !recorder.seekPending) stop();
    if (o.onUpdate) o.onUpdate(recorder);
  }, 100);
  o.video.addEventListener('ended', () => setTimeout(stop, 0), { once: true });

  recorder.start();
  // dash.js fetches a seek's target segment at the representation it last requested, without
  // asking the ABR rules ("right after a seek we should not immediately check the playback
  // quality", ScheduleController). Paper 002 holds the one on screen, so that is set by hand,
  // on every seek (scheduled or the viewer's). Registered after the recorder's own 'seeking'
  // listener, which notes what was on screen.
  o.video.addEventListener('seeking', () => {
    if (!o.keepBitrateOnSeek || !recorder.seekPending || recorder.representationAtSeek === null) return;
    try {
      player.setRepresentationForTypeById('video', recorder.representationAtSeek);
    } catch (err) {
      recorder.error(`keeping the bitrate across a seek: ${err.message}`);
    }
  });
  // Absolute: dash.js's CMCD reporter builds URL objects from request URLs and throws on a
  // relative MPD URL.
  player.initialize(o.video, new URL(`${contentBase}/manifest.mpd`, location.href).href, true);
  return { player, recorder, transport, stop, ended, qoe: () => finalRecord || recorder.toJSON(), index };
}

module.exports = { startPlayback, fetchContentIndex, segmentLookup };
