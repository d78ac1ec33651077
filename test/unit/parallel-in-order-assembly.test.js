'use strict';
// In-order assembly: progress is the bytes from the start up to the first missing chunk; the
// response is complete when every chunk is in, byte for byte.
const { InOrderAssembly } = require('../../player/transports/parallel/in-order-assembly');
const { planChunks } = require('../../player/transports/parallel/chunk-plan');

const bytesOf = (c, base) => Uint8Array.from({ length: c.end - c.start + 1 }, (_, i) => (c.start + i + base) & 0xff);

test('chunks out of order: progress only grows over a contiguous prefix', () => {
  const plan = planChunks(0, 9999, 3000); // 0-2999, 3000-5999, 6000-8999, 9000-9999
  const a = new InOrderAssembly(plan);
  expect(a.total).toBe(10000);
  expect(a.place(2, bytesOf(plan[2], 0))).toEqual({ placed: true, inOrderBytes: 0, advanced: false });
  expect(a.place(1, bytesOf(plan[1], 0))).toEqual({ placed: true, inOrderBytes: 0, advanced: false });
  expect(a.place(0, bytesOf(plan[0], 0))).toEqual({ placed: true, inOrderBytes: 9000, advanced: true });
  expect(a.complete).toBe(false);
  // A duplicate is not placed twice.
  expect(a.place(1, bytesOf(plan[1], 7))).toEqual({ placed: false, inOrderBytes: 9000, advanced: false });
  expect(a.place(3, bytesOf(plan[3], 0))).toEqual({ placed: true, inOrderBytes: 10000, advanced: true });
  expect(a.complete).toBe(true);
  expect(Array.from(a.bytes)).toEqual(Array.from({ length: 10000 }, (_, i) => i & 0xff));
});

test('a range that does not start at 0 is assembled at its own offsets', () => {
  const plan = planChunks(500, 899, 100);
  const a = new InOrderAssembly(plan);
  plan.forEach((c, i) => a.place(i, bytesOf(c, 0)));
  expect(a.bytes.length).toBe(400);
  expect(a.bytes[0]).toBe(500 & 0xff);
});

test('wrong sizes, unknown chunks and gaps in the plan are refused', () => {
  const plan = planChunks(0, 99, 50);
  const a = new InOrderAssembly(plan);
  expect(() => a.place(0, new Uint8Array(49))).toThrow(/chunk 0 \(bytes 0-49\) must be 50 bytes, got 49/);
  expect(() => a.place(2, new Uint8Array(50))).toThrow(/there is no chunk 2/);
  expect(() => new InOrderAssembly([])).toThrow(/at least one chunk/);
  expect(() => new InOrderAssembly([{ start: 0, end: 9 }, { start: 11, end: 20 }])).toThrow(/chunk 1 starts at 11/);
});
