'use strict';
// The pump's contract with its channel, on a scripted channel: the real one (node-datachannel)
// is exercised by test/integration/origin-datachannel.test.js and the fuzzer's FDSP batch.
const { ChannelPump } = require('../../origin/datachannel/channel-pump');

function scriptedChannel({ failAfter = Infinity } = {}) {
  const ch = { sent: [], lowCallback: null, buffered: 0 };
  return Object.assign(ch, {
    send(frame) {
      if (ch.sent.length >= failAfter) throw new Error('DataChannel is closed');
      ch.sent.push(frame);
    },
    bufferedAmount: () => ch.buffered,
    setBufferedAmountLowThreshold() {},
    onBufferedAmountLow(cb) { ch.lowCallback = cb; },
  });
}

test('a channel that closes under the pump stops it and tells its owner; nothing is thrown', () => {
  // Thrown out of node-datachannel's buffered-amount-low callback, the error aborted the origin.
  const ch = scriptedChannel({ failAfter: 2 });
  const errors = [];
  const pump = new ChannelPump(ch, { onError: (err) => errors.push(err.message) });
  ch.buffered = 1e9; // full: frames wait for the low-water callback
  for (let i = 0; i < 5; i++) pump.push(1, new Uint8Array([i]));
  expect(ch.sent.length).toBe(0);
  ch.buffered = 0;
  expect(() => ch.lowCallback()).not.toThrow();
  expect(ch.sent.length).toBe(2);
  expect(errors).toEqual(['DataChannel is closed']);
  expect(pump.closed).toBe(true);
  pump.push(1, new Uint8Array([9])); // ignored once closed
  expect(ch.sent.length).toBe(2);
});

test('frames go out in order while the channel has room, markers after what precedes them', () => {
  const ch = scriptedChannel();
  const pump = new ChannelPump(ch);
  const order = [];
  pump.push(1, new Uint8Array([1]), () => order.push('a'));
  pump.mark(1, () => order.push('end'));
  pump.push(2, new Uint8Array([2]), () => order.push('b'));
  expect(order).toEqual(['a', 'end', 'b']);
});
