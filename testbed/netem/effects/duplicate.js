'use strict';
// Duplication: with probability duplicateRate a second copy is delivered with the packet.
const { checkProbability } = require('./probability');

module.exports = {
  name: 'duplicate',
  settings: { duplicateRate: 0 },
  check: (s) => checkProbability('duplicateRate', s.duplicateRate),
  drops: [],
  counters: { duplicated: 0 },
  create(link) {
    return {
      step(pkt) {
        const p = link.settings.duplicateRate;
        if (p > 0 && link.rng() < p) {
          pkt.copies += 1;
          link.counters.duplicated += 1;
        }
        return null;
      },
    };
  },
  profile: {
    keys: ['duplicatePercent'],
    validate: (v) => v.number('duplicatePercent', { max: 100 }),
    toSettings: (p) => ({ duplicateRate: (p.duplicatePercent || 0) / 100 }),
    describe: (p) => (p.duplicatePercent ? [`dup ${p.duplicatePercent} %`] : []),
  },
  describeCounters: (c) => (c.duplicated ? [`duplicated ${c.duplicated}`] : []),
};
