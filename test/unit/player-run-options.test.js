'use strict';
// Seeks, the stop time, transport options and ABR parameters are parsed once
// (player/run-options.js): a page URL and a scenario file get the same rules and the same
// sentence, only the place is named the way each source names it.
const { parseRunConfig } = require('../../player/run-config');
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { urlMessage, fileMessages, SCENARIO_CONTEXT: ctx, VALID_SCENARIO: base } = require('../support/run-option-refusals');

// What follows the name of the place.
const after = (message, place) => {
  expect(message.startsWith(place)).toBe(true);
  return message.slice(place.length).replace(/^:? /, '');
};

test('a seek that is not AT:TO', () => {
  const url = urlMessage('?seeks=10:20,soon');
  const [file] = fileMessages({ seekSchedules: { s: '10:20, soon' } });
  expect(after(url, 'seek')).toBe('"soon" is not "AT:TO" in media seconds, e.g. 40:100');
  expect(after(file, 'seekSchedules.s')).toBe(after(url, 'seek'));
});

test('seeks out of order are refused by both (the page used to sort them, the file refused them)', () => {
  expect(urlMessage('?seeks=30:40,10:20')).toBe('seeks[1]: seek times must increase (10 s after 30 s)');
  expect(fileMessages({ seekSchedules: { s: '30:40,10:20' } })).toEqual(['seekSchedules.s[1]: seek times must increase (10 s after 30 s)']);
  // and both read "->" as well as ":"
  expect(parseRunConfig('?seeks=10->20').seeks).toEqual([{ at: 10, to: 20 }]);
  expect(validateScenario({ ...base, seekSchedules: { s: '10->20' } }, ctx).seekSchedules.s).toEqual([{ at: 10, to: 20 }]);
});

test('the stop time', () => {
  expect(after(urlMessage('?stop=0'), 'stop')).toBe('must be a positive media time in seconds, got "0"');
  expect(after(fileMessages({ durationSeconds: 0 })[0], 'durationSeconds')).toBe('must be a positive media time in seconds, got 0');
  expect(validateScenario({ ...base, durationSeconds: '30' }, ctx).durationSeconds).toBe(30);
});

test('BP: the range and the dynamic form', () => {
  expect(after(urlMessage('?transport=datachannel&bp=101'), 'bp (Bitstream Prioritization)')).toBe('must be 0-100, "auto" or "auto:MIN-MAX", got "101"');
  expect(after(fileMessages({ transports: [{ name: 'datachannel', bp: '101' }] })[0], 'transports[0].bp')).toBe('must be 0-100, "auto" or "auto:MIN-MAX", got "101"');
  expect(after(urlMessage('?bp=auto:90-10'), 'bp')).toBe('a BP range must be within 0-100 with min <= max, got "auto:90-10"');
  expect(after(fileMessages({ transports: [{ name: 'datachannel', bp: 'auto:90-10' }] })[0], 'transports[0].bp')).toBe(after(urlMessage('?bp=auto:90-10'), 'bp'));
});

test('transport and ABR names, and ABR parameters', () => {
  expect(after(urlMessage('?transport=h4'), 'transport')).toBe('"h4" is not a transport (http11, http10, h2, datachannel, h3, webtransport, parallel)');
  expect(after(fileMessages({ transports: ['h4'] })[0], 'transports[0]')).toBe(after(urlMessage('?transport=h4'), 'transport'));
  expect(after(urlMessage('?abr=mpc'), 'abr')).toBe('"mpc" is not an ABR (dashjs, basic, sara, bba2, fixed)');
  expect(after(fileMessages({ abrs: ['mpc'] })[0], 'abrs[0].name')).toBe(after(urlMessage('?abr=mpc'), 'abr'));
  const url = urlMessage('?abr=sara&params={"alpha":1}');
  const [file] = fileMessages({ abrs: [{ name: 'sara', params: { alpha: 1 } }] });
  expect(after(url, 'params')).toMatch(/^sara has no parameter "alpha" \(known: /);
  expect(after(file, 'abrs[0].params')).toBe(after(url, 'params'));
  expect(after(urlMessage('?abr=dashjs&params={"x":1}'), 'params')).toBe('dashjs takes no parameters, got "x"');
});
