'use strict';
// The origin's three listeners with real clients: node:http (HTTP/1.0-style and 1.1),
// node:http2 (h2 over TLS) and raw node:net / node:tls sockets for requests a client library
// would refuse or normalise.
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const http2 = require('node:http2');
const net = require('node:net');
const tls = require('node:tls');
const crypto = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { startOrigin } = require('../../origin/start-origin');
const { ensureCertificate } = require('../../origin/tls-certificate');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

let tmp;
let contentDir;
let origin;
const log = [];
const SEGMENT = crypto.randomBytes(200 * 1024);
const SEGMENT_PATH = '/content/demo/chunk-0-00001.m4s';
const SECRET = 'outside-the-root-secret';
const PLAYER_HTML = '<!doctype html><title>player</title><script src="player.js"></script>';

beforeAll(async () => {
  tmp = makeLabTempDir('origin');
  contentDir = path.join(tmp, 'content');
  const demo = path.join(contentDir, 'demo');
  fs.mkdirSync(demo, { recursive: true });
  fs.writeFileSync(path.join(demo, 'chunk-0-00001.m4s'), SEGMENT);
  fs.writeFileSync(path.join(demo, 'init-0.m4s'), SEGMENT.subarray(0, 800));
  fs.writeFileSync(path.join(demo, 'manifest.mpd'), '<?xml version="1.0"?><MPD/>');
  fs.writeFileSync(path.join(demo, 'index.json'), '{"version":1}');
  fs.writeFileSync(path.join(demo, 'content.json'), '{"preset":"demo"}');
  fs.writeFileSync(path.join(tmp, 'secret.txt'), SECRET);
  fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(demo, 'link.m4s'));
  const playerDir = path.join(tmp, 'player');
  fs.mkdirSync(playerDir);
  fs.writeFileSync(path.join(playerDir, 'index.html'), PLAYER_HTML);
  fs.writeFileSync(path.join(playerDir, 'player.js'), 'console.log(1);\n');
  origin = await startOrigin({
    http11Port: 0,
    http10Port: 0,
    h2Port: 0,
    contentDir,
    playerDir,
    dataDir: path.join(tmp, 'data'),
    logFile: path.join(tmp, 'requests.ndjson'),
    log: (e) => log.push(e),
  });
});

afterAll(async () => {
  if (origin) await origin.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** node:http request; resolves with status, headers, body and the local port (= which socket). */
function h1(url, { method = 'GET', headers = {}, agent } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), localPort: req.socket.localPort }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function connectH2() {
  const session = http2.connect(origin.urls.h2, { ca: fs.readFileSync(origin.certFile), servername: 'localhost' });
  return new Promise((resolve, reject) => {
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

function h2(session, p, headers = {}) {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': p, ...headers });
    const chunks = [];
    let head;
    stream.on('response', (h) => {
      head = h;
    });
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => resolve({ status: head[':status'], headers: head, body: Buffer.concat(chunks), streamId: stream.id }));
    stream.on('error', reject);
    stream.end();
  });
}

/**
 * Sends bytes on a raw TCP connection; resolves with everything the server answered and
 * whether the server ended the connection itself (rather than our 3 s timeout).
 */
function raw(url, text, { timeoutMs = 3000 } = {}) {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    const chunks = [];
    const answer = (serverClosed) => resolve({ text: Buffer.concat(chunks).toString('latin1'), serverClosed });
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => answer(true));
    socket.on('error', reject);
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      answer(false);
    });
  });
}

const statusOf = (rawAnswer) => Number(rawAnswer.split(' ')[1]);

describe('HTTP/1.1 listener', () => {
  test('keep-alive: two requests share one TCP connection, bytes and headers right', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const a = await h1(`${origin.urls.http11}${SEGMENT_PATH}`, { agent });
      const b = await h1(`${origin.urls.http11}/content/demo/manifest.mpd`, { agent });
      expect(a.status).toBe(200);
      expect(a.body.equals(SEGMENT)).toBe(true);
      expect(a.headers['content-type']).toBe('video/iso.segment');
      expect(a.headers['content-length']).toBe(String(SEGMENT.length));
      expect(a.headers['accept-ranges']).toBe('bytes');
      expect(a.headers['access-control-allow-origin']).toBe('*');
      expect(a.headers['access-control-expose-headers']).toMatch(/Content-Range/);
      expect(a.headers['timing-allow-origin']).toBe('*');
      expect(a.headers['cache-control']).toBe('public, max-age=300');
      expect(a.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      expect(a.headers['last-modified']).toMatch(/GMT$/);
      expect(a.headers.connection).toBe('keep-alive');
      expect(b.headers['content-type']).toBe('application/dash+xml');
      expect(b.headers['cache-control']).toBe('no-cache');
      expect(b.localPort).toBe(a.localPort);
    } finally {
      agent.destroy();
    }
  });

  test('the server itself keeps the connection: two pipelined requests on one raw socket', async () => {
    const req = (p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const { text, serverClosed } = await raw(origin.urls.http11, req('/healthz') + req('/content/demo/index.json'), { timeoutMs: 1000 });
    expect(text.match(/^HTTP\/1\.1 200 /gm)).toHaveLength(2);
    expect(text).toContain('{"version":1}');
    expect(serverClosed).toBe(false);
  });

  test('content types', async () => {
    const typeOf = async (p) => (await h1(`${origin.urls.http11}${p}`)).headers['content-type'];
    expect(await typeOf('/content/demo/index.json')).toBe('application/json; charset=utf-8');
    expect(await typeOf('/content/demo/init-0.m4s')).toBe('video/iso.segment');
    expect(await typeOf('/')).toBe('text/html; charset=utf-8');
    expect(await typeOf('/player.js')).toBe('text/javascript; charset=utf-8');
  });

  test('byte ranges: 206 with the right bytes, 416 past the end, whole file for multi-range', async () => {
    const url = `${origin.urls.http11}${SEGMENT_PATH}`;
    const r = await h1(url, { headers: { Range: 'bytes=1000-1999' } });
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 1000-1999/${SEGMENT.length}`);
    expect(r.headers['content-length']).toBe('1000');
    expect(r.body.equals(SEGMENT.subarray(1000, 2000))).toBe(true);
    const open = await h1(url, { headers: { Range: `bytes=${SEGMENT.length - 5}-` } });
    expect(open.status).toBe(206);
    expect(open.body.equals(SEGMENT.subarray(SEGMENT.length - 5))).toBe(true);
    const suffix = await h1(url, { headers: { Range: 'bytes=-10' } });
    expect(suffix.headers['content-range']).toBe(`bytes ${SEGMENT.length - 10}-${SEGMENT.length - 1}/${SEGMENT.length}`);
    expect(suffix.body.equals(SEGMENT.subarray(SEGMENT.length - 10))).toBe(true);
    const bad = await h1(url, { headers: { Range: `bytes=${SEGMENT.length}-` } });
    expect(bad.status).toBe(416);
    expect(bad.headers['content-range']).toBe(`bytes */${SEGMENT.length}`);
    expect(bad.headers['cache-control']).toBe('no-store');
    const multi = await h1(url, { headers: { Range: 'bytes=0-1,5-6' } });
    expect(multi.status).toBe(200);
    expect(multi.body.equals(SEGMENT)).toBe(true);
    const garbage = await h1(url, { headers: { Range: 'bytes=abc' } });
    expect(garbage.status).toBe(200);
  });

  test('HEAD, conditional requests, If-Range, OPTIONS preflight, other methods', async () => {
    const url = `${origin.urls.http11}${SEGMENT_PATH}`;
    const head = await h1(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(SEGMENT.length));
    const again = await h1(url, { headers: { 'If-None-Match': head.headers.etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(head.headers.etag);
    const weak = await h1(url, { headers: { 'If-None-Match': `"other", W/${head.headers.etag}` } });
    expect(weak.status).toBe(304);
    const changed = await h1(url, { headers: { 'If-None-Match': '"other"' } });
    expect(changed.status).toBe(200);
    const since = await h1(url, { headers: { 'If-Modified-Since': head.headers['last-modified'] } });
    expect(since.status).toBe(304);
    const older = await h1(url, { headers: { 'If-Modified-Since': new Date(0).toUTCString() } });
    expect(older.status).toBe(200);
    const current = await h1(url, { headers: { 'If-Range': head.headers.etag, Range: 'bytes=0-9' } });
    expect(current.status).toBe(206);
    const byDate = await h1(url, { headers: { 'If-Range': head.headers['last-modified'], Range: 'bytes=0-9' } });
    expect(byDate.status).toBe(206);
    const stale = await h1(url, { headers: { 'If-Range': '"old"', Range: 'bytes=0-9' } });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(SEGMENT.length);
    const pre = await h1(url, { method: 'OPTIONS', headers: { Origin: 'http://x', 'Access-Control-Request-Headers': 'range' } });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-headers']).toMatch(/Range/);
    expect(pre.headers['access-control-allow-methods']).toMatch(/GET/);
    const post = await h1(url, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  test('routes: page at / and /player/, vendor dash.js, /api/info, /healthz, 404s', async () => {
    const base = origin.urls.http11;
    expect((await h1(`${base}/`)).body.toString()).toBe(PLAYER_HTML);
    expect((await h1(`${base}/?mpd=/content/demo/manifest.mpd`)).body.toString()).toBe(PLAYER_HTML);
    expect((await h1(`${base}/player/`)).body.toString()).toBe(PLAYER_HTML);
    expect((await h1(`${base}/player/player.js`)).status).toBe(200);
    const redirect = await h1(`${base}/player`);
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/player/');
    expect((await h1(`${base}/healthz`)).body.toString()).toBe('ok\n');
    expect((await h1(`${base}/content/demo/nope.m4s`)).status).toBe(404);
    expect((await h1(`${base}/content/demo/`)).status).toBe(404);
    expect((await h1(`${base}/content/demo`)).status).toBe(404);
    expect((await h1(`${base}/nothing-here`)).status).toBe(404);
    const info = JSON.parse((await h1(`${base}/api/info`)).body);
    expect(info.urls).toEqual(origin.urls);
    expect(info.spkiSha256).toBe(origin.spkiSha256);
    expect(info.certSha256Hex).toBe(origin.certSha256Hex);
    expect(info.requestProtocol).toBe('http/1.1');
    expect(info.content.map((c) => c.name)).toEqual(['demo']);
    const vendor = await h1(`${base}/vendor/dash.all.min.js`);
    expect(vendor.status).toBe(200);
    expect(vendor.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const published = fs.readFileSync(path.join(path.dirname(require.resolve('dashjs')), 'dash.all.min.js'));
    expect(vendor.body.equals(published)).toBe(true);
  });

  test('an absolute-form request target is served like its path (RFC 9112 §3.2.2)', async () => {
    const { text } = await raw(origin.urls.http11, 'GET http://elsewhere.example/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text.endsWith('ok\n')).toBe(true);
  });

  test('a player page that is not built answers 503 saying how to build it', async () => {
    const other = await startOrigin({
      http11Port: 0,
      http10Port: 0,
      h2Port: 0,
      contentDir,
      playerDir: path.join(tmp, 'not-built'),
      dataDir: path.join(tmp, 'data'),
    });
    try {
      const page = await h1(`${other.urls.http11}/`);
      expect(page.status).toBe(503);
      expect(page.body.toString()).toMatch(/npm run build/);
      // The rest of the origin does not depend on the page.
      expect((await h1(`${other.urls.http11}${SEGMENT_PATH}`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('HTTP/1.0-style listener', () => {
  test('every response closes its connection: two requests, two TCP connections', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const a = await h1(`${origin.urls.http10}${SEGMENT_PATH}`, { agent });
      const b = await h1(`${origin.urls.http10}${SEGMENT_PATH}`, { agent, headers: { Range: 'bytes=0-99' } });
      expect(a.headers.connection).toBe('close');
      expect(a.body.equals(SEGMENT)).toBe(true);
      expect(b.status).toBe(206);
      expect(b.body.equals(SEGMENT.subarray(0, 100))).toBe(true);
      expect(b.localPort).not.toBe(a.localPort);
    } finally {
      agent.destroy();
    }
  });

  test('the server closes the socket even when the client asks to keep it', async () => {
    const keepAlive = await raw(origin.urls.http10, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    expect(keepAlive.serverClosed).toBe(true);
    expect(keepAlive.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(keepAlive.text).toMatch(/\r\nConnection: close\r\n/i);
    // A second pipelined request on the same connection is never answered.
    const twice = await raw(origin.urls.http10, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(twice.serverClosed).toBe(true);
    expect(twice.text.match(/^HTTP\/1\.1 200 /gm)).toHaveLength(1);
    const real10 = await raw(origin.urls.http10, 'GET /content/demo/index.json HTTP/1.0\r\n\r\n');
    expect(real10.serverClosed).toBe(true);
    expect(real10.text).toMatch(/^HTTP\/1\.1 200 [^]*\{"version":1\}$/);
  });
});

describe('HTTP/2 listener', () => {
  let session;
  beforeAll(async () => {
    session = await connectH2();
  });
  afterAll(() => session && session.close());

  test('negotiates h2 and serves the same bytes and headers', async () => {
    expect(session.alpnProtocol).toBe('h2');
    const a = await h2(session, SEGMENT_PATH);
    expect(a.status).toBe(200);
    expect(a.body.equals(SEGMENT)).toBe(true);
    expect(a.headers['content-type']).toBe('video/iso.segment');
    expect(a.headers['content-length']).toBe(String(SEGMENT.length));
    expect(a.headers['access-control-allow-origin']).toBe('*');
    expect(a.headers['accept-ranges']).toBe('bytes');
    const mpd = await h2(session, '/content/demo/manifest.mpd');
    expect(mpd.headers['content-type']).toBe('application/dash+xml');
    const info = JSON.parse((await h2(session, '/api/info')).body);
    expect(info.requestProtocol).toBe('h2');
  });

  test('ranges, 416, HEAD, 304, preflight and 405 on h2', async () => {
    const r = await h2(session, SEGMENT_PATH, { range: 'bytes=100-199' });
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 100-199/${SEGMENT.length}`);
    expect(r.body.equals(SEGMENT.subarray(100, 200))).toBe(true);
    const bad = await h2(session, SEGMENT_PATH, { range: 'bytes=999999999-' });
    expect(bad.status).toBe(416);
    expect(bad.headers['content-range']).toBe(`bytes */${SEGMENT.length}`);
    const head = await h2(session, SEGMENT_PATH, { ':method': 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(SEGMENT.length));
    const cached = await h2(session, SEGMENT_PATH, { 'if-none-match': head.headers.etag });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    const pre = await h2(session, SEGMENT_PATH, { ':method': 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-methods']).toMatch(/HEAD/);
    const del = await h2(session, SEGMENT_PATH, { ':method': 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  test('concurrent streams are multiplexed on one session', async () => {
    const answers = await Promise.all([0, 1, 2, 3, 4].map(() => h2(session, SEGMENT_PATH)));
    expect(answers.every((a) => a.body.equals(SEGMENT))).toBe(true);
    expect(new Set(answers.map((a) => a.streamId)).size).toBe(5);
  });

  test('a client without h2 (HTTP/1.1 over TLS) is refused, not silently downgraded', async () => {
    const https = require('node:https');
    const attempt = new Promise((resolve, reject) => {
      const req = https.get(`${origin.urls.h2}/healthz`, { rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
    });
    await expect(attempt).rejects.toThrow();
  });

  test('junk on the TLS port, before and after the handshake, does not hurt the server', async () => {
    // Plain text where a TLS ClientHello should be.
    await raw(origin.urls.h2, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', { timeoutMs: 2000 });
    // A proper TLS + ALPN h2 handshake, then bytes that are not HTTP/2 frames.
    const { port } = new URL(origin.urls.h2);
    await new Promise((resolve) => {
      const socket = tls.connect({ port: Number(port), host: '127.0.0.1', ALPNProtocols: ['h2'], rejectUnauthorized: false }, () => {
        expect(socket.alpnProtocol).toBe('h2');
        socket.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n' + '\u00ff'.repeat(64));
      });
      socket.on('error', () => {});
      socket.on('close', resolve);
      socket.resume();
      setTimeout(() => socket.destroy(), 3000);
    });
    const fresh = await connectH2();
    try {
      expect((await h2(fresh, '/healthz')).status).toBe(200);
    } finally {
      fresh.close();
    }
  });
});

describe('path safety: nothing outside the root, ever', () => {
  const attacks = [
    '/content/../../etc/passwd',
    '/content/../secret.txt',
    '/content/demo/../../secret.txt',
    '/content/%2e%2e/secret.txt',
    '/content/%2E%2E/%2E%2E/etc/passwd',
    '/content/demo/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/content/..%2fsecret.txt',
    '/content/%252e%252e/secret.txt',
    '/content/%252e%252e%252fsecret.txt',
    '/content/..%5csecret.txt',
    '/content/..\\secret.txt',
    '/content/demo/manifest.mpd%00',
    '/content/demo/manifest.mpd%00.m4s',
    '/content/demo/link.m4s',
    '/content//etc/passwd',
    '/content/%2fetc%2fpasswd',
    '/content/%c0%ae%c0%ae/secret.txt',
    `/content/${'a/'.repeat(2000)}x`,
    '/../../../../etc/passwd',
    '/vendor/../../package.json',
    '/vendor/%2e%2e/%2e%2e/%2e%2e/package.json',
    '/player/../secret.txt',
  ];
  const refused = (status, body) => {
    expect([400, 404, 414]).toContain(status);
    expect(body).not.toContain(SECRET);
    expect(body).not.toContain('root:');
    expect(body).not.toContain('"dependencies"');
  };

  // Test names stay readable for the very long one.
  const named = attacks.map((p) => [p.length > 80 ? `${p.slice(0, 40)}... (${p.length} chars)` : p, p]);

  test.each(named)('raw HTTP/1.1: %s', async (_name, p) => {
    const { text } = await raw(origin.urls.http11, `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    refused(statusOf(text), text);
  });

  test.each(named)('raw HTTP/1.0-style: %s', async (_name, p) => {
    const { text } = await raw(origin.urls.http10, `GET ${p} HTTP/1.0\r\n\r\n`);
    refused(statusOf(text), text);
  });

  test('the same list over h2 (the client sends :path untouched)', async () => {
    const session = await connectH2();
    try {
      for (const p of attacks) {
        const answer = await h2(session, p);
        refused(answer.status, answer.body.toString('latin1'));
      }
    } finally {
      session.close();
    }
  });

  test('a symlink that stays inside the root is served', async () => {
    const inside = path.join(contentDir, 'demo', 'alias.mpd');
    fs.symlinkSync(path.join(contentDir, 'demo', 'manifest.mpd'), inside);
    try {
      expect((await h1(`${origin.urls.http11}/content/demo/alias.mpd`)).status).toBe(200);
    } finally {
      fs.rmSync(inside);
    }
  });
});

describe('malformed requests', () => {
  const junk = [
    'GARBAGE\r\n\r\n',
    'GET /x HTTP/9.9\r\n\r\n',
    'GET\r\n\r\n',
    '\u0000\u0001\u0002\r\n\r\n',
    'GET /x HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
    'GET /x HTTP/1.1\r\nBad Header Line\r\n\r\n',
    'GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n',
  ];
  test.each(['http11', 'http10'])('get 400 on %s and the server keeps serving', async (listener) => {
    for (const text of junk) {
      const answer = await raw(origin.urls[listener], text);
      expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer.serverClosed).toBe(true);
    }
    const huge = await raw(origin.urls[listener], `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`);
    expect(huge.text).toMatch(/^HTTP\/1\.1 431 /);
    // A request line that is not an absolute path reaches the router and is refused there.
    const relative = await raw(origin.urls[listener], 'GET relative/path HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(relative.text).toMatch(/^HTTP\/1\.1 400 /);
    expect((await h1(`${origin.urls[listener]}/healthz`)).status).toBe(200);
  });
});

describe('request log', () => {
  test('one NDJSON line per response with protocol, connection, stream, bytes and status', async () => {
    const before = log.length;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await h1(`${origin.urls.http11}${SEGMENT_PATH}`, { agent, headers: { Range: 'bytes=0-1023' } });
      await h1(`${origin.urls.http11}/content/demo/init-0.m4s`, { agent });
      await h1(`${origin.urls.http10}/content/demo/init-0.m4s`, { agent });
      await h1(`${origin.urls.http10}/content/demo/init-0.m4s`, { agent, method: 'HEAD' });
    } finally {
      agent.destroy();
    }
    const session = await connectH2();
    try {
      await h2(session, '/content/demo/init-0.m4s');
      await h2(session, SEGMENT_PATH, { range: 'bytes=10-19' });
    } finally {
      session.close();
    }
    await raw(origin.urls.http11, 'GARBAGE\r\n\r\n');

    const entries = log.slice(before);
    expect(entries).toHaveLength(7);
    const [h11a, h11b, h10a, h10b, h2a, h2b, rejected] = entries;
    expect(h11a).toMatchObject({
      protocol: 'http/1.1',
      listener: 'http11',
      streamId: null,
      method: 'GET',
      path: SEGMENT_PATH,
      range: 'bytes=0-1023',
      status: 206,
      bytes: 1024,
      aborted: false,
    });
    expect(Date.parse(h11a.time)).not.toBeNaN();
    expect(h11a.durationMs).toBeGreaterThanOrEqual(0);
    expect(h11b).toMatchObject({ status: 200, bytes: 800, range: null });
    expect(h11b.connectionId).toBe(h11a.connectionId);
    // The client's address, per connection (a network switch shows as a new one).
    expect(h11a.peer).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(h11b.peer).toBe(h11a.peer);

    expect(h10a).toMatchObject({ listener: 'http10', status: 200, bytes: 800 });
    expect(h10b).toMatchObject({ listener: 'http10', method: 'HEAD', status: 200, bytes: 0 });
    expect(h10b.connectionId).not.toBe(h10a.connectionId);
    expect(h10a.connectionId).not.toBe(h11a.connectionId);

    expect(h2a).toMatchObject({ protocol: 'h2', listener: 'h2', status: 200, bytes: 800 });
    expect(h2a.peer).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(h2b).toMatchObject({ protocol: 'h2', status: 206, bytes: 10, range: 'bytes=10-19' });
    expect(h2b.connectionId).toBe(h2a.connectionId);
    expect(Number.isInteger(h2a.streamId) && Number.isInteger(h2b.streamId)).toBe(true);
    expect(h2b.streamId).not.toBe(h2a.streamId);

    expect(rejected).toMatchObject({ listener: 'http11', status: 400, method: null, bytes: 0 });
    // Every line carries the machine's monotonic clock too (what the runner lines network
    // switches up with), in the order the requests came.
    const monos = entries.map((e) => e.mono);
    expect(monos.every((m) => typeof m === 'number')).toBe(true);
    expect([...monos].sort((a, b) => a - b)).toEqual(monos);

    // The file on disk holds exactly the lines the sink saw.
    await origin.flushLog();
    const lines = fs.readFileSync(origin.logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual(log);
  });

  test('an HTTP/1.1 client that hangs up mid-response is logged as aborted; the server carries on', async () => {
    const big = path.join(contentDir, 'demo', 'big.m4s');
    fs.writeFileSync(big, Buffer.alloc(32 * 1024 * 1024, 7));
    await new Promise((resolve) => {
      const req = http.get(`${origin.urls.http11}/content/demo/big.m4s`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
    });
    const entry = await waitForLogEntry((e) => e.path === '/content/demo/big.m4s' && e.protocol === 'http/1.1');
    expect(entry.aborted).toBe(true);
    expect(entry.status).toBe(200);
    expect(entry.bytes).toBeGreaterThan(0);
    expect(entry.bytes).toBeLessThan(32 * 1024 * 1024);
    expect((await h1(`${origin.urls.http11}/healthz`)).status).toBe(200);
  });

  test('an h2 stream reset mid-response is logged as aborted; the session carries on', async () => {
    const session = await connectH2();
    try {
      await new Promise((resolve) => {
        const stream = session.request({ ':path': '/content/demo/big.m4s' });
        stream.on('error', () => {});
        stream.once('data', () => {
          stream.close(http2.constants.NGHTTP2_CANCEL);
          resolve();
        });
      });
      const entry = await waitForLogEntry((e) => e.path === '/content/demo/big.m4s' && e.protocol === 'h2');
      expect(entry.aborted).toBe(true);
      expect(entry.bytes).toBeLessThan(32 * 1024 * 1024);
      expect((await h2(session, '/healthz')).status).toBe(200);
    } finally {
      session.close();
    }
  });
});

describe('TLS certificate', () => {
  test('ECDSA P-256, 13 days, for 127.0.0.1, ::1 and localhost; the h2 listener presents it', async () => {
    const x509 = new crypto.X509Certificate(fs.readFileSync(origin.certFile));
    expect(x509.publicKey.asymmetricKeyType).toBe('ec');
    expect(x509.publicKey.asymmetricKeyDetails.namedCurve).toBe('prime256v1');
    const validity = Date.parse(x509.validTo) - Date.parse(x509.validFrom);
    expect(validity).toBe(13 * 24 * 3600 * 1000);
    expect(x509.subjectAltName.split(', ').sort()).toEqual(['DNS:localhost', 'IP Address:0:0:0:0:0:0:0:1', 'IP Address:127.0.0.1']);
    const session = await connectH2();
    try {
      const presented = session.socket.getPeerCertificate().raw;
      expect(crypto.createHash('sha256').update(presented).digest('hex')).toBe(origin.certSha256Hex);
    } finally {
      session.close();
    }
  });

  test('the hashes agree with openssl and X509Certificate.fingerprint256', () => {
    const der = spawnSync('sh', ['-c', `openssl x509 -in "${origin.certFile}" -pubkey -noout | openssl pkey -pubin -outform der`]);
    expect(der.status).toBe(0);
    expect(crypto.createHash('sha256').update(der.stdout).digest('base64')).toBe(origin.spkiSha256);
    const x509 = new crypto.X509Certificate(fs.readFileSync(origin.certFile));
    expect(x509.fingerprint256.replace(/:/g, '').toLowerCase()).toBe(origin.certSha256Hex);
    expect(origin.certSha256.toString('hex')).toBe(origin.certSha256Hex);
  });

  test('kept while good; made anew when expiring, unreadable or not matching its key', () => {
    const dataDir = fs.mkdtempSync(path.join(tmp, 'tls-'));
    const first = ensureCertificate(dataDir);
    expect(first.generated).toBe(true);
    const kept = ensureCertificate(dataDir);
    expect(kept.generated).toBe(false);
    expect(kept.certSha256Hex).toBe(first.certSha256Hex);

    const expiring = ensureCertificate(dataDir, { now: kept.validTo.getTime() - 12 * 3600 * 1000 });
    expect(expiring.renewReason).toBe('expires within a day');
    expect(expiring.certSha256Hex).not.toBe(kept.certSha256Hex);

    fs.writeFileSync(expiring.certFile, 'not a certificate');
    const unreadable = ensureCertificate(dataDir);
    expect(unreadable.renewReason).toMatch(/^unreadable/);

    fs.writeFileSync(unreadable.keyFile, crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const mismatched = ensureCertificate(dataDir);
    expect(mismatched.renewReason).toBe('key does not match certificate');
    expect(ensureCertificate(dataDir).generated).toBe(false);
    // No temporary files left next to the pair.
    expect(fs.readdirSync(path.join(dataDir, 'tls')).sort()).toEqual(['origin-cert.pem', 'origin-key.pem']);
  });

  test('without openssl the error says what is missing', () => {
    const dataDir = path.join(tmp, 'no-openssl');
    const script = `try { require(${JSON.stringify(require.resolve('../../origin/tls-certificate'))}).ensureCertificate(${JSON.stringify(dataDir)}); } catch (e) { process.stdout.write(e.message); process.exit(3); }`;
    const r = spawnSync(process.execPath, ['-e', script], { env: { PATH: path.join(tmp, 'empty-path') }, encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/^openssl not found.*apt-get install openssl/);
  });
});

async function waitForLogEntry(predicate, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const entry = log.filter(predicate).pop();
    if (entry) return entry;
    if (Date.now() > deadline) throw new Error('no such log entry');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// A real (tiny) DASH set, encoded by ffmpeg as the content pipeline does, served byte for byte
// the same over the three listeners.
describe('a real DASH set over the three listeners', () => {
  const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
  (hasFfmpeg ? test : test.skip)('every file identical over HTTP/1.1, HTTP/1.0-style and h2', async () => {
    const dir = path.join(contentDir, 'real');
    fs.mkdirSync(dir);
    const ff = spawnSync(
      'ffmpeg',
      [
        '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30:duration=4',
        '-c:v', 'libx264', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-x264-params', 'keyint=60:min-keyint=60:scenecut=0',
        '-f', 'dash', '-seg_duration', '2', '-use_template', '1', '-use_timeline', '0',
        '-init_seg_name', 'init-$RepresentationID$.m4s', '-media_seg_name', 'chunk-$RepresentationID$-$Number%05d$.m4s',
        'manifest.mpd',
      ],
      { cwd: dir, encoding: 'utf8', timeout: 60000 },
    );
    expect(ff.stderr).toBe('');
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual(expect.arrayContaining(['manifest.mpd', 'init-0.m4s', 'chunk-0-00001.m4s', 'chunk-0-00002.m4s']));
    const session = await connectH2();
    try {
      for (const name of files) {
        const expected = fs.readFileSync(path.join(dir, name));
        const p = `/content/real/${name}`;
        const answers = [await h1(`${origin.urls.http11}${p}`), await h1(`${origin.urls.http10}${p}`), await h2(session, p)];
        for (const a of answers) {
          expect(a.status).toBe(200);
          expect(a.body.equals(expected)).toBe(true);
          expect(a.headers['content-type']).toBe(name.endsWith('.mpd') ? 'application/dash+xml' : 'video/iso.segment');
        }
      }
    } finally {
      session.close();
    }
  });
});
