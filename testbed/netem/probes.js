'use strict';
// Small measurements across an emulated link, run as Node processes inside its namespaces:
// TCP handshake times (RTT), TCP goodput, UDP loss. Used by the emulator's tests and by
// `npm run bench:netem`.
const { execFileSync, spawn } = require('node:child_process');
const { mptcpizeArgv } = require('./mptcp');

// Every probe takes options {serverIp, mptcp}: the server address to use (a path's own, on a
// link with several paths; default the link's) and whether both ends speak Multipath TCP.
const nodeArgv = (code, mptcp) => (mptcp ? mptcpizeArgv([process.execPath, '-e', code]) : [process.execPath, '-e', code]);

/** Runs node code inside a namespace; returns its stdout. */
function nodeIn(ns, code, timeout = 120000, { mptcp = false } = {}) {
  return execFileSync('ip', ['netns', 'exec', ns, ...nodeArgv(code, mptcp)], { encoding: 'utf8', timeout });
}

/** Starts node code inside a namespace that prints one line when ready; resolves with the child. */
function startIn(ns, code, { mptcp = false } = {}) {
  const child = spawn('ip', ['netns', 'exec', ns, ...nodeArgv(code, mptcp)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (c) => reject(new Error(`process in ${ns} exited early (${c})`)));
    child.stdout.once('data', () => resolve(child));
  });
}

/**
 * A TCP server in the server namespace that sends `bytes` bytes to every connection. A client
 * that only measures the handshake closes at once, and the byte sent after that draws a RST:
 * ignored, or the server process dies of ECONNRESET and the next connect is refused.
 */
function startTcpSender(link, port, bytes, { serverIp = link.serverIp, mptcp = false } = {}) {
  return startIn(link.serverNs, `
    const buf = Buffer.alloc(${bytes}, 7);
    require('net').createServer((s) => { s.on('error', () => {}); s.end(buf); }).listen(${port}, '${serverIp}', () => console.log('up'));`, { mptcp });
}

/** n TCP handshakes from the client namespace; connect times in ms. */
async function tcpConnectTimes(link, port, n = 7, { serverIp = link.serverIp } = {}) {
  const server = await startTcpSender(link, port, 1, { serverIp });
  try {
    return JSON.parse(nodeIn(link.clientNs, `
      const net = require('net'); const times = [];
      (function go() {
        const t = process.hrtime.bigint();
        const s = net.connect(${port}, '${serverIp}', () => {
          times.push(Number(process.hrtime.bigint() - t) / 1e6); s.destroy();
          if (times.length < ${n}) go(); else console.log(JSON.stringify(times));
        });
      })();`));
  } finally {
    server.kill('SIGKILL');
  }
}

/** Downloads `bytes` over TCP server -> client; goodput in bits/s from first to last byte. */
async function tcpGoodput(link, port, bytes) {
  return (await tcpTransfer(link, port, bytes)).goodput;
}

/**
 * The same download, also measured on the wire: the IP bytes the emulator delivered to the
 * client over the transfer (headers included), so a rate can be checked against its own
 * unit. The link rate is a wire rate; goodput is that minus the headers.
 */
async function tcpTransfer(link, port, bytes, o = {}) {
  // The path the transfer is meant for (by its server address), or all paths (MPTCP).
  const paths = link.paths ? link.paths.filter((p) => o.mptcp || p.serverIp === (o.serverIp || link.serverIp)) : [link];
  const wire = async () => (await Promise.all(paths.map((p) => p.counters()))).reduce((a, c) => a + c.toClient.bytesOut, 0);
  const before = await wire();
  const r = await tcpDownload(link, port, bytes, o);
  const wireBytes = (await wire()) - before;
  return { seconds: r.seconds, goodput: (r.n * 8) / r.seconds, wireRate: (wireBytes * 8) / r.seconds };
}

async function tcpDownload(link, port, bytes, { serverIp = link.serverIp, mptcp = false } = {}) {
  const server = await startTcpSender(link, port, bytes, { serverIp, mptcp });
  try {
    const r = JSON.parse(nodeIn(link.clientNs, `
      const s = require('net').connect(${port}, '${serverIp}'); let n = 0; let t0;
      s.on('data', (c) => { if (t0 === undefined) t0 = process.hrtime.bigint(); n += c.length; });
      s.on('end', () => console.log(JSON.stringify({ n, seconds: Number(process.hrtime.bigint() - t0) / 1e9 })));`, 120000, { mptcp }));
    if (r.n !== bytes) throw new Error(`received ${r.n} of ${bytes} bytes`);
    return r;
  } finally {
    server.kill('SIGKILL');
  }
}

/** Sends `count` numbered UDP datagrams client -> server, paced; the fraction that never arrived. */
async function udpLoss(link, port, count = 5000, size = 1000, perMs = 1) {
  // The receiver counts distinct sequence numbers (duplicates do not hide losses) and reports
  // on SIGUSR2; its open socket keeps it alive until then.
  const receiver = await startIn(link.serverNs, `
    const seen = new Set(); const s = require('dgram').createSocket('udp4');
    s.on('message', (m) => seen.add(m.readUInt32BE(0)));
    process.on('SIGUSR2', () => { console.log(seen.size); process.exit(0); });
    s.bind(${port}, '${link.serverIp}', () => console.log('up'));`);
  try {
    nodeIn(link.clientNs, `
      const s = require('dgram').createSocket('udp4'); let i = 0;
      const tick = () => {
        for (let k = 0; k < ${perMs} && i < ${count}; k++, i++) { const b = Buffer.alloc(${size}); b.writeUInt32BE(i, 0); s.send(b, ${port}, '${link.serverIp}'); }
        if (i < ${count}) setTimeout(tick, 1); else setTimeout(() => s.close(), 200);
      };
      tick();`);
    await new Promise((r) => setTimeout(r, 500));
    const result = new Promise((resolve) => {
      let out = '';
      receiver.stdout.on('data', (c) => { out += c; });
      receiver.once('exit', () => resolve(Number(out.trim().split('\n').pop())));
    });
    receiver.kill('SIGUSR2');
    const received = await result;
    return 1 - received / count;
  } finally {
    receiver.kill('SIGKILL');
  }
}

module.exports = { nodeIn, startIn, startTcpSender, tcpConnectTimes, tcpGoodput, tcpTransfer, tcpDownload, udpLoss };
