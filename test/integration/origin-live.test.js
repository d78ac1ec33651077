'use strict';
// The origin's live broadcast (/live/<startMs>/<content>/...) with real clients over HTTP/1.1
// and HTTP/2: the MPD is dynamic and starts at the URL's start, a segment is served only inside
// its availability window (404 with the reason otherwise), other names for a segment do not get
// past that check, and bad live paths are refused with a clear message. The same route serves
// HTTP/3 (the QUIC server forwards to it); test/integration/qoe-live-switch.test.js plays it.
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const http2 = require('node:http2');
const { startOrigin } = require('../../origin/start-origin');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

let tmp;
let origin;
const log = [];
const SEGMENTS = 5; // of 2 s each
const segmentBytes = (n) => Buffer.alloc(1000 + n, n);
const STATIC_MPD = '<?xml version="1.0" encoding="utf-8"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static" mediaPresentationDuration="PT10.0S" minBufferTime="PT4.0S">\n\t<Period id="0" start="PT0.0S">\n\t</Period>\n</MPD>\n';

beforeAll(async () => {
  tmp = makeLabTempDir('live');
  const demo = path.join(tmp, 'content', 'demo');
  fs.mkdirSync(demo, { recursive: true });
  const segments = [];
  for (let n = 1; n <= SEGMENTS; n += 1) {
    const url = `chunk-0-0000${n}.m4s`;
    fs.writeFileSync(path.join(demo, url), segmentBytes(n));
    segments.push({ number: n, url, size: 1000 + n, startTime: 2 * (n - 1), duration: 2 });
  }
  fs.writeFileSync(path.join(demo, 'init-0.m4s'), Buffer.alloc(100, 7));
  fs.writeFileSync(path.join(demo, 'manifest.mpd'), STATIC_MPD);
  fs.writeFileSync(path.join(demo, 'index.json'), JSON.stringify({ version: 1, segmentDuration: 2, representations: [{ id: '0', bandwidth: 300000, segments }] }));
  origin = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, contentDir: path.join(tmp, 'content'), dataDir: path.join(tmp, 'data'), log: (e) => log.push(e) });
});

afterAll(async () => {
  if (origin) await origin.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** node:http sends the path exactly as written (fetch would resolve "%2e%2e" itself). */
const get = (p, { headers = {} } = {}) => new Promise((resolve, reject) => {
  const u = new URL(origin.urls.http11);
  const req = http.get({ host: u.hostname, port: u.port, path: p, headers, agent: false }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], range: res.headers['content-range'], body: Buffer.concat(chunks) }));
  });
  req.on('error', reject);
});

test('the MPD is dynamic, starts at the URL\'s start and carries the origin\'s clock', async () => {
  const start = Date.now() - 5000;
  const before = Date.now();
  const r = await get(`/live/${start}/demo/manifest.mpd`);
  expect(r.status).toBe(200);
  expect(r.type).toBe('application/dash+xml');
  const text = r.body.toString();
  expect(text).toContain('type="dynamic"');
  expect(text).toContain(`availabilityStartTime="${new Date(start).toISOString()}"`);
  expect(text).toContain('timeShiftBufferDepth="PT300S"');
  const clock = Date.parse(/<UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="([^"]+)"/.exec(text)[1]);
  expect(clock).toBeGreaterThanOrEqual(before - 1);
  expect(clock).toBeLessThanOrEqual(Date.now() + 1);
  // The on-demand MPD is untouched.
  expect((await get('/content/demo/manifest.mpd')).body.toString()).toBe(STATIC_MPD);
});

test('a segment is served once the broadcast has passed its end, byte-exact, Range included', async () => {
  const start = Date.now() - 5000; // segments 1 and 2 have ended, 3 ends at 6 s
  const one = await get(`/live/${start}/demo/chunk-0-00001.m4s`);
  expect(one.status).toBe(200);
  expect(one.body.equals(segmentBytes(1))).toBe(true);
  const part = await get(`/live/${start}/demo/chunk-0-00002.m4s`, { headers: { Range: 'bytes=10-19' } });
  expect(part.status).toBe(206);
  expect(part.range).toBe('bytes 10-19/1002');
  expect(part.body.equals(segmentBytes(2).subarray(10, 20))).toBe(true);
  const three = await get(`/live/${start}/demo/chunk-0-00003.m4s`);
  expect(three.status).toBe(404);
  expect(three.body.toString()).toMatch(/^segment 3 is not available yet \(in 0\.\d+ s\)\n$/);
  // Init segments are there from the start.
  expect((await get(`/live/${Date.now()}/demo/init-0.m4s`)).status).toBe(200);
});

test('another name for a future segment does not get past the availability check', async () => {
  const start = Date.now();
  for (const alias of ['./chunk-0-00004.m4s', '%2e/chunk-0-00004.m4s', 'chunk-0-0000%34.m4s']) {
    const r = await get(`/live/${start}/demo/${alias}`);
    expect([alias, r.status, r.body.toString()]).toEqual([alias, 404, expect.stringMatching(/^segment 4 is not available yet/)]);
  }
});

test('past the end of the broadcast, and outside the time-shift window, there is no segment', async () => {
  const r = await get(`/live/${Date.now() - 3600e3}/demo/chunk-0-00001.m4s`);
  expect(r.status).toBe(404);
  expect(r.body.toString()).toBe('segment 1 has left the 300 s time-shift window\n');
});

test('bad live paths get a clear refusal, and traversal stays refused', async () => {
  const cases = [
    ['/live/demo/manifest.mpd', 404, /a live stream path is \/live\/<start, ms since the epoch>\/<content>\/<file>/],
    [`/live/${Date.now() + 3600e3}/demo/manifest.mpd`, 400, /ahead of the origin's clock/],
    [`/live/${Date.now()}/nosuch/manifest.mpd`, 404, /content "nosuch" is not built/],
    [`/live/${Date.now()}/demo/%2e%2e/%2e%2e/secret`, 400, /"\.\." in path/],
    [`/live/${Date.now()}/demo/nothing.m4s`, 404, /not found/],
  ];
  for (const [p, status, message] of cases) {
    const r = await get(p);
    expect([p, r.status, r.body.toString()]).toEqual([p, status, expect.stringMatching(message)]);
  }
  // The origin is still up and serving.
  expect((await get('/healthz')).status).toBe(200);
});

test('HTTP/2 serves the same broadcast, and the request log names the live paths', async () => {
  const start = Date.now() - 3000;
  const session = http2.connect(origin.urls.h2, { rejectUnauthorized: false });
  try {
    const fetch2 = (p) => new Promise((resolve, reject) => {
      const req = session.request({ ':path': p });
      const chunks = [];
      let status;
      req.on('response', (h) => { status = h[':status']; });
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => resolve({ status, body: Buffer.concat(chunks) }));
      req.on('error', reject);
    });
    const mpd = await fetch2(`/live/${start}/demo/manifest.mpd`);
    expect(mpd.status).toBe(200);
    expect(mpd.body.toString()).toContain('type="dynamic"');
    const seg = await fetch2(`/live/${start}/demo/chunk-0-00001.m4s`);
    expect(seg.status).toBe(200);
    expect(seg.body.equals(segmentBytes(1))).toBe(true);
    expect((await fetch2(`/live/${start}/demo/chunk-0-00002.m4s`)).status).toBe(404);
  } finally {
    session.close();
  }
  const logged = log.filter((e) => e.protocol === 'h2' && e.path.startsWith(`/live/${start}/`)).map((e) => [e.path.split('/').pop(), e.status]);
  expect(logged).toEqual([['manifest.mpd', 200], ['chunk-0-00001.m4s', 200], ['chunk-0-00002.m4s', 404]]);
});
