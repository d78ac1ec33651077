'use strict';
// A ChannelPump (origin/datachannel/channel-pump.js) on a scripted clock and timers, in front of
// a channel that takes everything (sent: [time, bytes] per frame): tests of its pace and its receive window advance time by hand.
const { ChannelPump } = require('../../origin/datachannel/channel-pump');

/**
 * @returns {{pump: ChannelPump, sent: Array<[number, number]>, advance: (to: number) => void, now: () => number, timers: object[]}}
 */
function scriptedPump() {
  let t = 0;
  const timers = [];
  const sent = [];
  const channel = { send: (frame) => sent.push([t, frame.length]), bufferedAmount: () => 0, setBufferedAmountLowThreshold() {}, onBufferedAmountLow() {} };
  const pump = new ChannelPump(channel, {
    now: () => t,
    timers: { set: (fn, ms) => { const x = { at: t + ms, fn }; timers.push(x); return x; }, clear: (x) => { x.cleared = true; } },
  });
  // Runs the timers due by `to` in time order, the clock at each one's time.
  const advance = (to) => {
    for (;;) {
      const next = timers.filter((x) => !x.cleared && !x.done && x.at <= to).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      t = next.at;
      next.done = true;
      next.fn();
    }
    t = to;
  };
  return { pump, sent, advance, now: () => t, timers };
}

module.exports = { scriptedPump };
