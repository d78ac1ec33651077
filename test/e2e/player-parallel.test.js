'use strict';
// The parallel transport (paper 001) in Chromium: the sample plays with transport=parallel, every
// segment byte for byte the file, every chunk over HTTP/1.1, and the origin's request log shows
// n_c persistent connections on the HTTP/1.1 pool, one per stream on a port of its own; the
// options from the page URL reach the transport (n_c, l_d, t_gap).
const fs = require('node:fs');
const path = require('node:path');
const { startOrigin } = require('../../origin/start-origin');
const { ensureContent } = require('../../origin/content/ensure-content');
const { runPlayback } = require('../../testbed/run-playback');
const { fnv1a32 } = require('../../player/qoe/fnv1a32');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const CONTENT_DIR = path.join(__dirname, '..', '..', 'content');
const fileOf = (seg) => path.join(CONTENT_DIR, 'sample', `chunk-${seg.representationId}-${String(seg.index).padStart(5, '0')}.m4s`);

let origin;
let dataDir;
const requests = [];

beforeAll(async () => {
  await ensureContent({ preset: 'sample', contentDir: CONTENT_DIR });
  dataDir = makeLabTempDir('e2e-parallel');
  origin = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, h3Port: 0, contentDir: CONTENT_DIR, dataDir, log: (e) => requests.push(e) });
}, 300000);

afterAll(async () => {
  if (origin) await origin.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** How many connections of a playback each pool port had ("http11pool.3-2": port 3, connection 2). */
function connectionsPerPort(entries) {
  const out = {};
  for (const id of new Set(entries.map((e) => e.connectionId))) {
    const port = id.replace(/-\d+$/, '');
    out[port] = (out[port] || 0) + 1;
  }
  return out;
}
const onePerPort = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`http11pool.${i + 1}`, 1]));

/** One playback; its QoE and the origin's log lines for it. */
async function play(config) {
  const before = requests.length;
  const { qoe, pageErrors } = await runPlayback({ pageBase: origin.urls.http11, config: { content: 'sample', abr: 'basic', ...config, transport: 'parallel' }, originInfo: origin, timeoutMs: 90000 });
  await origin.flushLog();
  return { qoe, pageErrors, log: requests.slice(before) };
}

test('the sample plays over 10 streams of 20480-byte chunks, byte-exact, on 10 HTTP/1.1 connections', async () => {
  const { qoe, pageErrors, log } = await play({ stopAt: 24 });
  const s = qoe.summary;
  expect(pageErrors).toEqual([]);
  expect(qoe.errors).toEqual([]);
  expect(qoe.config).toMatchObject({ transport: 'parallel', streams: 10, chunkBytes: 20480, gapMs: 350, timeoutMinMs: 1000, timeoutMaxMs: 3000, poolPorts: 12 });
  expect(s.startupDelaySeconds).toBeGreaterThan(0);
  expect(s.startupDelaySeconds).toBeLessThan(10);
  expect(s.playSeconds).toBeGreaterThan(15);
  expect(s.segmentsDownloaded).toBeGreaterThan(5);
  // Every response (MPD, init, media) came over HTTP/1.1 through the transport, and only it.
  expect(Object.keys(s.protocols)).toEqual(['http/1.1']);
  expect(Object.keys(s.bytesPerTransport)).toEqual(['parallel']);
  for (const seg of qoe.segments) {
    expect(seg.fnv1a32).toBe(fnv1a32(fs.readFileSync(fileOf(seg))));
    expect(seg.chunks).toBe(Math.ceil(seg.bytes / 20480));
    expect(seg.requests).toBeGreaterThanOrEqual(seg.chunks);
    expect(seg.overheadBytes).toBe(600 * seg.requests);
    expect(seg.inOrderThroughput).toBeGreaterThan(0);
  }
  expect(s.transport).toMatchObject({ streams: 10, poolPorts: 12, failures: 0 });
  expect(s.transport.requests).toBeGreaterThanOrEqual(s.transport.chunks - s.transport.queued);

  // The origin's side: the page came from the http11 listener, every MPD, init and media request
  // went to the pool as a Range request, over 10 connections, one on each of 10 ports.
  const content = log.filter((e) => /^\/content\/sample\/.*\.(m4s|mpd)$/.test(e.path));
  expect(content.length).toBeGreaterThan(s.segmentsDownloaded);
  expect(content.every((e) => e.listener === 'http11pool' && e.protocol === 'http/1.1' && /^bytes=\d+-\d+$/.test(e.range))).toBe(true);
  expect(connectionsPerPort(content)).toEqual(onePerPort(10));
  const connections = new Set(content.map((e) => e.connectionId));
  // Persistent: each connection carried many requests.
  for (const id of connections) expect(content.filter((e) => e.connectionId === id).length).toBeGreaterThan(5);
}, 150000);

test('the options in the page URL reach the transport: 4 streams of 65536-byte chunks, no gap', async () => {
  const { qoe, pageErrors, log } = await play({ stopAt: 10, streams: 4, chunkBytes: 65536, gapMs: 0 });
  expect(pageErrors).toEqual([]);
  expect(qoe.errors).toEqual([]);
  expect(qoe.config).toMatchObject({ streams: 4, chunkBytes: 65536, gapMs: 0 });
  for (const seg of qoe.segments) {
    expect(seg.fnv1a32).toBe(fnv1a32(fs.readFileSync(fileOf(seg))));
    expect(seg.chunks).toBe(Math.ceil(seg.bytes / 65536));
  }
  const content = log.filter((e) => e.listener === 'http11pool');
  expect(connectionsPerPort(content)).toEqual(onePerPort(4));
  expect(content.every((e) => {
    const [a, b] = e.range.replace('bytes=', '').split('-').map(Number);
    return b - a + 1 <= 65536;
  })).toBe(true);
}, 150000);
