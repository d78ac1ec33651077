'use strict';
// The link down: every packet inside a down interval is dropped (a network switch's outage,
// paper 002 Table 4). Scenario files set it through switch schedules, not through a profile
// key, so this effect has no profile part.

function checkIntervals(s) {
  if (!Array.isArray(s.downIntervals)) throw new RangeError(`downIntervals must be a list of {fromMs, toMs}, got ${JSON.stringify(s.downIntervals)}`);
  for (const iv of s.downIntervals) {
    if (!(iv && iv.fromMs >= 0 && iv.toMs > iv.fromMs)) throw new RangeError(`down interval ${JSON.stringify(iv)} must have 0 <= fromMs < toMs`);
  }
}

module.exports = {
  name: 'down',
  settings: { downIntervals: [] },
  check: checkIntervals,
  drops: ['down'],
  counters: {},
  create(link) {
    return {
      step(pkt) {
        const { downIntervals, timeOriginMs } = link.settings;
        if (!downIntervals.length) return null;
        // Intervals count from the scenario's clock origin, not the caller's.
        const local = pkt.t - timeOriginMs;
        for (const iv of downIntervals) if (local >= iv.fromMs && local < iv.toMs) return 'down';
        return null;
      },
    };
  },
};
