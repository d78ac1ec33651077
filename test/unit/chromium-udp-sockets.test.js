'use strict';
// The lab reads Chromium's UDP sockets from `ss -uampnH` to show the receive buffer a
// DataChannel session got (transport option receiveBuffer): the parse, on output captured from
// a playback (the IPv6 line's skmem on its own line as ss wraps it, another program's socket
// among them), a socket several processes share, a socket line with no skmem part, and the
// watcher's answer when it cannot sample.
const { parseUdpSockets, watchLargestReceiveBuffer } = require('../../testbed/chromium-udp-sockets');

const SS = [
  'UNCONN 14080  0            0.0.0.0:58329      0.0.0.0:*    users:(("chromium",pid=22378,fd=33))',
  '\t skmem:(r14080,rb2097152,t0,tb524288,f2304,w0,o0,bl0,d0)',
  'UNCONN 0      0                  *:48350            *:*    users:(("chromium",pid=22378,fd=36))',
  '\t skmem:(r0,rb131072,t0,tb524288,f0,w0,o0,bl0,d35)       ',
  'UNCONN 0      0            127.0.0.1:41000    0.0.0.0:*    users:(("node",pid=999,fd=20)) skmem:(r0,rb212992,t0,tb212992,f0,w0,o0,bl0,d7)',
].join('\n');

test('each socket of the given processes with its receive buffer and drops; others left out', () => {
  expect(parseUdpSockets(SS, new Set([22378]))).toEqual([
    { pids: [22378], local: '0.0.0.0:58329', receiveBufferBytes: 2097152, drops: 0 },
    { pids: [22378], local: '*:48350', receiveBufferBytes: 131072, drops: 35 },
  ]);
  expect(parseUdpSockets(SS, new Set([999]))).toEqual([{ pids: [999], local: '127.0.0.1:41000', receiveBufferBytes: 212992, drops: 7 }]);
  expect(parseUdpSockets(SS, new Set([1]))).toEqual([]);
});

test('a socket shared by several processes counts for any of them; a line without skmem does not borrow the next socket\'s', () => {
  const text = [
    'UNCONN 0 0 0.0.0.0:5000 0.0.0.0:* users:(("zygote",pid=10,fd=3),("chromium",pid=20,fd=7))',
    '\t skmem:(r0,rb131072,t0,tb131072,f0,w0,o0,bl0,d2)',
    'UNCONN 0 0 0.0.0.0:5001 0.0.0.0:* users:(("chromium",pid=20,fd=8))',
    'UNCONN 0 0 0.0.0.0:5002 0.0.0.0:* users:(("other",pid=30,fd=1)) skmem:(r0,rb999,t0,tb0,f0,w0,o0,bl0,d5)',
  ].join('\n');
  expect(parseUdpSockets(text, new Set([20]))).toEqual([{ pids: [10, 20], local: '0.0.0.0:5000', receiveBufferBytes: 131072, drops: 2 }]);
});

test('a watcher that never had a PID says so instead of a size', async () => {
  const watch = watchLargestReceiveBuffer({ everyMs: 10 });
  watch.onPlaying({ chromiumPid: null });
  expect(await watch.stop()).toEqual({ largest: null, error: 'no Chromium PID to watch' });
});
