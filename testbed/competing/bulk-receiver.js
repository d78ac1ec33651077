#!/usr/bin/env node
'use strict';
// One competing bulk TCP flow's receiver, run in the client namespace on an address of the
// flow's own: it accepts the sender's connection, reads and discards, and reports the bytes it
// has received so far at a fixed interval, so the runner can cut the flow's throughput into the
// same 10 s windows as the measured transport's. Control, one JSON object per line:
//   argv[2]   {"host": "10.77.40.100", "port": 50000, "sampleMs": 1000}
//   stdout    {"listening": true}
//             {"mono": MS, "bytes": CUMULATIVE}      every sampleMs once a sender connected
//             {"accepted": true, "mono": MS, "peer": "A.B.C.D:P"}
//             {"closed": true, "mono": MS, "bytes": N}  when the sender's connection ends
//             {"error": "..."} and exit 1
// mono is the machine's monotonic clock (shared/machine-monotonic-ms.js), which every process
// shares and the runner converts (competing-flows.js's receiverSample); not the wall clock,
// which steps when one of these VMs is resumed from a snapshot.
// It ends on SIGTERM, SIGINT, or when its stdin closes (its last sample first).
const net = require('node:net');
const { machineMonotonicMs } = require('../../shared/machine-monotonic-ms');

function main() {
  const { host, port, sampleMs = 1000 } = JSON.parse(process.argv[2] || '{}');
  if (typeof host !== 'string' || !Number.isInteger(port) || !(sampleMs >= 10)) {
    process.stdout.write(`${JSON.stringify({ error: 'usage: bulk-receiver.js \'{"host": "A.B.C.D", "port": N, "sampleMs": 1000}\'' })}\n`);
    process.exit(2);
  }
  const say = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
  const now = () => ({ mono: machineMonotonicMs() });
  let bytes = 0;
  let timer = null;
  let connection = null;
  const server = net.createServer((socket) => {
    if (connection) {
      socket.destroy(); // one flow, one connection
      return;
    }
    connection = socket;
    say({ accepted: true, ...now(), peer: `${socket.remoteAddress}:${socket.remotePort}` });
    say({ ...now(), bytes });
    timer = setInterval(() => say({ ...now(), bytes }), sampleMs);
    socket.on('data', (chunk) => { bytes += chunk.length; });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      say({ closed: true, ...now(), bytes });
    });
  });
  server.on('error', (err) => {
    say({ error: `${host}:${port}: ${err.message}` });
    process.exit(1);
  });
  server.listen(port, host, () => say({ listening: true }));
  const end = () => {
    clearInterval(timer);
    if (connection && !connection.destroyed) say({ ...now(), bytes });
    process.exit(0);
  };
  for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, end);
  process.stdin.on('end', end);
  process.stdin.on('error', end);
  process.stdin.resume();
}

main();
