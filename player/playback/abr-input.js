'use strict';
// What a lab ABR decision sees (player/abr/decision-input.js), built from the content's segment
// index and the player's state right now. Pure: the playback passes a snapshot of the video
// element and the QoE recorder, so a unit test can build an input without a browser.
const { nextSegmentNumber } = require('../dash/next-segment-number');

/**
 * @param {object} index  the content's segment index (representations with segment sizes)
 * @returns {(ladder: {id: string}[], view: object) => object} builds one DecisionInput (less
 *   ladder and currentIndex, which the dash.js rule adds). view:
 *   {currentTime, paused, bufferLevelSeconds, segments (the recorder's log), started,
 *    seekPending, keepBitrateOnSeek, representationAtSeek}
 */
function createAbrInputBuilder(index) {
  const repsById = new Map(index.representations.map((r) => [r.id, r]));
  // Mean segment size per representation over the whole stream (BBA-2's chunk map range).
  const meanSize = new Map(index.representations.map((r) => [r.id, r.segments.reduce((a, x) => a + x.size, 0) / r.segments.length]));
  const segDur = index.segmentDuration;

  return (ladder, view) => {
    const { bufferLevelSeconds } = view;
    const nextNumber = nextSegmentNumber(view.currentTime, bufferLevelSeconds, segDur);
    const reps = ladder.map((l) => repsById.get(l.id));
    const known = reps.every(Boolean);
    const nextSegmentSizes = known ? reps.map((r) => (r.segments[nextNumber - 1] || r.segments[r.segments.length - 1]).size) : null;
    const lowest = reps[0];
    const ids = ladder.map((l) => l.id);
    const holdCurrent = Boolean(view.keepBitrateOnSeek && view.seekPending);
    // Paper 002 §3.1 keeps "the bitrate ... of the last played segment before the
    // seeking": the rung on screen when the seek was asked for, not the last one
    // requested, which a full buffer puts many rungs higher (BASIC climbs one rung per
    // segment, 40 s ahead of playback).
    const held = holdCurrent ? ids.indexOf(view.representationAtSeek) : -1;
    return {
      // Before the first media segment nothing has been requested yet: the algorithm
      // picks its own starting rung (BASIC and SARA the lowest, as in the papers).
      ...(view.segments.length === 0 ? { currentIndex: null } : {}),
      ...(held >= 0 ? { currentIndex: held } : {}),
      bufferLevelSeconds,
      segmentDurationSeconds: segDur,
      // A download timed at 0 ms (a cached or instant response) carries no throughput.
      recentDownloads: view.segments
        .filter((s) => s.lastByte > s.requestStart && s.bytes > 0)
        .slice(-20)
        .map((s) => ({ bytes: s.bytes, seconds: (s.lastByte - s.requestStart) / 1000, representationIndex: ids.indexOf(s.representationId) })),
      nextSegmentNumber: nextNumber,
      nextSegmentSizes,
      averageSegmentSizes: known ? reps.map((r) => meanSize.get(r.id)) : null,
      upcomingLowestRungSizes: lowest ? lowest.segments.slice(nextNumber - 1).map((x) => x.size) : null,
      started: view.started,
      playing: !view.paused,
      justSeeked: view.seekPending,
      holdCurrent,
    };
  };
}

module.exports = { createAbrInputBuilder };
