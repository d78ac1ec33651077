'use strict';
const { fnv1a32 } = require('../../player/qoe/fnv1a32');

test('FNV-1a 32 matches the published test vectors', () => {
  // From the FNV reference (isthe.com/chongo/tech/comp/fnv): "", "a", "foobar".
  expect(fnv1a32(new Uint8Array(0))).toBe('811c9dc5');
  expect(fnv1a32(Buffer.from('a'))).toBe('e40c292c');
  expect(fnv1a32(Buffer.from('foobar'))).toBe('bf9cf968');
});

test('an ArrayBuffer, a view into a larger buffer and a Buffer of the same bytes agree', () => {
  const big = new Uint8Array([9, 9, 102, 111, 111, 98, 97, 114, 9]);
  const view = new Uint8Array(big.buffer, 2, 6);
  expect(fnv1a32(view)).toBe('bf9cf968');
  expect(fnv1a32(view.slice().buffer)).toBe('bf9cf968');
});

test('one zeroed byte (an FDSP chunk lost in place) changes the digest', () => {
  const a = Buffer.alloc(4096, 7);
  const b = Buffer.from(a);
  b[2000] = 0;
  expect(fnv1a32(a)).not.toBe(fnv1a32(b));
});
