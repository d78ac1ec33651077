'use strict';
const { RequestRateLimit } = require('../../origin/datachannel/request-rate-limit');

test('a burst up to the bucket size goes ahead, then requests come back at the refill rate', () => {
  let t = 0;
  const limit = new RequestRateLimit({ burst: 4, perSecond: 2, now: () => t });
  expect([1, 2, 3, 4, 5].map(() => limit.take())).toEqual([true, true, true, true, false]);
  t = 400; // 0.8 of a token
  expect(limit.take()).toBe(false);
  t = 500; // 1.0
  expect(limit.take()).toBe(true);
  expect(limit.take()).toBe(false);
  t = 100000; // a long pause refills to the bucket size, no more
  expect(Array.from({ length: 6 }, () => limit.take()).filter(Boolean).length).toBe(4);
});

test('the defaults let a player through: a request every 100 ms for a minute', () => {
  let t = 0;
  const limit = new RequestRateLimit({ now: () => t });
  let refused = 0;
  for (; t < 60000; t += 100) if (!limit.take()) refused += 1;
  expect(refused).toBe(0);
});
