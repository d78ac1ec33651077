'use strict';
// Batch "h2": HTTP/2 oddities on the TLS listener. Most are written frame by frame on a fresh
// connection (raw-h2-connection.js), because node:http2 refuses to send them: missing,
// duplicated, unknown or late pseudo-headers, uppercase and control-character names,
// connection-specific headers, bodies on GET with lying content-length, stream-id abuse,
// frames of the wrong size or on the wrong stream, HPACK garbage, bad prefaces and ALPN, and
// bounded floods (pings, settings, rapid stream resets, CONTINUATION). A few use node:http2
// itself: many streams reset at once, huge header lists, large downloads abandoned. Every
// stream's status is checked (no 5xx, no forbidden content); resets and GOAWAYs are counted.
const net = require('node:net');
const http2 = require('node:http2');
const { RawH2Connection } = require('../raw-h2-connection');
const w = require('../../h2-wire');
const { runPool } = require('../run-pool');
const { createPrng } = require('../prng');

const AUTH = [':authority', '127.0.0.1'];
const base = (path = '/healthz', method = 'GET') => [[':method', method], [':scheme', 'https'], AUTH, [':path', path]];
const SECRET_PATH = '/content/media/../../outside/secret.txt';

/** Raw-frame scripts: each sends something odd on `conn` and returns the streams to wait for. */
const RAW = {
  'missing pseudo-header': (prng, c) => {
    const drop = prng.pick([':method', ':scheme', ':path']);
    return [c.request(base('/content/media/manifest.mpd').filter(([n]) => n !== drop))];
  },
  'duplicate pseudo-header': (prng, c) => [c.request([...base('/healthz'), [':path', prng.pick([SECRET_PATH, '/content/media/escape.txt', '/healthz'])]])],
  'pseudo-header after a regular one': (prng, c) => [c.request([[':method', 'GET'], ['accept', '*/*'], [':scheme', 'https'], [':path', '/healthz']])],
  'unknown or response pseudo-header': (prng, c) => [c.request([...base(), prng.pick([[':foo', 'bar'], [':status', '200'], [':protocol', 'websocket'], [':', 'x']])])],
  'uppercase header name': (prng, c) => [c.request([...base('/content/media/chunk-1-00001.m4s'), [prng.pick(['Range', 'X-UP', 'HOST', 'Content-Length']), 'bytes=0-1']])],
  'bad header name': (prng, c) => [c.request([...base(), [prng.pick(['x y', 'x:y', 'x\x00y', 'x\r\ny', '', '\xe9', 'x\x7f', '(x)']), '1']])],
  'bad header value': (prng, c) => [c.request([...base(), ['x-v', prng.pick(['a\r\nb', 'a\x00b', ' lead', 'trail ', '\x7f', 'a\nset-cookie: x'])]])],
  'connection-specific header': (prng, c) => [c.request([...base(), prng.pick([['connection', 'keep-alive'], ['keep-alive', '5'], ['proxy-connection', 'x'], ['transfer-encoding', 'chunked'], ['upgrade', 'h2c'], ['te', 'gzip'], ['te', 'trailers']])])],
  'odd method': (prng, c) => {
    const m = prng.pick(['CONNECT', 'get', '', 'G ET', 'X'.repeat(prng.int(100, 5000)), 'POST', 'PRI', 'OPTIONS', 'TRACE']);
    if (m === 'CONNECT' && prng.chance(0.5)) return [c.request([[':method', 'CONNECT'], AUTH])];
    return [c.request(base('/healthz', m))];
  },
  'odd :path': (prng, c) => [c.request(base(prng.pick(['', '*', 'healthz', 'https://x/healthz', '/healthz#x', '/heal thz', '/'.repeat(prng.int(1, 5000)), `/${'a'.repeat(60000)}`, '/\xff\xfe', SECRET_PATH, '/content/media/%2e%2e/%2e%2e/outside/secret.txt'])))],
  'huge header': (prng, c) => [c.request([...base(), ['x-huge', 'a'.repeat(prng.pick([10000, 16384, 40000, 65000, 100000]))]], { timeoutMs: 5000 })],
  'many headers': (prng, c) => [c.request([...base(), ...Array.from({ length: prng.pick([200, 1000, 5000]) }, (_, i) => [`x-h${i}`, String(i)])], { timeoutMs: 5000 })],
  'body on GET / lying content-length': (prng, c) => {
    const [len, body] = prng.pick([['5', 'x'.repeat(10)], ['10', 'x'.repeat(5)], ['-1', 'x'], ['abc', 'x'], [null, 'x'.repeat(70000)]]);
    return [c.request([...base('/content/media/manifest.mpd'), ...(len === null ? [] : [['content-length', len]])], { body: Buffer.from(body) })];
  },
  'stream id abuse': (prng, c) => {
    const kind = prng.pick(['even', 'zero', 'decreasing', 'reuse', 'max']);
    if (kind === 'even') return [c.request(base(), { streamId: 2 })];
    if (kind === 'zero') return [c.request(base(), { streamId: 0 })];
    if (kind === 'max') return [c.request(base(), { streamId: 2 ** 31 - 1 })];
    const first = c.request(base(), { streamId: 5 });
    return [first, c.request(base(), { streamId: kind === 'reuse' ? 5 : 3 })];
  },
  'frame of the wrong size or place': (prng, c) => {
    const f = prng.pick([
      () => w.frame(0xfa, 0, 0, Buffer.from('unknown')),
      () => w.frame(w.TYPE.SETTINGS, 0, 0, Buffer.alloc(5)),
      () => w.frame(w.TYPE.SETTINGS, 0, 1, Buffer.alloc(6)),
      () => w.frame(w.TYPE.SETTINGS, w.FLAG.ACK, 0, Buffer.alloc(6)),
      () => w.frame(w.TYPE.PING, 0, 0, Buffer.alloc(7)),
      () => w.frame(w.TYPE.PING, 0, 1, Buffer.alloc(8)),
      () => w.windowUpdate(0, 0),
      () => w.windowUpdate(1, 0),
      () => Buffer.concat([w.windowUpdate(0, 2 ** 31 - 1), w.windowUpdate(0, 2 ** 31 - 1)]),
      () => w.priorityFrame(1, 1),
      () => w.frame(w.TYPE.PRIORITY, 0, 1, Buffer.alloc(4)),
      () => w.rstStream(7, 8),
      () => w.frame(w.TYPE.RST_STREAM, 0, 1, Buffer.alloc(3)),
      () => w.frame(w.TYPE.PUSH_PROMISE, w.FLAG.END_HEADERS, 1, Buffer.concat([Buffer.from([0, 0, 0, 2]), w.headerBlock(base())])),
      () => w.frame(w.TYPE.CONTINUATION, w.FLAG.END_HEADERS, 1, w.headerBlock(base())),
      () => Buffer.concat([w.frame(w.TYPE.HEADERS, 0, 1, w.headerBlock(base())), w.ping()]),
      () => w.dataFrame(0, Buffer.from('x')),
      () => w.dataFrame(9, Buffer.from('x')),
      () => w.dataFrame(1, Buffer.alloc(20000)),
      () => Buffer.concat([w.goaway(0, 0), w.headersFrames(1, w.headerBlock(base()))]),
      () => w.settingsFrame([[w.SETTING.ENABLE_PUSH, 2]]),
      () => w.settingsFrame([[w.SETTING.INITIAL_WINDOW_SIZE, 2 ** 31]]),
      () => w.settingsFrame([[w.SETTING.MAX_FRAME_SIZE, 100]]),
      () => w.settingsFrame([[w.SETTING.HEADER_TABLE_SIZE, 2 ** 32 - 1], [0x99, 1]]),
      () => w.frame(w.TYPE.HEADERS, w.FLAG.PADDED | w.FLAG.END_HEADERS | w.FLAG.END_STREAM, 1, Buffer.concat([Buffer.from([200]), w.headerBlock(base())])),
      () => w.frame(w.TYPE.HEADERS, w.FLAG.PRIORITY | w.FLAG.END_HEADERS | w.FLAG.END_STREAM, 1, Buffer.concat([Buffer.from([0, 0, 0, 1, 15]), w.headerBlock(base())])),
    ])();
    c.send(f);
    return [];
  },
  'HPACK garbage': (prng, c) => {
    const block = prng.pick([
      () => prng.bytes(prng.int(1, 300)),
      () => Buffer.from([0x80]),
      () => Buffer.concat([w.hpackInt(1000, 7, 0x80)]),
      () => Buffer.from([0x10, 0x85, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x61]),
      () => Buffer.from([0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      () => Buffer.concat([w.hpackInt(1e9, 5, 0x20), w.headerBlock(base())]),
      () => Buffer.concat([w.headerBlock(base()), w.hpackInt(0, 5, 0x20)]),
      () => Buffer.concat([w.headerBlock(base().slice(0, 2)), Buffer.from([0x10, 0x05]), Buffer.from(':pa')]),
    ])();
    return [c.request({ block })];
  },
  'ping flood': (prng, c) => {
    c.send(Buffer.concat(Array.from({ length: prng.int(50, 200) }, () => w.ping(prng.bytes(8)))));
    return [c.request(base())];
  },
  'settings flood': (prng, c) => {
    c.send(Buffer.concat(Array.from({ length: prng.int(50, 200) }, () => w.settingsFrame([[w.SETTING.INITIAL_WINDOW_SIZE, prng.int(0, 65535)]]))));
    return [c.request(base())];
  },
  'rapid reset': (prng, c) => {
    const n = prng.int(50, 300);
    const out = [];
    for (let i = 0; i < n; i += 1) {
      const s = c.request(base('/content/media/chunk-1-00001.m4s'), { timeoutMs: 2000 });
      c.send(w.rstStream(s.id, 8));
      out.push(s);
    }
    return [...out, c.request(base())];
  },
  'CONTINUATION flood': (prng, c) => {
    const block = w.headerBlock(base());
    const parts = [w.frame(w.TYPE.HEADERS, w.FLAG.END_STREAM, 1, block.subarray(0, 1))];
    const n = prng.int(100, 400);
    for (let i = 0; i < n; i += 1) parts.push(w.frame(w.TYPE.CONTINUATION, 0, 1, w.headerBlock([[`x-c${i}`, 'v']])));
    parts.push(w.frame(w.TYPE.CONTINUATION, w.FLAG.END_HEADERS, 1, block.subarray(1)));
    c.send(Buffer.concat(parts));
    c.nextStreamId = 3;
    return [];
  },
  'empty DATA flood': (prng, c) => {
    const s = c.request(base('/content/media/manifest.mpd', 'POST'), { endStream: false });
    c.send(Buffer.concat([...Array.from({ length: prng.int(100, 500) }, () => w.dataFrame(s.id, Buffer.alloc(0))), w.dataFrame(s.id, Buffer.alloc(0), true)]));
    return [s];
  },
  'window-update flood': (prng, c) => {
    c.send(Buffer.concat(Array.from({ length: prng.int(100, 1000) }, () => w.windowUpdate(0, 1))));
    return [c.request(base())];
  },
  'many open streams': (prng, c) => Array.from({ length: prng.int(50, 200) }, () => c.request(base('/content/media/manifest.mpd'))),
};

/** Cases that need more than one raw connection or something other than a good preface. */
const OTHER = {
  'bad preface': async (prng, urls) => {
    const c = await RawH2Connection.open({ port: urls.h2Port, preface: false });
    c.send(prng.pick([Buffer.from('PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n'), Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'), prng.bytes(prng.int(1, 200)), w.settingsFrame([])]));
    return c;
  },
  'ALPN other than h2': async (prng, urls) => {
    try {
      return await RawH2Connection.open({ port: urls.h2Port, alpn: prng.pick([['http/1.1'], [], ['h3', 'spdy/3']]) });
    } catch (err) {
      return { outcome: `tls ${err.code || 'refused'}` };
    }
  },
  'plain TCP garbage to the TLS port': (prng, urls) => new Promise((resolve) => {
    const s = net.connect(urls.h2Port, '127.0.0.1', () => s.write(prng.chance(0.5) ? 'GET / HTTP/1.1\r\n\r\n' : prng.bytes(prng.int(1, 2000))));
    const t = setTimeout(() => s.destroy(), 1000);
    s.on('error', () => {});
    s.on('data', () => {});
    s.on('close', () => {
      clearTimeout(t);
      resolve({ outcome: 'tls garbage' });
    });
  }),
  'node:http2 streams reset at once': (prng, urls) => withSession(urls, async (session) => {
    const reqs = Array.from({ length: prng.int(20, 100) }, () => session.request({ ':path': '/content/big/chunk-2-00001.m4s' }));
    for (const r of reqs) {
      r.on('error', () => {});
      r.close(http2.constants.NGHTTP2_CANCEL);
    }
    return statusOf(session.request({ ':path': '/healthz' }), '/healthz');
  }),
  'node:http2 abandoned large downloads': (prng, urls) => withSession(urls, async (session) => {
    const reqs = Array.from({ length: prng.int(5, 20) }, () => session.request({ ':path': '/content/big/chunk-2-00001.m4s' }));
    for (const r of reqs) r.on('error', () => {});
    await new Promise((r) => setTimeout(r, 100));
    session.destroy();
    return { outcome: 'abandoned' };
  }, { initialWindowSize: 65535 }),
  'node:http2 large header list': (prng, urls) => withSession(urls, async (session) => {
    const headers = { ':path': '/healthz' };
    for (let i = 0; i < prng.int(50, 120); i += 1) headers[`x-n${i}`] = 'v'.repeat(prng.int(10, 600));
    return statusOf(session.request(headers), '/healthz');
  }, { maxSendHeaderBlockLength: 1 << 20 }),
};

function withSession(urls, fn, settings = {}) {
  return new Promise((resolve) => {
    const session = http2.connect(urls.h2, { rejectUnauthorized: false, settings, maxSendHeaderBlockLength: settings.maxSendHeaderBlockLength });
    session.on('error', () => {});
    const t = setTimeout(() => {
      session.destroy();
      resolve({ outcome: 'session timeout' });
    }, 5000);
    session.once('connect', async () => {
      try {
        const r = await fn(session);
        resolve(r);
      } catch (err) {
        resolve({ outcome: `client ${err.code || err.message}` });
      } finally {
        clearTimeout(t);
        if (!session.destroyed) session.close();
      }
    });
    session.once('close', () => {
      clearTimeout(t);
      resolve({ outcome: 'session closed' });
    });
  });
}

function statusOf(req, path) {
  return new Promise((resolve) => {
    let status = null;
    const chunks = [];
    req.on('response', (h) => { status = h[':status']; });
    req.on('data', (c) => chunks.push(c));
    req.on('error', (err) => resolve({ outcome: `stream ${err.code || err.message}` }));
    req.on('close', () => resolve({ status, path, body: Buffer.concat(chunks) }));
    req.end();
  });
}

/**
 * Known case first: connections the origin ended with a GOAWAY (a connection error), then left
 * by the client. The origin must let go of each socket (it once held them, in CLOSE-WAIT, until
 * its 60 s session timeout).
 */
async function goawayThenLeave(urls, rec) {
  const errors = [
    () => w.frame(w.TYPE.SETTINGS, 0, 0, Buffer.alloc(5)),
    () => w.frame(w.TYPE.PING, 0, 0, Buffer.alloc(7)),
    () => w.windowUpdate(0, 0),
    () => w.frame(w.TYPE.CONTINUATION, w.FLAG.END_HEADERS, 1, w.headerBlock(base())),
    () => w.dataFrame(0, Buffer.from('x')),
  ];
  for (let i = 0; i < 10; i += 1) {
    rec.case();
    const c = await RawH2Connection.open({ port: urls.h2Port });
    c.send(errors[i % errors.length]());
    await c.quiet(100, 2000);
    rec.see(c.goaway ? `goaway ${c.goaway.error}` : c.closed ? 'closed' : 'no answer');
    await (i % 2 ? c.close() : c.destroy());
  }
}

async function run(ctx) {
  const { prng, urls, rec } = ctx;
  await goawayThenLeave(urls, rec);
  const rawNames = Object.keys(RAW);
  const otherNames = Object.keys(OTHER);
  const cases = Array.from({ length: ctx.count }, (_, i) => (i < rawNames.length ? rawNames[i] : i < rawNames.length + otherNames.length ? otherNames[i - rawNames.length] : prng.chance(0.85) ? prng.pick(rawNames) : prng.pick(otherNames)));
  const seeds = cases.map(() => prng.int(1, 2 ** 31));
  await runPool(cases.length, ctx.concurrency, async (i) => {
    const name = cases[i];
    const p = createPrng(seeds[i]);
    rec.case();
    const record = (status, body, path) => {
      rec.status(status, { channel: 'http', path, body, what: `h2 case "${name}" (#${i})${path === undefined ? '' : ` :path ${JSON.stringify(path.slice(0, 80))}`}` });
      if (body) rec.scan(body, `h2 case "${name}" (#${i})`);
    };
    if (RAW[name]) {
      let conn;
      try {
        conn = await RawH2Connection.open({ port: urls.h2Port });
      } catch (err) {
        rec.see(`connect ${err.code || err.message}`);
        return;
      }
      try {
        const streams = RAW[name](p, conn);
        const answers = await Promise.all(streams.map((s) => s.done));
        for (const a of answers) {
          if (a.status !== null) record(a.status, a.body, a.path);
          else if (a.rstCode !== null) rec.see(`rst ${w.errorName(a.rstCode)}`);
        }
        await conn.quiet(150, 2000);
        if (conn.goaway) rec.see(`goaway ${conn.goaway.error}`);
        else if (conn.closed) rec.see('closed');
        rec.scan(conn.dataBytes(), `h2 case "${name}" (#${i})`);
      } finally {
        await conn.destroy();
      }
      return;
    }
    const r = await OTHER[name](p, urls);
    if (r instanceof RawH2Connection) {
      await r.quiet(150, 2000);
      rec.see(r.goaway ? `goaway ${r.goaway.error}` : r.closed ? 'closed' : 'no answer');
      rec.scan(r.dataBytes(), `h2 case "${name}"`);
      await r.destroy();
    } else if (r.status !== undefined) {
      if (r.status === null) rec.see('none');
      else record(r.status, r.body, r.path);
    } else rec.see(r.outcome);
  }, ctx.shouldStop);
}

module.exports = {
  name: 'h2',
  title: 'HTTP/2 oddities (raw frames, node:http2)',
  targets: ['h2'],
  defaultCount: 300,
  run,
};
