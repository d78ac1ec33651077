'use strict';
// A seeded pseudo-random generator (mulberry32), so an emulated link with loss, jitter and
// reordering drops and delays the same packets in every run with the same seed: a result
// that changes only because the dice did is not reproducible research.

function createRng(seed = 1) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

module.exports = { createRng };
