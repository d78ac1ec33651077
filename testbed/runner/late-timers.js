'use strict';
// When a playback's emulated link was not the configured one. The emulator counts its timers
// that fired late (a packet held past its delay because the process did not get the CPU); on
// these 2 shared cores a busy host or hypervisor steal makes them late by tens to hundreds of
// ms, and then the link's delays, rates and queue were not what the profile says. Such a
// playback is set aside and played again rather than averaged in.
//
// 50 ms by default: a few timers late by under ~30 ms happen on a quiet host in every long
// playback and move no figure (transports-lossy, 2026-12: 0-11 late per 180 s playback, none past
// 28 ms when quiet); past 50 ms is the CPU starved for a good part of an RTT.
//
// A playback during which the wall clock was set (clock-step.js) is played again the same way:
// its live latency and the ABR's download timing hold the step.
const { clockSteppedBeyondLimit, CLOCK_STEP_LIMIT_MS, WALL_CLOCK_READERS } = require('./clock-step');

const DEFAULT_LATE_LIMIT_MS = 50;
const DEFAULT_LATE_RETRIES = 2;

/**
 * @param {object} record  a playback record (playback-record.js)
 * @param {number|null} limitMs  null: every playback is kept
 * @returns {{maxMs: number, count: number}|null}  the late timers when the record is to be set aside
 */
function lateBeyondLimit(record, limitMs) {
  if (limitMs === null || limitMs === undefined || !record || record.status !== 'ok') return null;
  const late = record.counters && record.counters.lateTimers;
  if (!late || !(late.maxMs > limitMs)) return null;
  return { maxMs: late.maxMs, count: late.count };
}

/**
 * The limit a kept record's link is judged by, and why it was kept anyway; null when its timers
 * stayed within it. The lab's 50 ms, or the run's own limit where that was stricter. The runner
 * writes the run's limit and the try into each record (lateCheck, since 2026-12-04); a record
 * without it says nothing about how it was played, so it is judged by the lab's limit alone.
 * The reason must be true for the run that made the record: "on all N tries" only when the run
 * did play it N times and every try ran past its limit.
 * @param {object} record  a playback record
 * @returns {{maxMs: number, count: number, limitMs: number, why: string}|null}
 */
function keptPastLimit(record) {
  const check = record && record.lateCheck;
  const runLimit = check ? check.limitMs : undefined; // null: --late-limit off
  const limitMs = typeof runLimit === 'number' ? Math.min(runLimit, DEFAULT_LATE_LIMIT_MS) : DEFAULT_LATE_LIMIT_MS;
  const late = lateBeyondLimit(record, limitMs);
  if (!late) return null;
  const lab = `past the lab's ${DEFAULT_LATE_LIMIT_MS} ms limit`;
  let why;
  if (!check) why = lab;
  else if (runLimit === null) why = `${lab}; the run set none (--late-limit off)`;
  else if (late.maxMs > runLimit && check.try < check.tries) why = `past the run's ${runLimit} ms limit on try ${check.try} of ${check.tries}, set aside and played again`;
  else if (late.maxMs > runLimit) why = `past the run's ${runLimit} ms limit on ${check.try === 1 ? 'its only try' : `all ${check.try} tries`}`;
  else why = `${lab}, within the run's own ${runLimit} ms`;
  return { ...late, limitMs, why };
}

/** Why a try is not kept, for setAside and the outcome; null when it kept time. */
function offTime(late, stepped, limitMs) {
  const parts = [];
  if (late) parts.push(`emulator timers late up to ${late.maxMs.toFixed(1)} ms (${late.count}x), limit ${limitMs} ms`);
  if (stepped) parts.push(`the wall clock stepped ${stepped.stepMs.toFixed(0)} ms (${WALL_CLOCK_READERS} read it), limit ${CLOCK_STEP_LIMIT_MS} ms`);
  return parts.length ? parts.join('; ') : null;
}

/**
 * Plays one playback until its link and clock kept time, at most 1 + retries times; each record
 * whose timers ran later than the limit, or whose wall clock stepped, is handed to setAside. The
 * last one is returned whatever it is (kept, with the outcome line's WARNING, when it did not).
 * Every record, kept or set aside, carries lateCheck: the limit it was played under and which try it was, so the report
 * and the outcome line judge it by what the run did, not by today's default.
 * @param {() => Promise<object|null>} play  one try; null when the run was interrupted
 * @param {object} o
 * @param {number|null} o.limitMs
 * @param {number} o.retries
 * @param {(record: object, why: string) => string} o.setAside  keeps the record with why; returns where it went
 * @param {(line: string) => void} o.print
 * @param {string} o.label
 * @returns {Promise<{record: object|null, setAside: number}>}
 */
async function playUntilOnTime(play, { limitMs, retries, setAside, print, label }) {
  for (let attempt = 0; ; attempt += 1) {
    const played = await play();
    // --late-limit off: nothing is played again, so one try is all there is.
    const record = played && { ...played, lateCheck: { limitMs, try: attempt + 1, tries: limitMs === null ? 1 : retries + 1 } };
    const late = lateBeyondLimit(record, limitMs);
    // --late-limit off keeps every playback, one whose clock stepped too (its outcome line says so).
    const stepped = limitMs === null ? null : clockSteppedBeyondLimit(record);
    const why = offTime(late, stepped, limitMs);
    if (!why) return { record, setAside: attempt };
    if (attempt >= retries) {
      if (late) print(`${label}: emulator timers ran late (up to ${late.maxMs.toFixed(1)} ms, limit ${limitMs} ms) on all ${attempt + 1} tries: the last is kept; the machine is too busy for this run`);
      // Earlier tries may have been set aside for late timers instead: say only what this one did.
      else print(`${label}: the wall clock stepped ${stepped.stepMs.toFixed(0)} ms on the last try the run allows (${attempt + 1} of ${attempt + 1}): it is kept; its ${WALL_CLOCK_READERS} hold the step`);
      return { record, setAside: attempt };
    }
    const where = setAside(record, why);
    const what = late ? `an emulator timer ran ${late.maxMs.toFixed(1)} ms late (limit ${limitMs} ms), so the link was not the configured one` : `the wall clock stepped ${stepped.stepMs.toFixed(0)} ms during it, so its ${WALL_CLOCK_READERS} are not the network's`;
    print(`${label} set aside: ${what}; playing it again (${attempt + 1} of ${retries}); the record is in ${where}`);
  }
}

module.exports = { lateBeyondLimit, keptPastLimit, playUntilOnTime, DEFAULT_LATE_LIMIT_MS, DEFAULT_LATE_RETRIES };
