'use strict';
// Corruption: with probability corruptRate one random bit of the packet is flipped (the relay
// flips it; see corruptPacket in ../udp-relay.js). A duplicate copy is sent intact.
const { checkProbability } = require('./probability');

module.exports = {
  name: 'corrupt',
  settings: { corruptRate: 0 },
  check: (s) => checkProbability('corruptRate', s.corruptRate),
  drops: [],
  counters: { corrupted: 0 },
  create(link) {
    return {
      step(pkt) {
        const p = link.settings.corruptRate;
        if (p > 0 && link.rng() < p) {
          pkt.corruptBit = Math.floor(link.rng() * pkt.size * 8);
          link.counters.corrupted += 1;
        }
        return null;
      },
    };
  },
  profile: {
    keys: ['corruptPercent'],
    validate: (v) => v.number('corruptPercent', { max: 100 }),
    toSettings: (p) => ({ corruptRate: (p.corruptPercent || 0) / 100 }),
    describe: (p) => (p.corruptPercent ? [`corrupt ${p.corruptPercent} %`] : []),
  },
  describeCounters: (c) => (c.corrupted ? [`corrupted ${c.corrupted}`] : []),
};
