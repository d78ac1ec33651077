'use strict';
// The FDSP receive window (issue 16 item 2): the origin keeps at most windowBytes of DATA sent
// and not yet acknowledged (origin/datachannel/in-flight-window.js, held by the pumps), the
// client acknowledges every quarter of it (shared/fdsp/client-core.js), and ACK frames are
// checked like every other frame (shared/fdsp/frames.js). Scripted clock and timers.
const frames = require('../../shared/fdsp/frames');
const { InFlightWindow, MIN_QUIET_MS } = require('../../origin/datachannel/in-flight-window');
const { scriptedPump } = require('../support/scripted-pump');
const { FdspClientCore } = require('../../shared/fdsp/client-core');
const { ClientFrames } = require('../../origin/fdsp-client-frames');
const windowOption = require('../../player/transports/window-option');

const FRAME = 1112; // an unreliable chunk's frame: 1100 bytes + the 12-byte header

function pumpWith(window) {
  const scripted = scriptedPump();
  const push = (requestId, n) => {
    for (let i = 0; i < n; i++) scripted.pump.push(requestId, frames.encodeData(requestId, i * 1100, new Uint8Array(1100)), null, { window, dataOffset: i * 1100 });
  };
  return { ...scripted, push };
}

describe('the origin side: a window held by the pump', () => {
  test('no window: everything goes at once', () => {
    const w = new InFlightWindow();
    const { sent, push } = pumpWith(w);
    push(1, 100);
    expect(sent).toHaveLength(100);
    expect(w.pending.size).toBe(0); // nothing kept when there is no window
  });

  test('a window of 10 frames: 10 go, then one ACK lets as many go as it covered', () => {
    const w = new InFlightWindow();
    w.setLimit(10 * FRAME);
    const { pump, sent, push, now } = pumpWith(w);
    push(1, 100);
    expect(sent).toHaveLength(10);
    expect(w.inFlight).toBe(10 * FRAME);
    // The client acknowledges the 4th frame: it and the three before it are gone.
    expect(w.acked(1, 3 * 1100, now())).toBe(true);
    pump.pump();
    expect(sent).toHaveLength(14);
    expect(w.inFlight).toBe(10 * FRAME);
    // An ACK of a frame already covered, or never sent, or a stranger's, changes nothing.
    expect(w.acked(1, 2 * 1100, now())).toBe(false);
    expect(w.acked(1, 999 * 1100, now())).toBe(false);
    expect(w.acked(7, 0, now())).toBe(false);
    pump.pump();
    expect(sent).toHaveLength(14);
  });

  test('an ACK of a later frame covers earlier ones never acknowledged (lost chunks do not close the window)', () => {
    const w = new InFlightWindow();
    w.setLimit(10 * FRAME);
    const { pump, sent, push, now } = pumpWith(w);
    push(1, 30);
    // Frames 0-8 lost; the 10th arrives and is acknowledged: the whole window is free again.
    w.acked(1, 9 * 1100, now());
    expect(w.inFlight).toBe(0);
    pump.pump();
    expect(sent).toHaveLength(20);
  });

  test('a client that stops acknowledging: the window opens again after its quiet time, never stops the session', () => {
    const w = new InFlightWindow();
    w.setLimit(10 * FRAME);
    const { sent, push, advance } = pumpWith(w);
    push(1, 35);
    expect(sent).toHaveLength(10);
    const first = w.quietMs;
    advance(first - 1);
    expect(sent).toHaveLength(10);
    advance(first);
    expect(sent).toHaveLength(20);
    // Still nothing acknowledged: the next reopening waits twice as long (a stalled receiver).
    expect(w.quietMs).toBe(Math.min(2 * first, 2000));
    advance(first + w.quietMs - 1);
    expect(sent).toHaveLength(20);
    advance(first + w.quietMs);
    expect(sent).toHaveLength(30);
    advance(first + 10000);
    expect(sent).toHaveLength(35);
    // An ACK starts the count again.
    w.sent(2, 0, FRAME, 20000);
    w.acked(2, 0, 20010);
    expect(w.reopens).toBe(0);
  });

  test('the quiet time follows the acknowledgement delay seen, within its bounds', () => {
    const w = new InFlightWindow();
    w.setLimit(10 * FRAME);
    w.sent(1, 0, FRAME, 0);
    w.acked(1, 0, 30); // 30 ms
    expect(w.quietMs).toBe(Math.max(MIN_QUIET_MS, 60));
    for (let i = 1; i < 50; i++) {
      w.sent(1, i * 1100, FRAME, i * 1000);
      w.acked(1, i * 1100, i * 1000 + 400);
    }
    expect(w.quietMs).toBeGreaterThan(700);
    expect(w.quietMs).toBeLessThanOrEqual(800);
  });

  test('a frame larger than the window still goes when nothing is in flight', () => {
    const w = new InFlightWindow();
    w.setLimit(1000);
    expect(w.allows(16 * 1024 + 12, 0)).toBe(true);
    w.sent(1, 0, 16 * 1024 + 12, 0);
    expect(w.allows(FRAME, 1)).toBe(false);
  });

  test('setLimit refuses nonsense', () => {
    const w = new InFlightWindow();
    expect(() => w.setLimit(0)).toThrow(RangeError);
    expect(() => w.setLimit(1.5)).toThrow(RangeError);
    expect(() => w.setLimit('64')).toThrow(RangeError);
  });
});

describe('the client side: one ACK per quarter of the window', () => {
  test('no window asked: no ACK', () => {
    const core = new FdspClientCore();
    const { requestId } = core.request({ url: '/content/a.m4s', bp: 0 }, 0);
    const events = [];
    for (let i = 0; i < 100; i++) events.push(...core.receive(frames.encodeData(requestId, i * 1100, new Uint8Array(1100)), 'unreliable', i));
    expect(events.filter((e) => e.kind === 'ack')).toHaveLength(0);
  });

  test('a window of 40 frames: an ACK every 10 frames, naming the last one in; late chunks count too', () => {
    const core = new FdspClientCore();
    const { requestId } = core.request({ url: '/content/a.m4s', bp: 0, windowBytes: 40 * FRAME }, 0);
    const acks = [];
    for (let i = 0; i < 100; i++) {
      for (const e of core.receive(frames.encodeData(requestId, i * 1100, new Uint8Array(1100)), 'unreliable', i)) {
        if (e.kind === 'ack') acks.push(frames.decodeFrame(e.frame));
      }
    }
    expect(acks.map((a) => a.offset)).toEqual([9, 19, 29, 39, 49, 59, 69, 79, 89, 99].map((i) => i * 1100));
    expect(acks.every((a) => a.type === 'ACK' && a.requestId === requestId)).toBe(true);
    expect(core.stats().acks).toBe(10);
    // A chunk for no open request (after its response was cancelled) is still counted in.
    core.cancel(requestId);
    const after = [];
    for (let i = 100; i < 110; i++) after.push(...core.receive(frames.encodeData(requestId, i * 1100, new Uint8Array(1100)), 'unreliable', i));
    expect(after.filter((e) => e.kind === 'ack')).toHaveLength(1);
  });

  test('the REQUEST carries the window; null turns it off', () => {
    const core = new FdspClientCore();
    const { frame } = core.request({ url: '/a', bp: 0, windowBytes: 65536 }, 0);
    expect(frames.decodeFrame(frame).payload.windowBytes).toBe(65536);
    core.request({ url: '/b', bp: 0, windowBytes: null }, 0);
    expect(core.windowBytes).toBeNull();
  });
});

describe('the wire and the option', () => {
  test('ACK frames round-trip; one with a payload or a REQUEST with a bad window is refused', () => {
    expect(frames.decodeFrame(frames.encodeAck(5, 2200))).toEqual({ type: 'ACK', requestId: 5, offset: 2200 });
    const withPayload = new Uint8Array(frames.HEADER_BYTES + 2);
    withPayload.set(frames.encodeAck(5, 0));
    expect(() => frames.decodeFrame(withPayload)).toThrow(/ACK frames carry no payload/);
    for (const windowBytes of [0, 1024, 1.5, '65536', frames.MAX_WINDOW_BYTES + 1]) {
      expect(() => frames.encodeRequest(1, { url: '/a', bp: 0, windowBytes })).toThrow(/windowBytes/);
    }
  });

  test('the origin hands a client ACK to its responder and counts no strike', () => {
    const acked = [];
    const errors = [];
    const cf = new ClientFrames({ responder: { openRequests: 0, acked: (id, off) => acked.push([id, off]) }, reliable: { push: (id, f) => errors.push(f) }, endSession: () => { throw new Error('must not end'); } });
    for (let i = 0; i < 50; i++) cf.onFrame(frames.encodeAck(3, i * 1100));
    expect(acked).toHaveLength(50);
    expect(errors).toHaveLength(0);
    expect(cf.badFrames).toBe(0);
  });

  test('window=K KiB or off, parsed once for page, URL and scenarios', () => {
    const problems = [];
    expect(windowOption.parse('48', { whole: 'window' }, problems)).toBe(48);
    expect(windowOption.parse('off', { whole: 'window' }, problems)).toBe('off');
    expect(problems).toEqual([]);
    expect(windowOption.windowBytes(48)).toBe(48 * 1024);
    expect(windowOption.windowBytes('off')).toBeNull();
    for (const bad of ['4', '1.5', 'big', String(windowOption.MAX_KIB + 1)]) windowOption.parse(bad, { whole: `window=${bad}` }, problems);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/must be "off" or a whole number of KiB/);
  });
});
