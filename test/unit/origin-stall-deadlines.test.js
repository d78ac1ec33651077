'use strict';
// The origin's chunk deadlines stand still while the client stalls (STALL frames,
// origin/datachannel/playout-clock.js). Before, the origin expired unreliable chunks on the wall
// clock: in paper000-fdsp (RTT 50 ms, 2026-11-26) a 4.6 s stall right after a segment's request
// had the origin skip 2,230 of its 4,844 chunks that the player, whose deadlines moved with the
// stall, would still have played. A real responder and real pumps on a scripted channel.
const fs = require('node:fs');
const path = require('node:path');
const { PlayoutClock } = require('../../origin/datachannel/playout-clock');
const { FdspResponder } = require('../../origin/datachannel/fdsp-responder');
const { ChannelPump } = require('../../origin/datachannel/channel-pump');
const { ClientFrames } = require('../../origin/fdsp-client-frames');
const frames = require('../../shared/fdsp/frames');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

describe('PlayoutClock', () => {
  test('stands still from a STALL true to the next STALL false, and repeats change nothing', () => {
    let t = 1000;
    const c = new PlayoutClock(() => t);
    expect(c.now()).toBe(1000);
    t = 1500;
    c.setStalled(true);
    t = 2500;
    expect(c.now()).toBe(1500); // a stall in progress
    c.setStalled(true); // repeated: the stall still began at 1500
    t = 3500;
    c.setStalled(false);
    expect(c.now()).toBe(1500);
    c.setStalled(false);
    t = 4000;
    expect(c.now()).toBe(2000); // 2 s of stall behind, the clock runs again
  });
});

describe('STALL frames', () => {
  test('encode and decode; a STALL without a boolean is refused', () => {
    expect(frames.decodeFrame(frames.encodeStall(true))).toEqual({ type: 'STALL', requestId: 0, offset: 0, payload: { stalled: true } });
    expect(() => frames.encodeStall('yes')).toThrow(/STALL needs stalled: true or false/);
    const raw = frames.encodeCancel(0);
    raw[2] = frames.TYPES.STALL; // a STALL frame with {} as its payload
    expect(() => frames.decodeFrame(raw)).toThrow(/STALL needs stalled/);
  });
});

function scriptedChannel() {
  const ch = { frames: [], buffered: 0, low: null };
  return Object.assign(ch, {
    send(f) { ch.frames.push(f); },
    bufferedAmount: () => ch.buffered,
    setBufferedAmountLowThreshold() {},
    onBufferedAmountLow(cb) { ch.low = cb; },
  });
}

// A segment of 20 kB whose bytes after a 1 kB container are P-slice data: 18 unreliable chunks.
function contentWithMap(dir) {
  fs.mkdirSync(path.join(dir, 'c'));
  fs.writeFileSync(path.join(dir, 'c', 'seg.m4s'), Buffer.alloc(20000, 7));
  return { lookup: async () => ({ size: 20000, priority: { ranges: [[0, 1000, 'container'], [1000, 20000, 'pbSliceData']] } }) };
}

// Resolves once cond() holds; the file read's time depends on the machine, so no fixed sleep.
async function until(cond, what) {
  for (let i = 0; i < 500 && !cond(); i += 1) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error(`still not true after 5 s: ${what}`);
}

async function answerBehindFullChannel({ stallDuringWait }) {
  let wall = 0; // the responder's wall clock, moved by hand below
  const dir = makeLabTempDir('stall');
  try {
    const channels = { reliable: scriptedChannel(), unreliable: scriptedChannel() };
    channels.unreliable.buffered = 1e9; // the network takes nothing yet: chunks wait in the pump
    const pumps = { reliable: new ChannelPump(channels.reliable), unreliable: new ChannelPump(channels.unreliable) };
    const responder = new FdspResponder({ wallClock: () => wall, contentDir: dir, maps: contentWithMap(dir), reliable: pumps.reliable, unreliable: pumps.unreliable });
    const client = new ClientFrames({ responder, reliable: pumps.reliable, endSession: () => { throw new Error('no strikes expected'); } });
    client.onFrame(frames.encodeRequest(1, { url: '/content/c/seg.m4s', bp: 0, deadlineMs: 100 }));
    // The responder reads the file and queues every chunk: 18 chunks and the END marker.
    await until(() => pumps.unreliable.queue.length === 19, 'the responder queued 19 frames');
    if (stallDuringWait) client.onFrame(frames.encodeStall(true));
    wall += 250; // past the 100 ms deadline on the wall clock
    if (stallDuringWait) client.onFrame(frames.encodeStall(false));
    channels.unreliable.buffered = 0;
    channels.unreliable.low();
    const end = channels.reliable.frames.map((f) => frames.decodeFrame(f)).find((f) => f.type === 'END');
    return { sent: channels.unreliable.frames.length, end: end.payload };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('without a stall, chunks still queued at their deadline are skipped', async () => {
  const { sent, end } = await answerBehindFullChannel({ stallDuringWait: false });
  expect(sent).toBe(0);
  expect(end).toMatchObject({ unreliableChunks: 18, unreliableSent: 0, unreliableSkipped: 18 });
});

test('a stall the client reports moves the deadlines: the same wait, nothing skipped', async () => {
  const { sent, end } = await answerBehindFullChannel({ stallDuringWait: true });
  expect(sent).toBe(18);
  expect(end).toMatchObject({ unreliableChunks: 18, unreliableSent: 18, unreliableSkipped: 0 });
});
