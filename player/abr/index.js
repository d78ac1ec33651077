'use strict';
// The lab's ABR algorithms, by the key a configuration names them with. A new algorithm
// registers here and nowhere else. Every entry has the same shape:
//   { name, label, defaults, initialState(), decide(input, state, params),
//     bufferCeilingSeconds(params, segmentDurationSeconds) }
// with decide's input and result documented in decision-input.js.
const basic = require('./basic');
const sara = require('./sara');
const bba2 = require('./bba2');
const fixed = require('./fixed');
const { validateDecisionInput } = require('./decision-input');

function entry(m) {
  return Object.freeze({
    name: m.name,
    label: m.label,
    defaults: m.defaults,
    initialState: m.initialState,
    decide: m.decide,
    bufferCeilingSeconds: m.bufferCeilingSeconds,
  });
}

const ALGORITHMS = Object.freeze({ basic: entry(basic), sara: entry(sara), bba2: entry(bba2), fixed: entry(fixed) });

module.exports = { ALGORITHMS, validateDecisionInput };
