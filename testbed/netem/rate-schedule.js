'use strict';
// How fast the emulated link sends, over time. Four shapes, all from the papers or common
// practice:
//   constant   a fixed rate (paper 000 Table 2 static, paper 003's bandwidth = media bitrate)
//   square     alternating between two rates, `high` for the first half of each period
//              (paper 000 Table 2 dynamic: 1-1.5, 2-2.5, 4-6 Mbps with a 4 s cycle)
//   steps      a step trace: rate changes at given times (paper 003's 160 s 1-6 Mbps trace),
//              from a CSV of "seconds,kbps" rows; the last rate holds
//   mahimahi   a mahimahi trace: one line per 1500-byte delivery opportunity, in ms, repeating
// A rate of 0 (or null) means unlimited.
//
// Each schedule answers one question: a packet of `size` bytes starts transmission no earlier
// than `t` (ms); when has its last bit left? Pure functions of their inputs.

const MTU = 1500;

function transmitAtRate(bitsPerSecond, t, size) {
  if (!bitsPerSecond) return t;
  return t + (size * 8 * 1000) / bitsPerSecond;
}

function constantRate(bitsPerSecond) {
  return { kind: 'constant', rateAt: () => bitsPerSecond, finish: (t, size) => transmitAtRate(bitsPerSecond, t, size) };
}

function squareWave({ lowBitsPerSecond, highBitsPerSecond, periodMs }) {
  if (!(periodMs > 0)) throw new Error(`square wave period must be positive, got ${periodMs}`);
  const rateAt = (t) => ((t % periodMs) < periodMs / 2 ? highBitsPerSecond : lowBitsPerSecond);
  // A packet takes the rate in force when it starts: a 1500-byte packet lasts 12 ms even at
  // 1 Mbps, short against any period the papers use.
  return { kind: 'square', rateAt, finish: (t, size) => transmitAtRate(rateAt(t), t, size) };
}

/** @param {{atMs: number, bitsPerSecond: number}[]} steps  ascending by atMs */
function stepTrace(steps) {
  if (!steps.length) throw new Error('a step trace needs at least one step');
  for (let i = 1; i < steps.length; i++) {
    if (!(steps[i].atMs > steps[i - 1].atMs)) throw new Error(`step trace times must increase (row ${i + 1}: ${steps[i].atMs} ms after ${steps[i - 1].atMs} ms)`);
  }
  const rateAt = (t) => {
    let rate = steps[0].bitsPerSecond;
    for (const s of steps) {
      if (s.atMs <= t) rate = s.bitsPerSecond;
      else break;
    }
    return rate;
  };
  return { kind: 'steps', rateAt, finish: (t, size) => transmitAtRate(rateAt(t), t, size) };
}

/** "seconds,kbps" rows (header line and # comments allowed) -> steps */
function parseStepCsv(text) {
  const steps = [];
  let header = false;
  text.split(/\r?\n/).forEach((line, i) => {
    const row = line.replace(/#.*/, '').trim();
    if (!row) return;
    const cells = row.split(/[,;\t ]+/);
    if (cells.length < 2) throw new Error(`step trace line ${i + 1}: expected "seconds,kbps", got "${line}"`);
    const [sec, kbps] = cells.map(Number);
    if (!Number.isFinite(sec) || !Number.isFinite(kbps)) {
      if (steps.length === 0 && !header) {
        header = true; // one header row, before the data (comments may come first)
        return;
      }
      throw new Error(`step trace line ${i + 1}: "${line}" is not two numbers`);
    }
    if (sec < 0 || kbps < 0) throw new Error(`step trace line ${i + 1}: negative value in "${line}"`);
    steps.push({ atMs: sec * 1000, bitsPerSecond: kbps * 1000 });
  });
  return steps;
}

/** mahimahi trace text -> opportunity times (ms, non-decreasing) */
function parseMahimahi(text) {
  const times = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const row = line.trim();
    if (!row) return;
    const ms = Number(row);
    if (!Number.isInteger(ms) || ms < 0) throw new Error(`mahimahi trace line ${i + 1}: "${line}" is not a whole number of ms`);
    if (times.length && ms < times[times.length - 1]) throw new Error(`mahimahi trace line ${i + 1}: ${ms} ms goes back in time`);
    times.push(ms);
  });
  if (!times.length) throw new Error('mahimahi trace is empty');
  if (times[times.length - 1] === 0) throw new Error('mahimahi trace must span more than 0 ms');
  return times;
}

/**
 * Delivery opportunities of MTU bytes at the trace's times, the trace repeating with the
 * period of its last timestamp (mahimahi's semantics). A packet leaves at the first
 * opportunity at or after it is ready, using that opportunity's 1500 bytes; several small
 * packets share one opportunity while its bytes last.
 */
function mahimahiTrace(times) {
  const period = times[times.length - 1];
  let cursor = 0; // index of the next unused opportunity, counting across repetitions
  let leftInCurrent = 0;
  let currentTime = -Infinity;
  const opportunityTime = (k) => Math.floor(k / times.length) * period + times[k % times.length];
  return {
    kind: 'mahimahi',
    rateAt: () => (MTU * 8 * 1000 * times.length) / period,
    finish(t, size) {
      if (size > MTU) throw new Error(`a ${size}-byte packet does not fit a ${MTU}-byte delivery opportunity`);
      if (currentTime >= t && leftInCurrent >= size) {
        leftInCurrent -= size;
        return currentTime;
      }
      // Skip opportunities that passed unused (a link does not bank capacity).
      while (opportunityTime(cursor) < t) cursor += 1;
      currentTime = opportunityTime(cursor);
      cursor += 1;
      leftInCurrent = MTU - size;
      return currentTime;
    },
  };
}

/** From a plain description (scenario files): {kind, ...}. */
function createRateSchedule(spec) {
  if (spec === undefined || spec === null || spec === 0) return constantRate(0);
  if (typeof spec === 'number') return constantRate(spec);
  switch (spec.kind) {
    case 'constant':
      return constantRate(spec.bitsPerSecond);
    case 'square':
      return squareWave(spec);
    case 'steps':
      return stepTrace(spec.steps || parseStepCsv(spec.csv));
    case 'mahimahi':
      return mahimahiTrace(spec.times || parseMahimahi(spec.text));
    default:
      throw new Error(`unknown rate schedule kind "${spec.kind}" (constant, square, steps, mahimahi)`);
  }
}

module.exports = { MTU, constantRate, squareWave, stepTrace, parseStepCsv, parseMahimahi, mahimahiTrace, createRateSchedule };
