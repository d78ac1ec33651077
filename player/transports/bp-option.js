'use strict';
// The DataChannel transport's one option, Bitstream Prioritization (paper 000): the % of each
// I-slice's data also sent reliably, 0-100, or "auto" / "auto:MIN-MAX" for dynamic BP
// (bp-controller.js). The only place its rules are written: the page URL (?bp=), a scenario's
// transport entry ({name: datachannel, bp: 50}) and the page's form all parse it here.
const { parseAutoBp } = require('./bp-controller');
const { numberFrom, show } = require('../option-values');

/** @returns {number|string|undefined} a number 0-100 or the "auto..." text; undefined on a problem */
function parse(raw, where, problems) {
  if (typeof raw === 'string') {
    let auto = null;
    try {
      auto = parseAutoBp(raw);
    } catch (err) {
      problems.push(`${where.part}: ${err.message}`);
      return undefined;
    }
    if (auto) return raw.trim();
  }
  const n = numberFrom(raw);
  if (!(n >= 0 && n <= 100)) {
    problems.push(`${where.whole} must be 0-100, "auto" or "auto:MIN-MAX", got ${show(raw)}`);
    return undefined;
  }
  return n;
}

module.exports = {
  title: 'Bitstream Prioritization',
  noun: 'a BP',
  help: 'the % of each I-slice\'s data also sent reliably, 0-100 (default 100), or "auto" / "auto:MIN-MAX" for dynamic BP',
  default: 100,
  // The page has its own control for it: a slider that changes the BP of a running playback.
  control: 'bp-slider',
  parse,
  format: (value) => String(value),
};
