'use strict';
// The DataChannel transport's receiveBuffer option (issue 16 item 2): video (default) or
// chromium, from a page URL and a scenario file by one rule; the transport keeps it for its
// sessions and the registry entry reports it among the playback's settings.
const { parseRunConfig, runConfigToSearch } = require('../../player/run-config');
const { transports, createTransport } = require('../../player/transports');
const { urlMessage, fileMessages } = require('../support/run-option-refusals');

test('default video; the URL carries chromium and reads it back', () => {
  expect(transports.get('datachannel').options.receiveBuffer.default).toBe('video');
  const config = parseRunConfig('?transport=datachannel&receiveBuffer=chromium');
  expect(config).toMatchObject({ transport: 'datachannel', receiveBuffer: 'chromium' });
  expect(parseRunConfig(runConfigToSearch({ ...config, autostart: true })).receiveBuffer).toBe('chromium');
  expect(parseRunConfig('?transport=datachannel').receiveBuffer).toBeUndefined();
});

test('an unknown value gets the same sentence from a URL and from a scenario file; other transports have no such option', () => {
  const { title } = transports.get('datachannel').options.receiveBuffer;
  expect(urlMessage('?transport=datachannel&receiveBuffer=huge')).toBe(`receiveBuffer (${title}) must be "video", "chromium", got "huge"`);
  expect(fileMessages({ transports: [{ name: 'datachannel', receiveBuffer: 'huge' }] })).toEqual(['transports[0].receiveBuffer must be "video", "chromium", got "huge"']);
  expect(fileMessages({ transports: [{ name: 'http11', receiveBuffer: 'video' }] })).toHaveLength(1);
});

test('the transport keeps it and reports it in its settings', () => {
  const urls = { fdsp: 'ws://127.0.0.1:8080/fdsp' };
  const context = { bufferLevel: () => 0, stallState: () => ({}), nextSegmentUrl: () => null, highestBandwidthBps: 4.5e6 };
  const plain = createTransport('datachannel', urls, { receiveBuffer: 'chromium' }, context);
  expect(plain.receiveBuffer).toBe('chromium');
  expect(transports.get('datachannel').configFields(plain)).toMatchObject({ receiveBuffer: 'chromium' });
  expect(createTransport('datachannel', urls, {}, context).receiveBuffer).toBe('video');
});
