'use strict';
// What an FDSP carrier sends reliably (both FDSP transports take it): "fdsp" (default) is paper
// 000's split, critical data and BP % of the I-slice data reliable; "udp-only" is the paper's
// UDP-only baseline (Figs. 4 and 7): nothing reliable but the container boxes (so the segment can
// still be parsed), every NAL unit's bytes unreliable, whatever the BP. Parsed here only.
const { show } = require('../option-values');

const MODES = ['fdsp', 'udp-only'];

module.exports = {
  title: 'FDSP mode',
  noun: 'a mode',
  help: 'fdsp (default): critical data and BP % of I-slice data reliable; udp-only: paper 000\'s UDP-only baseline, only the container boxes reliable',
  default: 'fdsp',
  parse(raw, where, problems) {
    const v = typeof raw === 'string' ? raw.trim() : raw;
    if (!MODES.includes(v)) {
      problems.push(`${where.whole} must be ${MODES.map((m) => `"${m}"`).join(' or ')}, got ${show(raw)}`);
      return undefined;
    }
    return v;
  },
  MODES,
};
