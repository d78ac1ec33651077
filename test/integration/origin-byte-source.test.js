'use strict';
// GET /bytes/<n> on the real origin (loopback, every TCP listener): the unbounded source of
// throughput runs. Whole and ranged bodies are the documented pattern byte for byte, with
// 206 / Content-Range like the content route, 416 past the end, and nothing for a size that
// is not one. The parallel transport fetches a range of it as 20480-byte chunks.
const http = require('node:http');
const http2 = require('node:http2');
const fs = require('node:fs');
const path = require('node:path');
const { startOrigin } = require('../../origin/start-origin');
const { expectedBytes, MAX_BYTES, PATTERN_BYTES } = require('../../origin/byte-source');
const { ParallelTransport } = require('../../player/transports/parallel-transport');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

let origin;
let tmp;
const logged = [];

beforeAll(async () => {
  tmp = makeLabTempDir('bytes');
  fs.mkdirSync(path.join(tmp, 'content'));
  origin = await startOrigin({
    host: '127.0.0.1', http11Port: 0, http10Port: 0, h2Port: 0, h3Port: 0, contentDir: path.join(tmp, 'content'), dataDir: path.join(tmp, 'data'), log: (e) => logged.push(e),
  });
}, 30000);

afterAll(async () => {
  if (origin) await origin.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** One HTTP/1.1 request: status, headers, body. */
function get(base, p, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${p}`, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('the whole resource is the pattern, across a pattern boundary', async () => {
  const n = PATTERN_BYTES + 1000;
  const r = await get(origin.urls.http11, `/bytes/${n}`);
  expect(r.status).toBe(200);
  expect(r.headers['content-length']).toBe(String(n));
  expect(r.headers['accept-ranges']).toBe('bytes');
  expect(r.headers['cache-control']).toBe('no-store');
  expect(r.body.equals(expectedBytes(0, n))).toBe(true);
  // Not a constant: a source of zeros would hide a transport that delivers the wrong offsets.
  expect(new Set(r.body.subarray(0, 256)).size).toBeGreaterThan(100);
});

test('a range deep inside a huge resource: 206, Content-Range, exactly those bytes', async () => {
  const start = 3 * 2 ** 30 + 12345; // 3 GiB in: nothing is read or generated before it
  const r = await get(origin.urls.http11, `/bytes/${MAX_BYTES}`, { Range: `bytes=${start}-${start + 99999}` });
  expect(r.status).toBe(206);
  expect(r.headers['content-range']).toBe(`bytes ${start}-${start + 99999}/${MAX_BYTES}`);
  expect(r.body.equals(expectedBytes(start, 100000))).toBe(true);
  // The request log counts what was sent, as for segments.
  const entry = logged.filter((e) => e.path === `/bytes/${MAX_BYTES}`).pop();
  expect(entry).toMatchObject({ status: 206, bytes: 100000 });
});

test('suffix and open ranges, HEAD, 416 past the end', async () => {
  const suffix = await get(origin.urls.http11, '/bytes/5000', { Range: 'bytes=-100' });
  expect(suffix.status).toBe(206);
  expect(suffix.body.equals(expectedBytes(4900, 100))).toBe(true);
  const open = await get(origin.urls.http11, '/bytes/5000', { Range: 'bytes=4990-' });
  expect(open.body.equals(expectedBytes(4990, 10))).toBe(true);
  const head = await get(origin.urls.http11, '/bytes/5000', {}, 'HEAD');
  expect(head.status).toBe(200);
  expect(head.headers['content-length']).toBe('5000');
  expect(head.body.length).toBe(0);
  const past = await get(origin.urls.http11, '/bytes/5000', { Range: 'bytes=5000-5100' });
  expect(past.status).toBe(416);
  expect(past.headers['content-range']).toBe('bytes */5000');
});

test('a path that names no size is a 404 that says what /bytes/ takes', async () => {
  for (const p of ['/bytes/abc', '/bytes/-1', '/bytes/12/34', `/bytes/${MAX_BYTES + 1}`, '/bytes/']) {
    const r = await get(origin.urls.http11, p);
    expect(r.status).toBe(404);
    expect(r.body.toString()).toMatch(/whole number from 0 to/);
  }
});

test('the same over HTTP/2 and the HTTP/1.0-style listener (the route is every listener\'s)', async () => {
  const r10 = await get(origin.urls.http10, '/bytes/70000', { Range: 'bytes=60000-69999' });
  expect(r10.body.equals(expectedBytes(60000, 10000))).toBe(true);
  const session = http2.connect(origin.urls.h2, { rejectUnauthorized: false });
  try {
    const body = await new Promise((resolve, reject) => {
      const s = session.request({ ':path': '/bytes/70000', range: 'bytes=100-199' });
      const chunks = [];
      s.on('response', (h) => { if (h[':status'] !== 206) reject(new Error(`status ${h[':status']}`)); });
      s.on('data', (c) => chunks.push(c));
      s.on('end', () => resolve(Buffer.concat(chunks)));
      s.on('error', reject);
    });
    expect(body.equals(expectedBytes(100, 100))).toBe(true);
  } finally {
    session.close();
  }
});

test('the parallel transport fetches a range of it as l_d-byte chunks, byte-exact', async () => {
  if (!origin.urls.http11pool) throw new Error('the origin has no HTTP/1.1 pool (urls.http11pool)');
  const t = new ParallelTransport({
    url: origin.urls.http11pool, pageUrl: `${origin.urls.http11}/`, streams: 4, chunkBytes: 20480, gapMs: 0, protocolsOf: async () => ['http/1.1'],
  });
  try {
    const start = 10 * 2 ** 20;
    const response = await new Promise((resolve, reject) => {
      t.load({ url: `/bytes/${MAX_BYTES}`, range: { start, end: start + 204799 }, responseType: 'arraybuffer', timeoutMs: 0 }, { onComplete: resolve, onError: reject });
    });
    expect(Buffer.from(response.data).equals(expectedBytes(start, 204800))).toBe(true);
    expect(response.accounting.chunks).toBe(10);
  } finally {
    await t.close();
  }
});
