'use strict';
// The origin's WebRTC stacks for FDSP DataChannel sessions: the only list of their names. One is
// chosen per origin (`npm run origin -- --webrtc-stack NAME`, startOrigin({webrtcStack})); each
// module exports {name, label, load(), openPeer(o)} (stacks/node-datachannel.js says what a peer
// offers; load() brings in the native module, so a missing one fails the origin's start).
const STACKS = [require('./node-datachannel'), require('./wrtc')];
const DEFAULT_STACK = 'node-datachannel';

function getStack(name = DEFAULT_STACK) {
  const stack = STACKS.find((s) => s.name === name);
  if (!stack) throw new RangeError(`unknown WebRTC stack "${name}": one of ${STACKS.map((s) => s.name).join(', ')}`);
  return stack;
}

const stackNames = () => STACKS.map((s) => s.name);

module.exports = { getStack, stackNames, DEFAULT_STACK };
