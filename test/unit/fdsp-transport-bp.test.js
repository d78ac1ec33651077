'use strict';
// The player's DataChannel transport takes its BP through the one BP option parser
// (player/transports/bp-option.js), at construction and live (the page's slider).
const { DataChannelTransport } = require('../../player/transports/datachannel-transport');

test('the transport\'s BP goes through the one BP option parser', () => {
  expect(new DataChannelTransport({ signalingUrl: 'ws://127.0.0.1:1/fdsp' }).bp).toBe(100);
  const auto = new DataChannelTransport({ signalingUrl: 'ws://127.0.0.1:1/fdsp', bp: 'auto:20-80' });
  expect([auto.bp, auto.autoBp]).toEqual([50, { minBp: 20, maxBp: 80 }]);
  expect(new DataChannelTransport({ signalingUrl: 'ws://127.0.0.1:1/fdsp', bp: '25' }).bp).toBe(25);
  expect(() => new DataChannelTransport({ signalingUrl: 'ws://127.0.0.1:1/fdsp', bp: 101 })).toThrow('bp (Bitstream Prioritization) must be 0-100, "auto" or "auto:MIN-MAX", got 101');
  expect(() => new DataChannelTransport({ signalingUrl: 'ws://127.0.0.1:1/fdsp', bp: 'auto:90-10' })).toThrow(/min <= max/);
  const t = new DataChannelTransport({ signalingUrl: 'ws://127.0.0.1:1/fdsp', bp: 0 });
  t.setBp(70);
  expect(t.stats()).toMatchObject({ bp: 70, requests: 0, plr: 0, reliableShare: null });
  expect(() => t.setBp(-1)).toThrow(/must be 0-100/);
  expect(() => t.setBp('auto')).toThrow(/setAutoBp/);
});
