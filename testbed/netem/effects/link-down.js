'use strict';
// The link down: every packet inside a down interval is dropped (a network switch's outage,
// paper 002 Table 4; a path lost and regained, paper 004's introduction). Scenario files set it
// through switch schedules (outageSeconds) or a profile's `outages`: [{atSeconds, forSeconds}],
// seconds from the playback's start, per path on a multipath profile (each extraPaths entry
// has its own), both directions.

function checkIntervals(s) {
  if (!Array.isArray(s.downIntervals)) throw new RangeError(`downIntervals must be a list of {fromMs, toMs}, got ${JSON.stringify(s.downIntervals)}`);
  for (const iv of s.downIntervals) {
    if (!(iv && iv.fromMs >= 0 && iv.toMs > iv.fromMs)) throw new RangeError(`down interval ${JSON.stringify(iv)} must have 0 <= fromMs < toMs`);
  }
}

function validateOutages(v) {
  const list = v.raw.outages;
  if (list === undefined) return;
  const ok = Array.isArray(list) && list.length > 0 && list.every((o) => o && typeof o === 'object'
    && Object.keys(o).every((k) => k === 'atSeconds' || k === 'forSeconds')
    && typeof o.atSeconds === 'number' && o.atSeconds >= 0 && typeof o.forSeconds === 'number' && o.forSeconds > 0);
  if (!ok) {
    v.problem(`must be a list of {atSeconds >= 0, forSeconds > 0} (the path is down from atSeconds for forSeconds), got ${JSON.stringify(list)}`, 'outages');
    return;
  }
  v.out.outages = list.map((o) => ({ atSeconds: o.atSeconds, forSeconds: o.forSeconds }));
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
  profile: {
    keys: ['outages'],
    validate: validateOutages,
    toSettings: (p) => (p.outages ? { downIntervals: p.outages.map((o) => ({ fromMs: o.atSeconds * 1000, toMs: (o.atSeconds + o.forSeconds) * 1000 })) } : {}),
    describe: (p) => (p.outages ? p.outages.map((o) => `down ${o.forSeconds} s at ${o.atSeconds} s`) : []),
  },
};
