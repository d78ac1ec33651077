'use strict';
// The player's FDSP transport (player/transports/fdsp-transport.js) with a scripted carrier, for
// unit tests that play the origin's side by hand: the test sends frames with
// `t.handlers.onMessage(frame, channel)` (the newest session's) and reads what the transport
// sent, decoded: all of it in `t.sent`, each session's apart in `t.sessions`.
// fakeClockAndLocation() puts the test file on Jest's fake clock with the `location` the
// transport resolves request URLs against.
const frames = require('../../shared/fdsp/frames');
const { FdspTransport } = require('../../player/transports/fdsp-transport');

class ScriptedFdspCarrier extends FdspTransport {
  openSession(handlers) {
    this.handlers = handlers;
    if (!this.sent) this.sent = [];
    if (!this.sessions) this.sessions = [];
    const session = [];
    this.sessions.push(session);
    const send = (f) => {
      const frame = frames.decodeFrame(f);
      this.sent.push(frame);
      session.push(frame);
    };
    return Promise.resolve({ send, close() {} });
  }
}

/** Jest's fake clock and a page location for every test of the calling file. */
function fakeClockAndLocation(href = 'http://lab.test/') {
  beforeEach(() => {
    jest.useFakeTimers();
    global.location = { href };
  });
  afterEach(() => {
    jest.useRealTimers();
    delete global.location;
  });
}

module.exports = { ScriptedFdspCarrier, fakeClockAndLocation };
