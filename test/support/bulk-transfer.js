'use strict';
// A bulk TCP transfer between the lab's namespaces for integration tests: a server that writes
// as fast as TCP allows to whoever connects, and a client that reads and prints its byte count
// as a JSON line every 250 ms. Both are one-line Node programs run with `node -e` (under
// mptcpize for Multipath TCP), so each is a process of its own in its namespace.
const { spawn } = require('node:child_process');
const { inNamespace } = require('../../testbed/netem/namespace-link');
const { mptcpizeArgv } = require('../../testbed/netem/mptcp');

// The server sets TCP_NODELAY as the origin's HTTP server does: with MPTCP, a socket option set on
// the connection makes the kernel copy the connection's congestion control to every new subflow.
const SERVER = `const s=require('net').createServer((c)=>{c.setNoDelay(true);const b=Buffer.alloc(65536,7);const w=()=>{while(c.write(b)){}};c.on('drain',w);c.on('error',()=>{});w();});s.listen(Number(process.argv[2]),process.argv[1],()=>console.log('listening'));`;
const CLIENT = `let n=0;const c=require('net').connect(Number(process.argv[2]),process.argv[1]);c.on('data',(d)=>{n+=d.length});c.on('error',(e)=>{console.log(JSON.stringify({error:e.message}));process.exit(1)});setInterval(()=>console.log(JSON.stringify({bytes:n})),250);`;

function start(ns, script, args, mptcp) {
  const argv = [process.execPath, '-e', script, ...args];
  const full = inNamespace(ns, mptcp ? mptcpizeArgv(argv) : argv);
  return spawn(full[0], full.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
}

/**
 * Starts the server in `serverNs` on address:port and, once it listens, the client in
 * `clientNs`. Push both children to `children` so the test's afterAll can kill them by PID.
 * @returns {Promise<{server, client, last: () => {bytes?: number, error?: string},
 *   next: () => Promise<{bytes?: number, error?: string}>}>}
 *   last(): the client's latest report, up to 250 ms old; next(): its next one, fresh, for a count
 *   that starts or ends a short window (a stale one moves bytes from before the window into it).
 */
async function startBulkTransfer({ serverNs, clientNs, address, port, mptcp = false, children }) {
  const server = start(serverNs, SERVER, [address, String(port)], mptcp);
  children.push(server);
  await new Promise((resolve, reject) => {
    server.stdout.once('data', resolve);
    server.once('exit', (code) => reject(new Error(`bulk server exited ${code}`)));
  });
  const client = start(clientNs, CLIENT, [address, String(port)], mptcp);
  children.push(client);
  let last = { bytes: 0 };
  let waiting = [];
  client.stdout.on('data', (d) => {
    for (const line of String(d).trim().split('\n')) last = JSON.parse(line);
    for (const resolve of waiting) resolve(last);
    waiting = [];
  });
  return { server, client, last: () => last, next: () => new Promise((resolve) => { waiting.push(resolve); }) };
}

module.exports = { startBulkTransfer };
