'use strict';
// Random loss: each packet is dropped with probability lossRate, before it joins the queue
// (netem's order: a lost packet takes no room in the queue and no time on the link).
const { checkProbability } = require('./probability');

module.exports = {
  name: 'loss',
  settings: { lossRate: 0 },
  check: (s) => checkProbability('lossRate', s.lossRate),
  drops: ['loss'],
  counters: {},
  create(link) {
    return {
      step() {
        const p = link.settings.lossRate;
        return p > 0 && link.rng() < p ? 'loss' : null;
      },
    };
  },
  profile: {
    keys: ['lossPercent'],
    validate: (v) => v.number('lossPercent', { max: 100 }),
    toSettings: (p) => ({ lossRate: (p.lossPercent || 0) / 100 }),
    describe: (p) => (p.lossPercent ? [`loss ${p.lossPercent} %`] : []),
  },
};
