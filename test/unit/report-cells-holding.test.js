'use strict';
// The phrase the report's per-playback notes end with: which cells hold the named playbacks.
const { cellsHolding } = require('../../testbed/report/cells-holding');

const groups = [
  { label: 'http11 / basic', ids: ['a.r1', 'a.r2'] },
  { label: 'h2 / basic', ids: ['b.r1'] },
  { label: 'h3 / basic', ids: ['c.r1', 'c.r2'] },
];

test('one cell is named in the singular, even when it holds several of the ids', () => {
  expect(cellsHolding(groups, ['a.r2', 'a.r1'])).toBe('cell http11 / basic');
});

test('several cells are named in table order, not in the order of the ids', () => {
  expect(cellsHolding(groups, ['c.r2', 'a.r1'])).toBe('cells http11 / basic, h3 / basic');
});

test('ids in no cell add nothing', () => {
  expect(cellsHolding(groups, ['b.r1', 'gone.r9'])).toBe('cell h2 / basic');
});
