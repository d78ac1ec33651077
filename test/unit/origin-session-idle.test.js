'use strict';
// When an FDSP session is idle (origin/session-idle-timer.js): no client frame for the timeout
// and nothing of its own still going out. Before, only client frames counted: a client sends
// one REQUEST per segment and then listens, so at RTT 250 ms a 5 MB segment that took longer
// than the 60 s timeout to send had its session closed under it, and the player fetched the
// whole segment again (paper000-fdsp's RTT 250 cells: 42-60 % overhead). Here a real responder
// and real pumps on scripted channels, with Jest's fake clock.
const fs = require('node:fs');
const path = require('node:path');
const { createIdleTimer, fdspSessionBusy } = require('../../origin/session-idle-timer');
const { FdspResponder } = require('../../origin/datachannel/fdsp-responder');
const { ChannelPump } = require('../../origin/datachannel/channel-pump');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

function scriptedChannel() {
  const ch = { sent: 0, low: null, buffered: 0 };
  return Object.assign(ch, {
    send() { ch.sent += 1; ch.buffered += 1; },
    bufferedAmount: () => ch.buffered,
    setBufferedAmountLowThreshold() {},
    onBufferedAmountLow(cb) { ch.low = cb; },
  });
}

test('the idle timer fires only when nothing is going out, and never after stop()', () => {
  jest.useFakeTimers();
  try {
    let busy = true;
    const idle = [];
    const t = createIdleTimer({ timeoutMs: 1000, busy: () => busy, onIdle: () => idle.push(Date.now()) });
    t.touch();
    jest.advanceTimersByTime(3500);
    expect(idle).toEqual([]); // busy at 1, 2 and 3 s: re-armed each time
    busy = false;
    jest.advanceTimersByTime(500);
    expect(idle).toHaveLength(1); // the next expiry, at 4 s
    const stopped = createIdleTimer({ timeoutMs: 1000, busy: () => false, onIdle: () => idle.push('late') });
    stopped.touch();
    stopped.stop();
    stopped.touch();
    jest.advanceTimersByTime(5000);
    expect(idle).toHaveLength(1);
  } finally {
    jest.useRealTimers();
  }
});

test('a slow response keeps its session: busy while its frames wait or sit in the channel, the count restarts when it is answered', async () => {
  const dir = makeLabTempDir('idle');
  try {
    fs.writeFileSync(path.join(dir, 'seg.m4s'), Buffer.alloc(200 * 1024, 1));
    const channels = { reliable: scriptedChannel(), unreliable: scriptedChannel() };
    // A full channel: frames wait in the pumps until the "network" drains it.
    channels.reliable.buffered = 1e9;
    const pumps = { reliable: new ChannelPump(channels.reliable), unreliable: new ChannelPump(channels.unreliable) };
    const events = [];
    let timer;
    const responder = new FdspResponder({ contentDir: dir, reliable: pumps.reliable, unreliable: pumps.unreliable, onSettled: (id) => { events.push(`settled ${id}`); timer.touch(); } });
    timer = createIdleTimer({ timeoutMs: 50, busy: () => fdspSessionBusy(responder, pumps), onIdle: () => events.push('idle') });
    timer.touch(); // the client's REQUEST
    await responder.handle(1, { url: '/seg.m4s', bp: 100, deadlineMs: null });
    // Every frame is handed to the pumps at once: the request is answered (settled, the count
    // restarts), but its frames wait in the reliable pump behind the full channel.
    expect(events).toEqual(['settled 1']);
    expect(responder.openRequests).toBe(0);
    expect(pumps.reliable.queue.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200)); // four timeouts while nothing can leave
    expect(events).toEqual(['settled 1']);
    // The network takes the frames; they sit in the channel's buffer until delivered: busy.
    channels.reliable.buffered = 0;
    channels.reliable.low();
    expect(pumps.reliable.queue.length).toBe(0);
    expect(channels.reliable.buffered).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 120));
    expect(events).toEqual(['settled 1']);
    // Delivered: idle after at most two more timeouts.
    channels.reliable.buffered = 0;
    await new Promise((r) => setTimeout(r, 150));
    expect(events).toEqual(['settled 1', 'idle']);
    timer.stop();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
