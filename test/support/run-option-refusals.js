'use strict';
// What a page URL and a scenario file say when they refuse a run option, for the tests that
// check both give the same sentence (player/run-options.js parses both).
const { parseRunConfig } = require('../../player/run-config');
const { validateScenario, ScenarioError } = require('../../testbed/scenario/validate-scenario');
const { getPreset } = require('../../origin/content/presets');

const SCENARIO_CONTEXT = { source: 't.yaml', defaultName: 't', getPreset };
// A scenario that is valid as it is: a test overrides the keys it checks.
const VALID_SCENARIO = { content: 'sample', transports: ['http11'], abrs: ['bba2'], profiles: { lan: { rttMs: 20 } } };

/** The message a page URL is refused with; throws when it is accepted. */
function urlMessage(search) {
  try {
    parseRunConfig(search);
  } catch (err) {
    return err.message;
  }
  throw new Error(`expected ${search} to be refused`);
}

/** The problems a scenario (VALID_SCENARIO with `raw` over it) is refused with; throws when it is accepted. */
function fileMessages(raw) {
  try {
    validateScenario({ ...VALID_SCENARIO, ...raw }, SCENARIO_CONTEXT);
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    return err.problems;
  }
  throw new Error('expected the scenario to be refused');
}

module.exports = { urlMessage, fileMessages, SCENARIO_CONTEXT, VALID_SCENARIO };
