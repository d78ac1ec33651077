'use strict';
// The player's side of STALL frames (player/transports/fdsp-transport.js): the origin hears of
// each stall's start and end once, on the session that is open, so its chunk deadlines move as
// the player's do (origin/datachannel/playout-clock.js).
const { ScriptedFdspCarrier } = require('../support/scripted-fdsp-carrier');

test('STALL true when a stall begins, false when it ends, never twice in a row; a new session starts unstalled', async () => {
  let since = null;
  const t = new ScriptedFdspCarrier({ name: 'datachannel', label: 'dc', protocol: 'datachannel', stallState: () => ({ totalMs: 0, since }) });
  t.stallChanged(); // no session yet: nothing to tell
  await t.connect();
  const sent = t.sessions[0];
  since = 1000;
  t.stallChanged();
  t.stallChanged(); // the same stall
  since = null;
  t.stallChanged();
  expect(sent.map((f) => [f.type, f.payload.stalled])).toEqual([['STALL', true], ['STALL', false]]);
  // A stall, then the session ends: the next session's origin never heard of it.
  since = 5000;
  t.stallChanged();
  t.teardown('closed');
  await t.connect();
  since = null;
  t.stallChanged();
  expect(t.sessions[1]).toEqual([]);
});
