'use strict';
// The ABR registry: the one list of the ABRs a playback can use, by the name a URL or a
// scenario gives (contract.js says what an entry is). The page's menu, URL parsing, scenario
// validation and the player read it. A new algorithm is a file here plus one line below.
const { createRegistry } = require('../registry');
const { normalizeAbr } = require('./contract');
const { validateDecisionInput } = require('./decision-input');

// The lab's own algorithms (the entries that decide), by name, kept current with the registry.
const ALGORITHMS = {};

function refreshAlgorithms(registry) {
  for (const key of Object.keys(ALGORITHMS)) delete ALGORITHMS[key];
  for (const entry of registry.list()) if (entry.decide) ALGORITHMS[entry.name] = entry;
}

const abrs = createRegistry({ kind: 'ABR', normalize: normalizeAbr, onChange: refreshAlgorithms });

abrs.register(require('./dashjs'));
abrs.register(require('./basic'));
abrs.register(require('./sara'));
abrs.register(require('./bba2'));
abrs.register(require('./fixed'));

module.exports = { abrs, ALGORITHMS, validateDecisionInput };
