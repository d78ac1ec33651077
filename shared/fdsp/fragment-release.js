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
 * @param {number} [o.marginMs]        handed over this long before it plays
 * @returns {{release: number, wakeAt: number|null}}  release: fragments to hand over now (the
 *   next ones in order); wakeAt: when the next is due (null: none, or waiting for bytes)
 */
function fragmentsDue({ fragments, released, deadlineAt, reliableDoneAt, complete, now, stalledMs = 0, marginMs = 0 }) {
  if (!Array.isArray(fragments) || !fragments.length) throw new RangeError('a segment has at least one fragment');
  if (!(Number.isInteger(released) && released >= 0 && released <= fragments.length)) throw new RangeError(`released must be 0-${fragments.length}, got ${released}`);
  const left = fragments.length - released;
  if (!left || reliableDoneAt === null || reliableDoneAt === undefined) return { release: 0, wakeAt: null };
  if (complete) return { release: left, wakeAt: null };
  const startsAt = deadlineAt ?? reliableDoneAt;
  const dueAt = (k) => startsAt + fragments[k][2] * 1000 + stalledMs - marginMs;
  let k = released;
  while (k < fragments.length && dueAt(k) <= now) k += 1;
  return { release: k - released, wakeAt: k < fragments.length ? dueAt(k) : null };
}

module.exports = { fragmentsDue };
