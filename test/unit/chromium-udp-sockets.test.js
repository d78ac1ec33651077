'use strict';
// The lab reads Chromium's UDP sockets from `ss -uampH` to show the receive buffer a
// DataChannel session got (transport option receiveBuffer): the parse, on output captured from
// a playback (the IPv6 line's skmem on its own line as ss wraps it, another program's socket
// among them), and the process tree it filters by.
const { parseUdpSockets, processTree } = require('../../testbed/chromium-udp-sockets');

const SS = [
  'UNCONN 14080  0            0.0.0.0:58329      0.0.0.0:*    users:(("chromium",pid=22378,fd=33))',
  '\t skmem:(r14080,rb2097152,t0,tb524288,f2304,w0,o0,bl0,d0)',
  'UNCONN 0      0                  *:48350            *:*    users:(("chromium",pid=22378,fd=36))',
  '\t skmem:(r0,rb131072,t0,tb524288,f0,w0,o0,bl0,d35)       ',
  'UNCONN 0      0            127.0.0.1:41000    0.0.0.0:*    users:(("node",pid=999,fd=20)) skmem:(r0,rb212992,t0,tb212992,f0,w0,o0,bl0,d7)',
].join('\n');

test('each socket of the given processes with its receive buffer and drops; others left out', () => {
  expect(parseUdpSockets(SS, new Set([22378]))).toEqual([
    { pid: 22378, local: '0.0.0.0:58329', receiveBufferBytes: 2097152, drops: 0 },
    { pid: 22378, local: '*:48350', receiveBufferBytes: 131072, drops: 35 },
  ]);
  expect(parseUdpSockets(SS, new Set([999]))).toEqual([{ pid: 999, local: '127.0.0.1:41000', receiveBufferBytes: 212992, drops: 7 }]);
  expect(parseUdpSockets(SS, new Set([1]))).toEqual([]);
});

test('the process tree holds the root and its descendants, not its parent', () => {
  const { spawn } = require('node:child_process');
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    const tree = processTree(process.pid);
    expect(tree.has(process.pid)).toBe(true);
    expect(tree.has(child.pid)).toBe(true);
    expect(tree.has(process.ppid)).toBe(false);
  } finally {
    child.kill();
  }
});
