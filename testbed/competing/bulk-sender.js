#!/usr/bin/env node
'use strict';
// One competing bulk TCP flow's sender, run in the server namespace: it connects to its
// receiver and writes as fast as TCP lets it until it is told to stop. Its congestion control
// is the kernel's, chosen for its destination by a route (competing-flows.js: `ip route ...
// congctl reno`), because Node cannot set TCP_CONGESTION on a socket. Control, one JSON object
// per line:
//   argv[2]   {"host": "10.77.40.100", "port": 50000}
//   stdout    {"connected": true, "localPort": N}, then on the end {"sent": BYTES, "reason": "..."}
//   stdout    {"error": "..."} and exit 1 when it cannot connect or the connection fails
// It ends (and closes its connection) on SIGTERM, SIGINT, or when its stdin closes, so it
// cannot outlive the runner that started it.
const net = require('node:net');

const BLOCK = Buffer.alloc(64 * 1024, 0x5a);

function main() {
  const { host, port } = JSON.parse(process.argv[2] || '{}');
  if (typeof host !== 'string' || !Number.isInteger(port)) {
    process.stdout.write(`${JSON.stringify({ error: 'usage: bulk-sender.js \'{"host": "A.B.C.D", "port": N}\'' })}\n`);
    process.exit(2);
  }
  let sent = 0;
  let ended = false;
  const socket = net.connect({ host, port });
  const end = (reason, code = 0) => {
    if (ended) return;
    ended = true;
    process.stdout.write(`${JSON.stringify({ sent, reason })}\n`);
    // RST, not FIN: a FIN would go after the socket's send buffer (megabytes), and the flow would
    // go on loading the link for seconds after its stop time.
    if (typeof socket.resetAndDestroy === 'function' && socket.readyState === 'open') socket.resetAndDestroy();
    else socket.destroy();
    process.exit(code);
  };
  const pump = () => {
    while (!ended) {
      sent += BLOCK.length;
      if (!socket.write(BLOCK)) return; // resumes on 'drain'
    }
  };
  socket.setNoDelay(false);
  socket.on('connect', () => {
    process.stdout.write(`${JSON.stringify({ connected: true, localPort: socket.localPort })}\n`);
    pump();
  });
  socket.on('drain', pump);
  socket.on('error', (err) => {
    if (ended) return;
    process.stdout.write(`${JSON.stringify({ error: `${host}:${port}: ${err.message}` })}\n`);
    end(`error: ${err.message}`, 1);
  });
  socket.on('close', () => end('closed by the receiver'));
  for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => end(sig));
  process.stdin.on('end', () => end('stdin closed'));
  process.stdin.on('error', () => end('stdin closed'));
  process.stdin.resume();
}

main();
