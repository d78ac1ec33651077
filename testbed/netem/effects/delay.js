'use strict';
// Propagation delay and jitter: a packet arrives delayMs (+- a uniform jitterMs) after its
// last bit left the bottleneck. Without jitterReorders a packet never overtakes the one before
// it (netem's default since 2015 with rate or jitter); a packet the reorder stage marked skips
// the delay altogether. The profile gives the round trip, split evenly over the directions.

module.exports = {
  name: 'delay',
  settings: { delayMs: 0, jitterMs: 0, jitterReorders: false },
  check(s) {
    for (const k of ['delayMs', 'jitterMs']) if (!(s[k] >= 0)) throw new RangeError(`${k} must be >= 0 ms, got ${s[k]}`);
  },
  drops: [],
  counters: {},
  create(link) {
    let lastDelivery = -Infinity;
    return {
      step(pkt) {
        if (pkt.skipDelay) return null;
        const s = link.settings;
        const jitter = s.jitterMs > 0 ? (link.rng() * 2 - 1) * s.jitterMs : 0;
        let at = pkt.atMs + Math.max(0, s.delayMs + jitter);
        if (!s.jitterReorders) at = Math.max(at, lastDelivery);
        lastDelivery = Math.max(lastDelivery, at);
        pkt.atMs = at;
        return null;
      },
    };
  },
  profile: {
    keys: ['rttMs', 'jitterMs', 'jitterPercent', 'jitterReorders'],
    exclusive: [['jitterMs', 'jitterPercent']],
    // "RTT 100 ms" leads a profile's description: it is the one setting every profile has.
    describeRank: 0,
    validate(v) {
      v.number('rttMs');
      v.number('jitterMs');
      v.number('jitterPercent', { max: 100 });
      v.boolean('jitterReorders');
      if (v.raw.jitterMs !== undefined && v.raw.jitterPercent !== undefined) v.problem('give jitterMs or jitterPercent, not both');
      if (!v.partial) v.out.rttMs = v.out.rttMs ?? 0;
    },
    toSettings(p) {
      const oneWay = (p.rttMs || 0) / 2;
      return {
        delayMs: oneWay,
        jitterMs: p.jitterMs ?? (p.jitterPercent ? (oneWay * p.jitterPercent) / 100 : 0),
        jitterReorders: Boolean(p.jitterReorders),
      };
    },
    describe(p) {
      const parts = [`RTT ${p.rttMs} ms`];
      if (p.jitterMs || p.jitterPercent) parts.push(`jitter ${p.jitterMs !== undefined ? `${p.jitterMs} ms` : `${p.jitterPercent} %`}`);
      return parts;
    },
  },
};
