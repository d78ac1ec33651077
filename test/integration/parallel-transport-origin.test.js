'use strict';
// The parallel transport (paper 001) against the real origin on loopback: the transport object
// the player uses (player/transports/parallel-transport.js, its scheduler and stream loops) with
// Node's fetch in place of the page's. A segment fetched as 20480-byte ranges over 10
// connections (one per stream, each on a port of the HTTP/1.1 pool's 12) is byte for byte the file; a chunk the
// origin holds on purpose (its --test-delay-range hook) times out, is fetched again on another
// connection, and that faster copy wins while the held one is aborted (or, with losingCopy
// finish, received to the end and discarded, no connection closed). Chromium playing it is
// test/e2e/player-parallel.test.js.
const fs = require('node:fs');
const path = require('node:path');
const { startOrigin } = require('../../origin/start-origin');
const { ensureContent } = require('../../origin/content/ensure-content');
const { ParallelTransport } = require('../../player/transports/parallel-transport');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const CONTENT = path.join(__dirname, '..', '..', 'content');
const HOLD_MS = 8000;
const L_D = 20480;

let tmp;
let origin;
let files; // rung 1's segments, largest first: >= 11 chunks each, so all 10 streams get one
const logged = [];
const transports = [];

const poolEntries = (p) => logged.filter((e) => e.listener === 'http11pool' && e.path === p);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * What carried the chunks, as the origin saw them (Node's fetch has no Resource Timing
 * nextHopProtocol; the page checks that instead). Waits for the last chunk's log line.
 */
async function protocolsFromLog(urls) {
  const paths = urls.map((u) => new URL(u).pathname);
  for (let i = 0; i < 50; i += 1) {
    const p = logged.filter((e) => e.listener === 'http11pool' && paths.includes(e.path) && !e.aborted).map((e) => e.protocol);
    if (p.length) return p;
    await sleep(20);
  }
  return [];
}

function newTransport(options = {}) {
  const t = new ParallelTransport({ url: origin.urls.http11pool, pageUrl: `${origin.urls.http11}/`, protocolsOf: protocolsFromLog, ...options });
  transports.push(t);
  return t;
}

/** load() as a promise, with every progress event and the time it took. */
function load(t, url, responseType = 'arraybuffer') {
  const progress = [];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    t.load({ url, range: null, responseType, timeoutMs: 0 }, {
      onProgress: (e) => progress.push(e.loaded),
      onComplete: (r) => resolve({ r, progress, ms: performance.now() - started }),
      onError: reject,
    });
  });
}

beforeAll(async () => {
  await ensureContent({ preset: 'sample', contentDir: CONTENT });
  files = fs.readdirSync(path.join(CONTENT, 'sample')).filter((f) => /^chunk-1-\d+\.m4s$/.test(f))
    .map((f) => ({ f, size: fs.statSync(path.join(CONTENT, 'sample', f)).size }))
    .sort((a, b) => b.size - a.size || a.f.localeCompare(b.f));
  tmp = makeLabTempDir('parallel');
  origin = await startOrigin({
    http11Port: 0, http10Port: 0, h2Port: 0, h3Port: 0, contentDir: CONTENT, dataDir: path.join(tmp, 'data'), log: (e) => logged.push(e),
    // The test hook: the second-largest segment's third chunk is held the first time it is asked for.
    testDelayRange: { path: `/content/sample/${files[1].f}`, start: 2 * L_D, ms: HOLD_MS, times: 1 },
  });
}, 300000);

afterAll(async () => {
  for (const t of transports) await t.close();
  if (origin) await origin.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('the pool publishes its 12 ports in its URL and serves the same routes on each', async () => {
  const u = new URL(origin.urls.http11pool);
  const ports = u.hash.replace('#ports=', '').split(',').map(Number);
  expect(ports).toHaveLength(12);
  expect(new Set(ports).size).toBe(12);
  expect(ports[0]).toBe(Number(u.port));
  for (const port of ports) {
    const res = await fetch(`http://127.0.0.1:${port}/content/sample/manifest.mpd`, { headers: { Range: 'bytes=0-99' } });
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(path.join(CONTENT, 'sample', 'manifest.mpd')).subarray(0, 100))).toBe(true);
  }
});

test('a segment fetched as 20480-byte ranges over 10 connections is byte-exact, with progress in order', async () => {
  const { f, size } = files[0];
  expect(size).toBeGreaterThan(11 * L_D);
  const t = newTransport();
  expect(t.streamsPerPort).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
  const before = logged.length;
  const { r, progress } = await load(t, `/content/sample/${f}`);
  const onDisk = fs.readFileSync(path.join(CONTENT, 'sample', f));
  expect(r.status).toBe(200);
  expect(Buffer.from(r.data).equals(onDisk)).toBe(true);
  const chunks = Math.ceil(size / L_D);
  expect(r.accounting).toMatchObject({ transport: 'parallel', protocol: 'http/1.1', bytes: size, chunks, requests: chunks, reRequests: 0, timeouts: 0, duplicates: 0, overheadBytes: chunks * 600 });
  expect(r.accounting.inOrderThroughput).toBeGreaterThan(0);
  // Progress only ever grows, in whole chunks from the start, and ends at the size.
  expect(progress.every((p, i) => i === 0 || p > progress[i - 1])).toBe(true);
  expect(progress.every((p) => p % L_D === 0 || p === size)).toBe(true);
  expect(progress.at(-1)).toBe(size);

  // The origin's side: one 20480-byte range request per chunk (the last shorter), all HTTP/1.1
  // keep-alive on the pool, over 10 connections, one on each of 10 ports.
  await origin.flushLog();
  const mine = logged.slice(before).filter((e) => e.path === `/content/sample/${f}`);
  expect(mine).toHaveLength(chunks);
  expect(mine.every((e) => e.listener === 'http11pool' && e.protocol === 'http/1.1' && e.status === 206 && !e.aborted)).toBe(true);
  expect(mine.map((e) => e.range).sort()).toEqual(Array.from({ length: chunks }, (_, i) => `bytes=${i * L_D}-${Math.min((i + 1) * L_D, size) - 1}`).sort());
  const connections = new Set(mine.map((e) => e.connectionId));
  expect(connections.size).toBe(10);
  const perPort = {};
  for (const id of connections) perPort[id.split('-')[0]] = (perPort[id.split('-')[0]] || 0) + 1;
  expect(perPort).toEqual(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`http11pool.${i + 1}`, 1])));
  // Each connection carried several chunks (persistent), a t_gap apart at least.
  const byConnection = mine.reduce((m, e) => m.set(e.connectionId, [...(m.get(e.connectionId) || []), Date.parse(e.time)]), new Map());
  expect(Math.max(...[...byConnection.values()].map((v) => v.length))).toBeGreaterThan(1);
});

test('a chunk the origin holds times out, is fetched again on another connection, and the faster copy wins', async () => {
  const { f, size } = files[1];
  const held = `bytes=${2 * L_D}-${3 * L_D - 1}`;
  const t = newTransport();
  const { r, ms } = await load(t, `/content/sample/${f}`);
  expect(Buffer.from(r.data).equals(fs.readFileSync(path.join(CONTENT, 'sample', f)))).toBe(true);
  // Done long before the held copy would have been answered: the re-request carried it.
  expect(ms).toBeLessThan(HOLD_MS / 2);
  expect(r.accounting).toMatchObject({ chunks: Math.ceil(size / L_D), reRequests: 1, timeouts: 1, duplicates: 1 });
  expect(r.accounting.requests).toBe(r.accounting.chunks + 1);
  // The origin saw the held range twice, on two connections: the first held and then dropped
  // by the client (aborted) after the timeout (1000-3000 ms), the second answered in full.
  await sleep(200); // the aborted copy's log line comes when its socket closes
  await origin.flushLog();
  const copies = poolEntries(`/content/sample/${f}`).filter((e) => e.range === held);
  expect(copies).toHaveLength(2);
  const [slow, fast] = [copies.find((e) => e.aborted), copies.find((e) => !e.aborted)];
  expect(slow).toBeDefined();
  expect(fast).toMatchObject({ status: 206, protocol: 'http/1.1' });
  expect(slow.connectionId).not.toBe(fast.connectionId);
  expect(slow.durationMs).toBeGreaterThanOrEqual(1000);
  expect(slow.durationMs).toBeLessThan(HOLD_MS);
  // Every other chunk once.
  expect(poolEntries(`/content/sample/${f}`).filter((e) => e.range !== held).every((e) => e.status === 206 && !e.aborted)).toBe(true);
  // The expiry entered the timeout's moving average with its penalty: 1.5 x the 1000 ms it had
  // (the lower bound: every transfer before it took a few ms on loopback).
  expect(t.scheduler.estimator.samples).toContain(1500);
});

test('losingCopy finish: the held copy is received to the end and discarded, and no connection is closed', async () => {
  // An origin of its own: fresh ports, so every connection in its log is this transport's.
  const { f, size } = files[2];
  const held = `bytes=${2 * L_D}-${3 * L_D - 1}`;
  const HOLD_FINISH_MS = 5000;
  const own = [];
  const o = await startOrigin({
    http11Port: 0, http10Port: 0, h2Port: 0, h3Port: 0, contentDir: CONTENT, dataDir: path.join(tmp, 'data-finish'), log: (e) => own.push(e),
    testDelayRange: { path: `/content/sample/${f}`, start: 2 * L_D, ms: HOLD_FINISH_MS, times: 1 },
  });
  try {
    const t = new ParallelTransport({ url: o.urls.http11pool, pageUrl: `${o.urls.http11}/`, protocolsOf: async (urls) => urls.map(() => 'http/1.1'), losingCopy: 'finish' });
    transports.push(t);
    const { r, ms } = await load(t, `/content/sample/${f}`);
    expect(Buffer.from(r.data).equals(fs.readFileSync(path.join(CONTENT, 'sample', f)))).toBe(true);
    expect(ms).toBeLessThan(HOLD_FINISH_MS);
    expect(r.accounting).toMatchObject({ chunks: Math.ceil(size / L_D), reRequests: 1, timeouts: 1, duplicates: 0 });
    // The held copy is still coming; when it does it is discarded, its bytes counted.
    for (let i = 0; i < 100 && t.stats().duplicates === 0; i += 1) await sleep(100);
    expect(t.stats()).toMatchObject({ duplicates: 1, duplicateBytes: L_D, inFlight: 0, failures: 0 });
    await o.flushLog();
    const mine = own.filter((e) => e.listener === 'http11pool' && e.path === `/content/sample/${f}`);
    const copies = mine.filter((e) => e.range === held);
    expect(copies).toHaveLength(2);
    // Both copies answered in full (none aborted), the slow one after the hold, on two connections.
    expect(copies.every((e) => e.status === 206 && !e.aborted)).toBe(true);
    expect(Math.max(...copies.map((e) => e.durationMs))).toBeGreaterThanOrEqual(HOLD_FINISH_MS);
    expect(new Set(copies.map((e) => e.connectionId)).size).toBe(2);
    // No request aborted, so no connection closed: one per stream, as paper 001's streams.
    expect(mine.every((e) => !e.aborted)).toBe(true);
    expect(new Set(mine.map((e) => e.connectionId)).size).toBe(10);
  } finally {
    await o.close();
  }
}, 30000);

test('the MPD (text, smaller than a chunk) and a missing file: one chunk, and the 404 as an error', async () => {
  const t = newTransport({ streams: 2, gapMs: 0 });
  const { r } = await load(t, '/content/sample/manifest.mpd', 'text');
  expect(r.data).toBe(fs.readFileSync(path.join(CONTENT, 'sample', 'manifest.mpd'), 'utf8'));
  expect(r.accounting).toMatchObject({ chunks: 1, requests: 1 });
  expect(r.headers['content-type']).toMatch(/dash\+xml/);
  await expect(load(t, '/content/sample/no-such-segment.m4s')).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/no-such-segment\.m4s bytes 0-20479: HTTP 404/) });
});
