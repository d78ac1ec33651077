#!/usr/bin/env node
'use strict';
// The relay as its own process, so it can run at real-time priority (chrt) apart from the
// busy test runner or QoE runner: timers firing late are the emulator's worst error on a busy
// 2-core machine. Control over stdin/stdout, one JSON object per line:
//   argv[2]              the UdpRelay options (JSON)
//   stdout {"ready":true}                         once both sockets are bound
//   stdin  {"configure":{"direction":"toClient|toServer|both","settings":{...}}}
//   stdin  {"counters":true}  -> stdout {"counters":{...}}
//   stdin  {"watch":["10.77.40.100"]} -> stdout {"watching":true}  (counters().byAddress)
//   argv[3]              optional: {"namespaces":[...],"devices":[...]}, the link's own, removed
//                        when stdin closes (path 0's relay only)
// It exits when stdin closes, so it cannot outlive the process that started it, and takes the
// link's namespaces with it: stdin closes without close() having run when that process crashed,
// was killed, or was a Jest worker stopped by Ctrl-C (Jest's sandbox has its own `process`, so
// the 'exit' and signal hooks of code under test never run).
const readline = require('node:readline');
const { UdpRelay } = require('./udp-relay');
const { removeLinkNamespaces } = require('./ip-netns');

async function main() {
  const relay = new UdpRelay(JSON.parse(process.argv[2]));
  await relay.start();
  const reply = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);
  reply({ ready: true });
  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    let msg;
    try {
      msg = JSON.parse(line);
      if (msg.configure) {
        relay.configure(msg.configure.direction, msg.configure.settings);
        reply({ configured: true });
      }
      if (msg.counters) reply({ counters: relay.counters() });
      if (msg.watch) {
        relay.watch(msg.watch);
        reply({ watching: true });
      }
    } catch (err) {
      reply({ error: err.message });
    }
  });
  rl.on('close', () => {
    relay.close();
    if (process.argv[3]) removeLinkNamespaces(JSON.parse(process.argv[3]));
    process.exit(0);
  });
}

main().catch((err) => {
  process.stderr.write(`relay: ${err.message}\n`);
  process.exit(1);
});
