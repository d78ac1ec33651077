'use strict';
// The report's notes about single playbacks (late timers, a stepped clock) end by naming the
// cells that hold them, so a reader of the tables knows which means to doubt.

/**
 * @param {{label: string, ids: string[]}[]} groups  the report's cells (aggregate.js)
 * @param {Iterable<string>} ids  playback ids
 * @returns {string}  "cell A" or "cells A, B": the cells holding any of the ids, in table order
 */
function cellsHolding(groups, ids) {
  const wanted = new Set(ids);
  const labels = groups.filter((g) => g.ids.some((id) => wanted.has(id))).map((g) => g.label);
  return `cell${labels.length === 1 ? '' : 's'} ${labels.join(', ')}`;
}

module.exports = { cellsHolding };
