'use strict';
const { renderProgress, formatSeconds, createProgressBar } = require('../../origin/content/progress-bar');

test('bar, percentage, elapsed and ETA', () => {
  expect(renderProgress('enc', 0.25, 30, 8)).toBe('enc [##......]  25%  elapsed 0:30  eta 1:30');
  expect(renderProgress('enc', 1, 90, 4)).toBe('enc [####] 100%  elapsed 1:30  eta 0:00');
  // No ETA before there is anything to extrapolate from.
  expect(renderProgress('enc', 0, 5, 4)).toMatch(/eta --:--$/);
  expect(renderProgress('enc', 7, 5, 4)).toMatch(/\[####\] 100%/);
});

test('seconds format', () => {
  expect(formatSeconds(0)).toBe('0:00');
  expect(formatSeconds(605)).toBe('10:05');
  expect(formatSeconds(NaN)).toBe('--:--');
});

test('outside a terminal it logs once per 10 % instead of redrawing', () => {
  const out = [];
  const stream = { isTTY: false, write: (s) => out.push(s) };
  const bar = createProgressBar('x', { stream, now: () => 0 });
  for (let f = 0; f <= 1.0001; f += 0.01) bar.update(f);
  bar.done('finished');
  expect(out.filter((l) => l.includes('%'))).toHaveLength(11);
  expect(out[out.length - 1]).toBe('finished\n');
});
