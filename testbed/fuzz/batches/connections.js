'use strict';
// Batch "connections": clients that misbehave at the connection level rather than in what
// they send. They pipeline segment GETs and never read them, then vanish; keep their half of
// the connection open after a parser error or a "Connection: close" answer; trickle headers;
// connect and say nothing; stall h2 downloads on a closed flow-control window; stop half-way
// through a TLS handshake; open WebSocket sessions and drop them. Nothing is checked here but
// the answers: the batch's verdict is the run's fd check afterwards (with the half-open
// sockets still held by this side), which sees any descriptor the origin failed to let go of.
const net = require('node:net');
const tls = require('node:tls');
const { rawHttp1 } = require('../raw-http1');
const { RawH2Connection } = require('../raw-h2-connection');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function connect(port, opts = {}) {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true, ...opts });
    s.on('error', () => {});
    s.once('connect', () => resolve(s));
    s.once('error', () => resolve(s));
  });
}

async function run(ctx) {
  const { urls, rec, tree, prng } = ctx;
  const big = `/content/${tree.bigPath}`;
  for (let round = 0; round < ctx.count && !ctx.shouldStop(); round += 1) {
    // Pipelined GETs of a large segment, never read, then the client vanishes (the origin
    // once kept every queued response's file open for good).
    for (const [listener, n, range] of [['http11', 20, false], ['http11', 10, true], ['http10', 5, false]]) {
      const sockets = await Promise.all(Array.from({ length: n }, () => connect(urls[`${listener}Port`])));
      for (const s of sockets) {
        s.pause();
        let req = '';
        for (let k = 0; k < 5; k += 1) req += `GET ${big} HTTP/1.1\r\nHost: 127.0.0.1\r\n${range ? `Range: bytes=${k}-${4 * 1024 * 1024}\r\n` : ''}\r\n`;
        s.write(req);
      }
      rec.case(n);
      await sleep(1000);
      for (const s of sockets) s.destroy();
      rec.see(`${listener} pipelined, unread, dropped`);
    }

    // Parser errors and Connection: close answers, the client's half kept open (held until the fd check).
    for (let i = 0; i < 20; i += 1) {
      rec.case();
      const data = i % 2 ? prng.bytes(prng.int(1, 200)) : Buffer.from(`GARBAGE ${i}\r\n\r\n`);
      const r = await rawHttp1({ port: urls[i % 4 === 3 ? 'http10Port' : 'http11Port'], data, hold: true, timeoutMs: 1500 });
      for (const res of r.responses) rec.status(res.status, { channel: 'http', path: null, body: res.body, what: `garbage then half-open (#${i})` });
      if (r.responses.length === 0) rec.see('no answer');
      if (r.socket) ctx.hold(r.socket);
    }
    for (let i = 0; i < 10; i += 1) {
      rec.case();
      const r = await rawHttp1({ port: urls.http11Port, data: 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', hold: true, timeoutMs: 1500 });
      for (const res of r.responses) rec.status(res.status, { channel: 'http', path: '/healthz', body: res.body, what: 'Connection: close then half-open' });
      if (r.socket) ctx.hold(r.socket);
    }

    // Headers trickled a byte at a time, then abandoned; silent connections.
    const trickle = await Promise.all(Array.from({ length: 10 }, () => connect(urls.http11Port)));
    const text = 'GET /content/media/manifest.mpd HTTP/1.1\r\nHost: 127.0.0.1\r\n';
    for (let k = 0; k < 20; k += 1) {
      for (const s of trickle) s.write(text[k % text.length]);
      await sleep(50);
    }
    for (const s of trickle) s.destroy();
    rec.case(10);
    rec.see('trickled, abandoned');
    for (const port of [urls.http11Port, urls.http10Port, urls.h2Port]) {
      const quiet = await Promise.all(Array.from({ length: 20 }, () => connect(port)));
      await sleep(prng.pick([0, 200]));
      for (const s of quiet) s.destroy();
      rec.case(20);
    }
    rec.see('connected, silent, dropped');

    // h2 downloads stalled on a 64 KB window, then the connection dropped.
    for (let i = 0; i < 10; i += 1) {
      rec.case();
      try {
        const c = await RawH2Connection.open({ port: urls.h2Port, bigWindow: false });
        for (let k = 0; k < 5; k += 1) c.request([[':method', 'GET'], [':scheme', 'https'], [':authority', '127.0.0.1'], [':path', big]]);
        await sleep(300);
        rec.scan(c.dataBytes(), 'stalled h2 download');
        await c.destroy();
        rec.see('h2 stalled, dropped');
      } catch (err) {
        rec.see(`h2 ${err.code || err.message}`);
      }
    }

    // TLS: handshake done then silence; half a ClientHello.
    for (let i = 0; i < 10; i += 1) {
      rec.case();
      await new Promise((resolve) => {
        const s = tls.connect({ port: urls.h2Port, host: '127.0.0.1', ALPNProtocols: ['h2'], rejectUnauthorized: false });
        s.on('error', () => {});
        s.once('secureConnect', () => setTimeout(() => { s.destroy(); resolve(); }, 300));
        s.once('close', resolve);
      });
    }
    const hello = await Promise.all(Array.from({ length: 10 }, () => connect(urls.h2Port)));
    for (const s of hello) s.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]));
    await sleep(300);
    for (const s of hello) s.destroy();
    rec.case(10);
    rec.see('tls stalled, dropped');

    // WebSocket sessions opened and dropped without a word (each made a peer connection).
    const upgrades = await Promise.all(Array.from({ length: 4 }, () => rawHttp1({ port: urls.http11Port, data: 'GET /fdsp HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n', hold: true, timeoutMs: 1500 })));
    for (const u of upgrades) {
      rec.case();
      rec.see(u.responses[0] ? `upgrade ${u.responses[0].status}` : 'upgrade no answer');
      if (u.socket) u.socket.destroy();
    }
  }
}

module.exports = {
  name: 'connections',
  title: 'connection abuse (unread pipelines, half-open, stalls)',
  targets: ['http11', 'http10', 'h2'],
  defaultCount: 1,
  run,
};
