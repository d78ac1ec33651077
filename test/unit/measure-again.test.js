'use strict';
// The emulator tests' rule for a measurement that misses its bounds (test/support/measure-again.js):
// taken again up to `attempts` times, the first within bounds returned, else the last, so an
// emulator that is wrong every time still fails its test.
const { measureAgainIfOff } = require('../support/measure-again');

const quietly = async (fn) => {
  const write = process.stderr.write;
  const lines = [];
  process.stderr.write = (s) => lines.push(String(s));
  try {
    return { result: await fn(), lines };
  } finally {
    process.stderr.write = write;
  }
};

const scripted = (values) => {
  const calls = [];
  return { calls, measure: async (attempt) => { calls.push(attempt); return values[attempt - 1]; } };
};

test('the first attempt within bounds is returned, and the misses before it are printed', async () => {
  const s = scripted([7.9, 9.4, 9.6]);
  const { result, lines } = await quietly(() => measureAgainIfOff('rate', { measure: s.measure, within: (v) => v > 8.5, describe: (v) => `${v} Mbit/s` }));
  expect(result).toBe(9.4);
  expect(s.calls).toEqual([1, 2]);
  expect(lines).toEqual(['rate: attempt 1 of 3 outside its bounds (7.9 Mbit/s); measuring again\n']);
});

test('a measurement off every time is returned as the last attempt, for the test to fail on', async () => {
  const s = scripted([12, 12.1, 11.9]);
  const { result, lines } = await quietly(() => measureAgainIfOff('rate', { measure: s.measure, within: (v) => v < 10.05, describe: (v) => `${v} Mbit/s` }));
  expect(result).toBe(11.9);
  expect(s.calls).toEqual([1, 2, 3]);
  expect(lines[2]).toBe('rate: attempt 3 of 3 outside its bounds (11.9 Mbit/s)\n');
});
