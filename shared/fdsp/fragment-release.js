'use strict';
// When each movie fragment of an FDSP segment goes to the decoder (paper 000 Sect. 3: "each
// unreliable packet's deadline is the playout time of its own frame"; playback starts once the
// reliable part of the first substream is in; after a stall every later deadline moves by the
// stall). A segment packaged in fragments ([sidx] moof mdat, the priority map's `fragments`)
// is handed over fragment by fragment, each with whatever of its unreliable bytes arrived by its
// own deadline, instead of all at the segment's deadline. Pure: the caller passes the time and
// the state and arms a timer for `wakeAt`; releasing bytes is the caller's.
//
// The rule, for a segment whose first frame plays at `startsAt` (the segment's playout deadline;
// with none, because the player is starting or stalled, the moment its reliable part is in):
//   - nothing goes before every reliable byte of the segment is in (they always arrive, and the
//     decoder cannot even parse a fragment without its container and slice headers);
//   - fragment k is due at startsAt + offset_k + stalledMs - marginMs (offset_k: its media time
//     after the segment's first frame; stalledMs: how long the player has stalled since the
//     request, which moves every later deadline); all fragments due by `now` go, in order;
//   - while the player is stalled, the next fragment is what it waits for: it goes at once (paper
//     000 moves the deadlines by the stall, but the stall ends only when data comes), and while
//     the stall lasts one more every media duration of the one before (what that one plays);
//   - once every byte of the segment is in, all the rest go at once.

/**
 * @param {object} o
 * @param {[number, number, number][]} o.fragments  [start, end, offsetSeconds] in order (one for
 *   a segment of one fragment: then this is the segment's deadline rule)
 * @param {number} o.released          how many fragments have been handed over already
 * @param {number|null} o.deadlineAt   when the segment's first frame plays (ms), or null
 * @param {number|null} o.reliableDoneAt  when the last reliable byte came (ms), or null
 * @param {boolean} o.complete         every byte of the segment is in
 * @param {number} o.now               ms, the same clock
 * @param {number} [o.stalledMs]       the player's stall time since the request
 * @param {number|null} [o.stalledSince]  when the stall in progress began (ms), or null
 * @param {number|null} [o.lastReleaseAt] when the last fragment of this segment went, or null
 * @param {number} [o.marginMs]        handed over this long before it plays
 * @returns {{release: number, wakeAt: number|null}}  release: fragments to hand over now (the
 *   next ones in order); wakeAt: when the next is due (null: none, or waiting for bytes)
 */
function fragmentsDue({ fragments, released, deadlineAt, reliableDoneAt, complete, now, stalledMs = 0, stalledSince = null, lastReleaseAt = null, marginMs = 0 }) {
  if (!Array.isArray(fragments) || !fragments.length) throw new RangeError('a segment has at least one fragment');
  if (!(Number.isInteger(released) && released >= 0 && released <= fragments.length)) throw new RangeError(`released must be 0-${fragments.length}, got ${released}`);
  const left = fragments.length - released;
  if (!left || reliableDoneAt === null || reliableDoneAt === undefined) return { release: 0, wakeAt: null };
  if (complete) return { release: left, wakeAt: null };
  const startsAt = deadlineAt ?? reliableDoneAt;
  const dueAt = (k) => startsAt + fragments[k][2] * 1000 + stalledMs - marginMs;
  const n = fragments.length;
  // Media duration of fragment j (the last one's is not known: 0).
  const duration = (j) => (j + 1 < n ? (fragments[j + 1][2] - fragments[j][2]) * 1000 : 0);
  let k = released;
  while (k < n && dueAt(k) <= now) k += 1;
  let wakeAt = k < n ? dueAt(k) : null;
  if (stalledSince !== null && stalledSince !== undefined && k < n) {
    const waited = released === 0 || lastReleaseAt === null || lastReleaseAt < stalledSince;
    let stallNextAt = waited ? now : lastReleaseAt + duration(released - 1);
    if (k === released && stallNextAt <= now) {
      k += 1;
      stallNextAt = now + duration(k - 1);
    } else if (k > released) stallNextAt = now + duration(k - 1);
    if (k < n) wakeAt = Math.min(dueAt(k), stallNextAt);
  }
  return { release: k - released, wakeAt: k < n ? wakeAt : null };
}

module.exports = { fragmentsDue };
