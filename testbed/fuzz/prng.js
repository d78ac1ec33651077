'use strict';
// The fuzzer's dice: every generated case comes from one seed, so a failure found by
// `npm run fuzz -- --seed N` is found again by the same command. Built on the emulator's
// mulberry32 (testbed/netem/rng.js), with the helpers case generators need.
const { createRng } = require('../netem/rng');

/**
 * @param {number} seed  any integer
 * @returns {object} next() in [0, 1) plus int, pick, chance, bytes, string helpers
 */
function createPrng(seed) {
  const next = createRng(seed);
  const prng = {
    seed,
    next,
    /** An integer in [min, max], both inclusive. */
    int(min, max) {
      return min + Math.floor(next() * (max - min + 1));
    },
    /** Biased towards small values and the edges, where parsers break: 0, 1, max and powers of two. */
    length(max) {
      const r = next();
      if (r < 0.1) return prng.pick([0, 1, 2, max, max - 1].filter((n) => n >= 0 && n <= max));
      if (r < 0.3) return Math.min(max, 2 ** prng.int(0, Math.max(0, Math.floor(Math.log2(max || 1)))));
      if (r < 0.8) return prng.int(0, Math.min(max, 64));
      return prng.int(0, max);
    },
    pick(list) {
      return list[Math.floor(next() * list.length)];
    },
    chance(p) {
      return next() < p;
    },
    bytes(n) {
      const out = Buffer.alloc(n);
      for (let i = 0; i < n; i += 1) out[i] = Math.floor(next() * 256);
      return out;
    },
    /** n characters drawn from `alphabet` (a string or an array of strings). */
    string(n, alphabet) {
      let s = '';
      for (let i = 0; i < n; i += 1) s += alphabet[Math.floor(next() * alphabet.length)];
      return s;
    },
    /** A child generator: a batch draws from its own stream, so adding cases to one batch does not change another's. */
    fork(label) {
      let h = seed >>> 0;
      for (const ch of String(label)) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
      return createPrng(h);
    },
  };
  return prng;
}

module.exports = { createPrng };
