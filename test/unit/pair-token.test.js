'use strict';
// Pairing two sessions into one FDSP session (shared/fdsp/pair-token.js).
const { newPairToken, readPairParams, TOKEN } = require('../../shared/fdsp/pair-token');

test('tokens are 16 lower-case hex digits and do not repeat', () => {
  const tokens = new Set(Array.from({ length: 50 }, newPairToken));
  expect(tokens.size).toBe(50);
  for (const t of tokens) expect(t).toMatch(TOKEN);
});

test('a URL names one side or none; anything else is refused with a reason', () => {
  const q = (s) => readPairParams(new URLSearchParams(s));
  expect(q('')).toEqual({ pairToken: null, pairWith: null });
  expect(q('pairToken=0123456789abcdef')).toEqual({ pairToken: '0123456789abcdef', pairWith: null });
  expect(q('cc=fixed&pairWith=0123456789abcdef')).toEqual({ pairToken: null, pairWith: '0123456789abcdef' });
  expect(() => q('pairToken=0123456789ABCDEF')).toThrow(/16 lower-case hex digits/);
  expect(() => q('pairWith=../../etc')).toThrow(/16 lower-case hex digits/);
  expect(() => q('pairToken=0123456789abcdef&pairWith=0123456789abcdef')).toThrow(/not both/);
});
