'use strict';
// Reordering, netem's way: with probability reorderRate a packet skips the delay stage and so
// overtakes the packets still in flight. This stage only marks it; the delay stage, which runs
// next, leaves a marked packet alone.
const { checkProbability } = require('./probability');

module.exports = {
  name: 'reorder',
  settings: { reorderRate: 0 },
  check: (s) => checkProbability('reorderRate', s.reorderRate),
  drops: [],
  counters: { reordered: 0 },
  create(link) {
    return {
      step(pkt) {
        const p = link.settings.reorderRate;
        if (p > 0 && link.rng() < p) {
          pkt.skipDelay = true;
          link.counters.reordered += 1;
        }
        return null;
      },
    };
  },
  profile: {
    keys: ['reorderPercent'],
    validate: (v) => v.number('reorderPercent', { max: 100 }),
    toSettings: (p) => ({ reorderRate: (p.reorderPercent || 0) / 100 }),
    describe: (p) => (p.reorderPercent ? [`reorder ${p.reorderPercent} %`] : []),
  },
  describeCounters: (c) => (c.reordered ? [`reordered ${c.reordered}`] : []),
};
