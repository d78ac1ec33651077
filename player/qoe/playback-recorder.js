'use strict';
// Records one playback as a timeline of events (the input of player/qoe/summarize-playback.js)
// plus the series a person wants to see: buffer level and bitrate over time, a per-segment log,
// frame counters and bytes per transport. The summary is always recomputed from the timeline,
// so the live table, window.qoe and a saved JSON can never disagree.
const { summarizePlayback, END_TOLERANCE_SECONDS } = require('./summarize-playback');
const { fnv1a32 } = require('./fnv1a32');
const { summarizeLiveLatency } = require('./live-latency');

const SAMPLE_EVERY_MS = 250;

class PlaybackRecorder {
  /**
   * @param {object} opts
   * @param {HTMLVideoElement} opts.video
   * @param {() => number} opts.bufferLevel  seconds of video buffered ahead
   * @param {() => number} [opts.now]        clock in ms (performance.now)
   * @param {object} opts.config             what is being run, copied into the JSON
   * @param {() => object|null} [opts.transportStats]  the transport's own totals
   * @param {string[]} [opts.segmentFields]   accounting fields the transport adds to each
   *   segment of the log (its registry entry's segmentFields)
   * @param {(seek: {fromSeconds, toSeconds, scheduled}) => void} [opts.onSeek]  every seek
   *   request, as it is recorded (the ABR's onSeek hook)
   * @param {() => number} [opts.liveLatency]  seconds behind the live broadcast (live playbacks
   *   only): sampled while frames play
   * @param {boolean} [opts.playerReportsSeeks]  the player calls viewerSeeking() for every seek
   *   it did not start itself (dash.js's PLAYBACK_SEEKING); an unscheduled seek it does not
   *   report is then the player's own (playerSeek: over a gap in the buffer, ...), not the viewer's
   * @param {number} [opts.endJumpWindowSeconds]  a reported seek to the very end of on-demand media
   *   from within this many seconds of it is the player's own jump over the last gap (dash.js's
   *   streaming.gaps.smallGapLimit, 1.5 s by default: with one period dash.js reports it as a seek)
   * @param {number} [opts.mediaEndSeconds]  where the content's media ends: the player's jump to
   *   it ends the playback in the summary (a live stream fires no 'ended')
   */
  constructor({ video, bufferLevel, now = () => performance.now(), config, transportStats = () => null, segmentFields = [], onSeek = null, liveLatency = null, playerReportsSeeks = false, endJumpWindowSeconds = 1.5, mediaEndSeconds = null }) {
    this.mediaEndSeconds = mediaEndSeconds;
    this.playerReportsSeeks = playerReportsSeeks;
    this.endJumpWindowSeconds = endJumpWindowSeconds;
    this.liveLatency = liveLatency;
    this.liveLatencySeries = []; // [t ms, seconds behind the broadcast], while playing
    this.transportStats = transportStats;
    this.segmentFields = segmentFields;
    this.onSeek = onSeek;
    this.video = video;
    this.bufferLevel = bufferLevel;
    this.now = now;
    this.config = config;
    this.startedAtWallClock = new Date().toISOString();
    this.timeline = [];
    this.bufferSeries = []; // [t ms, seconds]
    this.bitrateSeries = []; // [t ms, bits/s] rendered
    this.segments = [];
    // Each segment's accounting, as the transport handed it over: it may count on afterwards
    // (FDSP: chunks that came after the response was handed over), so its fields are read again
    // whenever the record is.
    this.segmentAccounting = [];
    this.errors = [];
    this.decisions = [];
    this.transportBytes = {};
    this.protocols = {};
    this.currentBitrate = null;
    this.timer = null;
  }

  event(type, fields = {}) {
    this.timeline.push({ type, t: this.now(), ...fields });
  }

  start() {
    this.event('load');
    const v = this.video;
    this.listeners = {
      // While a seek is pending the element's own 'playing' can fire before any frame of the
      // target is shown; the seek's end is taken from presented frames instead (see seek()).
      playing: () => {
        if (!this.pendingSeek) this.event('playing', { mediaTime: v.currentTime });
      },
      waiting: () => this.event('stall', { mediaTime: v.currentTime }),
      pause: () => {
        if (!v.ended) this.event('pause', { mediaTime: v.currentTime });
      },
      ended: () => this.event('ended', { mediaTime: v.currentTime }),
      // A person seeking with the video controls: the same measurement as a scheduled seek
      // (a scheduled one is already pending when its 'seeking' arrives). Or the player's own
      // seek (dash.js: over a gap in the buffer, as lost FDSP data leaves them; to the start of
      // what is buffered), which the viewer sees as a freeze or nothing, not as a seek: a
      // playerSeek (see viewerSeeking()).
      seeking: () => {
        // dash.js positions a live playback at its start time (the live edge minus the target
        // latency) before the first frame: that 'seeking' is the player's, not the viewer's.
        if (this.liveLatency && !this.timeline.some((e) => e.type === 'playing')) return;
        this.markSeekingDispatch();
        if (this.scheduledSeekStarting) {
          this.scheduledSeekStarting = false;
          return;
        }
        const viewers = !this.playerReportsSeeks || this.viewerSeekReported;
        this.viewerSeekReported = false;
        this.seek(this.lastMediaTime, v.currentTime, { playerSeek: !viewers });
      },
      timeupdate: () => {
        if (!v.seeking) this.lastMediaTime = v.currentTime;
      },
    };
    this.lastMediaTime = 0;
    for (const [name, fn] of Object.entries(this.listeners)) v.addEventListener(name, fn);
    this.timer = setInterval(() => this.sample(), SAMPLE_EVERY_MS);
  }

  stop() {
    this.pendingSeek = null;
    clearInterval(this.timer);
    this.timer = null;
    if (this.listeners) for (const [name, fn] of Object.entries(this.listeners)) this.video.removeEventListener(name, fn);
    this.listeners = null;
    this.sample();
  }

  sample() {
    const level = this.bufferLevel();
    this.bufferSeries.push([this.now(), Number.isFinite(level) ? level : 0]);
    const v = this.video;
    // While frames advance only: during a stall the latency grows smoothly, and after it the
    // jump by the stall's length is what the summary counts.
    if (this.liveLatency && !v.paused && !v.seeking && v.readyState >= 3) {
      const latency = this.liveLatency();
      if (Number.isFinite(latency) && latency > 0) this.liveLatencySeries.push([this.now(), latency]);
    }
  }

  /**
   * A seek was requested (from -> to in media seconds). It ends, for the viewer, when a frame
   * at the target is on screen and the next one follows (playback, not a still): paper 002's
   * "request to the playback of the seek-to segment". requestVideoFrameCallback reports
   * frames as they are presented, with their media time.
   */
  seek(from, to, { scheduled = false, playerSeek = false } = {}) {
    // The element fires 'seeking' for a scheduled seek too; that one must not count twice.
    this.scheduledSeekStarting = scheduled;
    if (playerSeek) {
      // Until the player says it was the viewer's (viewerSeeking(), in the same 'seeking'
      // dispatch): the ABR hears of the viewer's seeks only.
      this.event('playerSeek', { from, to });
      const own = this.timeline[this.timeline.length - 1];
      this.unjudgedSeek = own;
      setTimeout(() => { if (this.unjudgedSeek === own) this.unjudgedSeek = null; }, 0);
    } else {
      this.announceSeek(from, to, scheduled);
    }
    // The player's own seek within a seek's wait (to what is buffered at its target) goes on
    // being that seek's wait.
    const token = { playerSeek: playerSeek && !this.seekPending };
    this.pendingSeek = token;
    const v = this.video;
    let frames = 0;
    // Frames presented after 'seeked' come from the new position; before it, a backward seek
    // would still show frames that happen to lie near the target.
    const onFrame = () => {
      if (this.pendingSeek !== token) return; // superseded by a newer seek, or stopped
      frames += 1;
      if (frames >= 2) {
        this.pendingSeek = null;
        this.event('playing', { mediaTime: v.currentTime, ...(token.playerSeek ? { afterPlayerSeek: true } : { afterSeek: true }) });
        return;
      }
      v.requestVideoFrameCallback(onFrame);
    };
    if (typeof v.requestVideoFrameCallback !== 'function') {
      this.pendingSeek = null; // no frame callbacks: the element's 'playing' event ends the wait
      return;
    }
    v.addEventListener('seeked', () => {
      if (this.pendingSeek === token) v.requestVideoFrameCallback(onFrame);
    }, { once: true });
  }

  /** A viewer's seek: the record and the ABR's onSeek hook. */
  announceSeek(from, to, scheduled) {
    // What was on screen when the viewer asked: paper 002 holds that bitrate across the seek.
    this.representationAtSeek = this.renderedRepresentationId ?? null;
    this.event('seek', { from, to, representationId: this.representationAtSeek });
    if (this.onSeek) this.onSeek({ fromSeconds: from, toSeconds: to, scheduled });
  }

  /** Notes that the recorder's own 'seeking' listener has run in this dispatch. */
  markSeekingDispatch() {
    const mark = {};
    this.seekingDispatch = mark;
    setTimeout(() => { if (this.seekingDispatch === mark) this.seekingDispatch = null; }, 0);
  }

  /**
   * The player reports a seek it did not start itself (dash.js's PLAYBACK_SEEKING, {seekTime}:
   * it is not raised for its internal seeks). It comes in the same 'seeking' dispatch as the
   * element's event, before or after the recorder's own listener: a playerSeek recorded just now
   * becomes the viewer's seek; otherwise, unless the recorder has already seen this dispatch's
   * 'seeking' (a scheduled seek's), the next 'seeking' is taken as the viewer's. One exception:
   * dash.js's jump over the last gap to the end of on-demand media is raised as a seek when the
   * media has one period; a seek to the very end from within endJumpWindowSeconds of it stays
   * the player's.
   */
  viewerSeeking({ seekTime } = {}) {
    if (this.isJumpToEnd(seekTime)) return;
    const own = this.unjudgedSeek;
    this.unjudgedSeek = null;
    if (own) {
      this.timeline.splice(this.timeline.indexOf(own), 1);
      if (this.pendingSeek) this.pendingSeek.playerSeek = false;
      this.announceSeek(own.from, own.to, false);
      return;
    }
    if (this.seekingDispatch) return;
    this.viewerSeekReported = true;
    setTimeout(() => { this.viewerSeekReported = false; }, 0);
  }

  isJumpToEnd(to) {
    const end = this.video.duration;
    if (!Number.isFinite(end) || !Number.isFinite(to)) return false;
    return to >= end - END_TOLERANCE_SECONDS && this.lastMediaTime >= end - this.endJumpWindowSeconds;
  }

  /** True from a seek request until a frame at the target is playing (the player's own seeks are none). */
  get seekPending() {
    return Boolean(this.pendingSeek && !this.pendingSeek.playerSeek);
  }

  /** The representation on screen changed. */
  quality(representation) {
    this.currentBitrate = representation.bandwidth;
    this.renderedRepresentationId = representation.id;
    this.event('quality', { bandwidth: representation.bandwidth, representationId: representation.id });
    this.bitrateSeries.push([this.now(), representation.bandwidth]);
  }

  /** A response finished on a transport. info: see player/dash/transport-loader.js */
  response(info, segment) {
    const a = info.accounting;
    this.transportBytes[a.transport] = (this.transportBytes[a.transport] || 0) + a.bytes;
    this.protocols[a.protocol] = (this.protocols[a.protocol] || 0) + 1;
    if (!segment) return;
    const seconds = (a.lastByte - a.requestStart) / 1000;
    const entry = {
      index: segment.number,
      representationId: segment.representationId,
      bandwidth: segment.bandwidth,
      durationSeconds: segment.durationSeconds,
      bytes: a.bytes,
      requestStart: a.requestStart,
      firstByte: a.firstByte,
      lastByte: a.lastByte,
      throughput: seconds > 0 ? (8 * a.bytes) / seconds : null,
      bufferAfter: this.bufferLevel(),
      protocol: a.protocol,
      transport: a.transport,
      // What the player got, to compare across transports and with the file (FDSP fills lost
      // bytes with zeros, so a damaged segment shows here).
      fnv1a32: info.data instanceof ArrayBuffer ? fnv1a32(info.data) : null,
    };
    // What the transport adds per segment (DataChannel: what went which way, what was lost).
    for (const key of this.segmentFields) if (a[key] !== undefined) entry[key] = a[key];
    this.segments.push(entry);
    this.segmentAccounting.push(a);
    this.event('segment', { bandwidth: segment.bandwidth, durationSeconds: segment.durationSeconds, bytes: a.bytes });
  }

  /** An ABR decision (lab algorithms only): what was chosen, the wait, and why. */
  decision(d) {
    this.decisions.push({ t: this.now(), ...d });
  }

  error(message) {
    this.errors.push({ t: this.now(), message });
  }

  rereadSegmentFields() {
    if (!this.segmentFields.length) return;
    this.segments.forEach((entry, i) => {
      const a = this.segmentAccounting[i];
      for (const key of this.segmentFields) if (a[key] !== undefined) entry[key] = a[key];
    });
  }

  /** The whole record as plain JSON (what window.qoe returns and the page downloads). */
  toJSON() {
    this.rereadSegmentFields();
    const q = this.video.getVideoPlaybackQuality ? this.video.getVideoPlaybackQuality() : {};
    return {
      config: this.config,
      startedAt: this.startedAtWallClock,
      summary: {
        ...summarizePlayback(this.timeline, { now: this.now(), mediaEndSeconds: this.mediaEndSeconds }),
        ...(summarizeLiveLatency(this.liveLatencySeries) || {}),
        droppedFrames: q.droppedVideoFrames ?? null,
        decodedFrames: q.totalVideoFrames ?? null,
        bytesPerTransport: { ...this.transportBytes },
        // The transport's own totals (DataChannel: PLR, late chunks, bytes per channel, BP).
        transport: this.transportStats(),
        protocols: { ...this.protocols },
        errors: this.errors.length,
      },
      timeline: this.timeline,
      bufferSeries: this.bufferSeries,
      bitrateSeries: this.bitrateSeries,
      ...(this.liveLatency ? { liveLatencySeries: this.liveLatencySeries } : {}),
      segments: this.segments,
      decisions: this.decisions,
      errors: this.errors,
    };
  }
}

module.exports = { PlaybackRecorder };
