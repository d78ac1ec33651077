'use strict';
const { parseRunConfig, runConfigToSearch, parseSeekSchedule } = require('../../player/run-config');

test('paper 002 Table 3 seek schedule', () => {
  expect(parseSeekSchedule('40:100, 150:200,280:350 , 420->500')).toEqual([
    { at: 40, to: 100 }, { at: 150, to: 200 }, { at: 280, to: 350 }, { at: 420, to: 500 },
  ]);
  expect(parseSeekSchedule('')).toEqual([]);
  expect(() => parseSeekSchedule('40-100')).toThrow(/seek "40-100" is not "AT:TO"/);
});

test('a run survives the round trip through its URL', () => {
  const config = {
    content: 'paper-quic', transport: 'h2', abr: 'bba2', seeks: [{ at: 40, to: 100 }], stopAt: 600,
    keepBitrateOnSeek: true, abrParams: { bufferSizeSeconds: 20 }, autostart: true, hold: true, bp: 25, live: false,
  };
  expect(parseRunConfig(runConfigToSearch(config))).toEqual(config);
});

test('defaults and clear errors for bad parameters', () => {
  expect(parseRunConfig('')).toEqual({ content: 'sample', transport: 'http11', abr: 'dashjs', autostart: false, hold: false, seeks: [], keepBitrateOnSeek: false, live: false });
  expect(() => parseRunConfig('?stop=-3')).toThrow(/stop must be a positive/);
  expect(() => parseRunConfig('?params={bad')).toThrow(/params must be JSON/);
  expect(() => parseRunConfig('?params=[1]')).toThrow(/JSON object/);
  expect(() => parseRunConfig('?seeks=soon')).toThrow(/AT:TO/);
  expect(() => parseRunConfig('?bp=120')).toThrow(/bp \(Bitstream Prioritization\) must be 0-100/);
  expect(parseRunConfig('?bp=auto:25-75').bp).toBe('auto:25-75');
  expect(() => parseRunConfig('?bp=auto:9-3')).toThrow(/bp: a BP range/);
});
