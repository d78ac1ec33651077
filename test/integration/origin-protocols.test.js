'use strict';
// The origin's three listeners with real clients: node:http (HTTP/1.0-style and 1.1),
// node:http2 (h2 over TLS) and raw node:net sockets for requests a client library would
// refuse to send.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const http2 = require('node:http2');
const net = require('node:net');
const crypto = require('node:crypto');
const { startOrigin } = require('../../origin/start-origin');

let tmp;
let origin;
const log = [];
const SEGMENT = crypto.randomBytes(200 * 1024);
const SECRET = 'outside-the-root-secret';

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-origin-'));
  const content = path.join(tmp, 'content');
  fs.mkdirSync(path.join(content, 'demo'), { recursive: true });
  fs.writeFileSync(path.join(content, 'demo', 'chunk-0-00001.m4s'), SEGMENT);
  fs.writeFileSync(path.join(content, 'demo', 'init-0.m4s'), SEGMENT.subarray(0, 800));
  fs.writeFileSync(path.join(content, 'demo', 'manifest.mpd'), '<?xml version="1.0"?><MPD/>');
  fs.writeFileSync(path.join(content, 'demo', 'index.json'), '{"version":1}');
  fs.writeFileSync(path.join(tmp, 'secret.txt'), SECRET);
  fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(content, 'demo', 'link.m4s'));
  origin = await startOrigin({
    http11Port: 0, http10Port: 0, h2Port: 0,
    contentDir: content, dataDir: path.join(tmp, 'data'), logFile: path.join(tmp, 'requests.ndjson'),
    log: (e) => log.push(e),
  });
});

afterAll(async () => {
  if (origin) await origin.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** node:http request; resolves with status, headers, body and the local port (= which socket). */
function h1(url, { method = 'GET', headers = {}, agent } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), localPort: req.socket.localPort, httpVersion: res.httpVersion }));
    });
    req.on('error', reject);
    req.end();
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
    stream.on('end', () => resolve({ status: head[':status'], headers: head, body: Buffer.concat(chunks) }));
    stream.on('error', reject);
    stream.end();
  });
}

/** Sends bytes on a raw TCP connection and returns everything the server answers. */
function raw(url, text) {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    const chunks = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(5000, () => {
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}

describe('HTTP/1.1 listener', () => {
  test('keep-alive: two requests share one TCP connection, bytes and headers right', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const a = await h1(`${origin.urls.http11}/content/demo/chunk-0-00001.m4s`, { agent });
      const b = await h1(`${origin.urls.http11}/content/demo/manifest.mpd`, { agent });
      expect(a.status).toBe(200);
      expect(a.body.equals(SEGMENT)).toBe(true);
      expect(a.headers['content-type']).toBe('video/iso.segment');
      expect(a.headers['content-length']).toBe(String(SEGMENT.length));
      expect(a.headers['accept-ranges']).toBe('bytes');
      expect(a.headers['access-control-allow-origin']).toBe('*');
      expect(a.headers['timing-allow-origin']).toBe('*');
      expect(a.headers['cache-control']).toMatch(/max-age=\d+/);
      expect(a.headers.connection).toBe('keep-alive');
      expect(b.headers['content-type']).toBe('application/dash+xml');
      expect(b.headers['cache-control']).toBe('no-cache');
      expect(b.localPort).toBe(a.localPort);
    } finally {
      agent.destroy();
    }
  });

  test('byte ranges: 206 with the right bytes, 416 past the end, whole file for multi-range', async () => {
    const url = `${origin.urls.http11}/content/demo/chunk-0-00001.m4s`;
    const r = await h1(url, { headers: { Range: 'bytes=1000-1999' } });
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 1000-1999/${SEGMENT.length}`);
    expect(r.body.equals(SEGMENT.subarray(1000, 2000))).toBe(true);
    const suffix = await h1(url, { headers: { Range: 'bytes=-10' } });
    expect(suffix.body.equals(SEGMENT.subarray(SEGMENT.length - 10))).toBe(true);
    const bad = await h1(url, { headers: { Range: `bytes=${SEGMENT.length}-` } });
    expect(bad.status).toBe(416);
    expect(bad.headers['content-range']).toBe(`bytes */${SEGMENT.length}`);
    const multi = await h1(url, { headers: { Range: 'bytes=0-1,5-6' } });
    expect(multi.status).toBe(200);
    expect(multi.body.length).toBe(SEGMENT.length);
  });

  test('HEAD, conditional requests, OPTIONS preflight, other methods', async () => {
    const url = `${origin.urls.http11}/content/demo/chunk-0-00001.m4s`;
    const head = await h1(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(SEGMENT.length));
    const again = await h1(url, { headers: { 'If-None-Match': head.headers.etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const stale = await h1(url, { headers: { 'If-Range': '"old"', Range: 'bytes=0-9' } });
    expect(stale.status).toBe(200);
    const pre = await h1(url, { method: 'OPTIONS', headers: { Origin: 'http://x', 'Access-Control-Request-Headers': 'range' } });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-headers']).toMatch(/Range/);
    const post = await h1(url, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  test('missing files 404; the player page says how to build it when absent', async () => {
    expect((await h1(`${origin.urls.http11}/content/demo/nope.m4s`)).status).toBe(404);
    expect((await h1(`${origin.urls.http11}/content/demo/`)).status).toBe(404);
    const info = JSON.parse((await h1(`${origin.urls.http11}/api/info`)).body);
    expect(info.urls).toEqual(origin.urls);
    expect(info.spkiSha256).toBe(origin.spkiSha256);
    expect(info.requestProtocol).toBe('http/1.1');
    const vendor = await h1(`${origin.urls.http11}/vendor/dash.all.min.js`);
    expect(vendor.status).toBe(200);
    expect(vendor.headers['content-type']).toMatch(/javascript/);
    expect(vendor.body.length).toBeGreaterThan(100000);
  });
});

describe('path safety over raw sockets (nothing outside the root, ever)', () => {
  const attacks = [
    '/content/../secret.txt',
    '/content/demo/../../secret.txt',
    '/content/%2e%2e/secret.txt',
    '/content/demo/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/content/%252e%252e/secret.txt',
    '/content/..%5csecret.txt',
    '/content/demo/manifest.mpd%00',
    '/content/demo/link.m4s',
    '/content//etc/passwd',
    '/content/%2fetc%2fpasswd',
    '/../../../../etc/passwd',
    '/vendor/../../package.json',
  ];
  test.each(attacks)('%s', async (p) => {
    const answer = await raw(origin.urls.http11, `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const status = Number(answer.split(' ')[1]);
    expect([400, 404]).toContain(status);
    expect(answer).not.toContain(SECRET);
    expect(answer).not.toContain('root:');
  });

  test('malformed requests get 400 and the server keeps serving', async () => {
    for (const junk of ['GARBAGE\r\n\r\n', 'GET /x HTTP/9.9\r\n\r\n', 'GET\r\n\r\n', '\u0000\u0001\u0002\r\n\r\n', 'GET http://evil/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']) {
      const answer = await raw(origin.urls.http11, junk);
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
    }
    expect((await h1(`${origin.urls.http11}/healthz`)).status).toBe(200);
  });
});

describe('HTTP/1.0-style listener', () => {
  test('every response closes its connection: two requests, two TCP connections', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const a = await h1(`${origin.urls.http10}/content/demo/chunk-0-00001.m4s`, { agent });
      const b = await h1(`${origin.urls.http10}/content/demo/chunk-0-00001.m4s`, { agent, headers: { Range: 'bytes=0-99' } });
      expect(a.headers.connection).toBe('close');
      expect(a.body.equals(SEGMENT)).toBe(true);
      expect(b.status).toBe(206);
      expect(b.localPort).not.toBe(a.localPort);
    } finally {
      agent.destroy();
    }
  });
});

describe('HTTP/2 listener', () => {
  let session;
  beforeAll(async () => {
    session = http2.connect(origin.urls.h2, { ca: fs.readFileSync(origin.certFile), servername: 'localhost' });
    await new Promise((resolve, reject) => {
      session.once('connect', resolve);
      session.once('error', reject);
    });
  });
  afterAll(() => session && session.close());

  test('negotiates h2 and serves the same bytes and headers on one session', async () => {
    expect(session.alpnProtocol).toBe('h2');
    const a = await h2(session, '/content/demo/chunk-0-00001.m4s');
    expect(a.status).toBe(200);
    expect(a.body.equals(SEGMENT)).toBe(true);
    expect(a.headers['content-type']).toBe('video/iso.segment');
    expect(a.headers['access-control-allow-origin']).toBe('*');
    const r = await h2(session, '/content/demo/chunk-0-00001.m4s', { range: 'bytes=100-199' });
    expect(r.status).toBe(206);
    expect(r.body.equals(SEGMENT.subarray(100, 200))).toBe(true);
    const bad = await h2(session, '/content/demo/chunk-0-00001.m4s', { range: 'bytes=999999999-' });
    expect(bad.status).toBe(416);
    const trav = await h2(session, '/content/%2e%2e/secret.txt');
    expect(trav.status).toBe(400);
    expect(trav.body.toString()).not.toContain(SECRET);
    const info = JSON.parse((await h2(session, '/api/info')).body);
    expect(info.requestProtocol).toBe('h2');
  });

  test('a client without h2 (HTTP/1.1 over TLS) is refused, not silently downgraded', async () => {
    const https = require('node:https');
    await expect(
      new Promise((resolve, reject) => {
        const req = https.get(`${origin.urls.h2}/healthz`, { rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, resolve);
        req.on('error', reject);
      }),
    ).rejects.toThrow();
  });
});

describe('request log', () => {
  test('one NDJSON line per response with protocol, connection, bytes and status', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const before = log.length;
    await h1(`${origin.urls.http11}/content/demo/chunk-0-00001.m4s`, { agent, headers: { Range: 'bytes=0-1023' } });
    await h1(`${origin.urls.http11}/content/demo/init-0.m4s`, { agent });
    agent.destroy();
    const entries = log.slice(before);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ protocol: 'http/1.1', listener: 'http11', method: 'GET', path: '/content/demo/chunk-0-00001.m4s', range: 'bytes=0-1023', status: 206, bytes: 1024, aborted: false });
    expect(entries[1]).toMatchObject({ status: 200, bytes: 800 });
    expect(entries[0].connectionId).toBe(entries[1].connectionId);
    expect(entries[0].durationMs).toBeGreaterThanOrEqual(0);
    const h2Entries = log.filter((e) => e.protocol === 'h2');
    expect(h2Entries.length).toBeGreaterThan(0);
    expect(new Set(h2Entries.map((e) => e.connectionId)).size).toBe(1);
    expect(h2Entries.every((e) => Number.isInteger(e.streamId))).toBe(true);
    const http10 = log.filter((e) => e.listener === 'http10' && e.path.endsWith('.m4s'));
    expect(new Set(http10.map((e) => e.connectionId)).size).toBe(http10.length);
    // The file on disk has the same lines (the write stream flushes asynchronously).
    await new Promise((r) => setTimeout(r, 200));
    const lines = fs.readFileSync(origin.logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBe(log.length);
  });

  test('a client that hangs up mid-response is logged as aborted and does not hurt the server', async () => {
    const big = path.join(tmp, 'content', 'demo', 'big.m4s');
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
    await new Promise((r) => setTimeout(r, 300));
    const entry = log.filter((e) => e.path === '/content/demo/big.m4s').pop();
    expect(entry.aborted).toBe(true);
    expect(entry.bytes).toBeLessThan(32 * 1024 * 1024);
    expect((await h1(`${origin.urls.http11}/healthz`)).status).toBe(200);
  });
});
