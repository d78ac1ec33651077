'use strict';
// Dynamic BP: up on loss, down when reliable data is late or nothing is lost, within range.
const { nextBp, parseAutoBp } = require('../../player/transports/bp-controller');

test('the rules, in order of precedence', () => {
  expect(nextBp(50, { plr: 0.05, reliableLate: true })).toEqual({ bp: 40, reason: 'reliable data arrived after the deadline: BP down' });
  expect(nextBp(50, { plr: 0.05, reliableLate: false }).bp).toBe(60);
  expect(nextBp(50, { plr: 0.001, reliableLate: false }).bp).toBe(40);
  expect(nextBp(50, { plr: 0.01, reliableLate: false })).toMatchObject({ bp: 50, reason: 'PLR within range: BP kept' });
});

test('stays within the configured range; steps and thresholds are parameters', () => {
  expect(nextBp(100, { plr: 0.5, reliableLate: false }).bp).toBe(100);
  expect(nextBp(0, { plr: 0, reliableLate: true }).bp).toBe(0);
  expect(nextBp(70, { plr: 0.5, reliableLate: false }, { maxBp: 75, step: 25 }).bp).toBe(75);
  expect(nextBp(30, { plr: 0, reliableLate: false }, { minBp: 25, step: 25 }).bp).toBe(25);
  // A BP outside the range (the range changed) is brought into it.
  expect(nextBp(90, { plr: 0.01, reliableLate: false }, { maxBp: 60 }).bp).toBe(60);
});

test('"auto" and "auto:MIN-MAX" name a dynamic BP; numbers do not', () => {
  expect(parseAutoBp('auto')).toEqual({ minBp: 0, maxBp: 100 });
  expect(parseAutoBp('auto:25-75')).toEqual({ minBp: 25, maxBp: 75 });
  expect(parseAutoBp('50')).toBeNull();
  expect(() => parseAutoBp('auto:80-20')).toThrow(/min <= max/);
});
