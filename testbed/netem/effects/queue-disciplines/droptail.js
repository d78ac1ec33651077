'use strict';
// Drop-tail: the queue drops only what finds it full (its limit in packets or bytes, as every
// discipline has); whatever it admits leaves in order. The default, and tbf's behaviour.

module.exports = {
  name: 'droptail',
  settings: {},
  check() {},
  drops: [],
  // No dequeue(): nothing is decided as packets leave, so the bottleneck can tell when each
  // packet leaves the moment it arrives (no timer per packet).
  create: () => ({}),
  profile: { keys: [], validate() {}, describe: () => [] },
};
