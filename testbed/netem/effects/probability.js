'use strict';
// The check shared by every effect that happens to a packet with some probability.

function checkProbability(name, p) {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`${name} must be a probability in [0, 1], got ${p}`);
}

module.exports = { checkProbability };
