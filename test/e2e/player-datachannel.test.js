'use strict';
// The DataChannel (FDSP) transport in Debian's Chromium against the origin's libdatachannel
// peer, on loopback: the sample plays with a fixed BP and with dynamic BP, every segment is
// accounted per channel, the QoE JSON carries the FDSP stats, and the origin logged the
// requests as DataChannel ones with the BP in force.
const fs = require('node:fs');
const path = require('node:path');
const { startOrigin } = require('../../origin/start-origin');
const { ensureContent } = require('../../origin/content/ensure-content');
const { runPlayback } = require('../../testbed/run-playback');
const { watchLargestReceiveBuffer } = require('../../testbed/chromium-udp-sockets');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const CONTENT_DIR = path.join(__dirname, '..', '..', 'content');
let origin;
let dataDir;
const logged = [];

beforeAll(async () => {
  await ensureContent({ preset: 'sample', contentDir: CONTENT_DIR });
  dataDir = makeLabTempDir('dc-e2e');
  origin = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, contentDir: CONTENT_DIR, dataDir, log: (e) => logged.push(e) });
}, 300000);
afterAll(async () => {
  if (origin) await origin.close();
  // No require('node-datachannel').cleanup(): called right after the peers closed it crashed
  // the jest worker with SIGSEGV every time (libdatachannel callbacks still in flight); the
  // worker exits through process.exit, which ends libdatachannel's threads anyway.
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('plays at BP 50: segments split by channel, FDSP stats in the QoE JSON, the origin logged BP 50', async () => {
  const { qoe } = await runPlayback({ pageBase: origin.urls.http11, config: { content: 'sample', transport: 'datachannel', abr: 'bba2', stopAt: 16, bp: 50 }, timeoutMs: 90000 });
  const s = qoe.summary;
  expect(s.playSeconds).toBeGreaterThan(12);
  expect(Object.keys(s.protocols)).toEqual(['datachannel']);
  expect(qoe.config.bp).toBe(50);
  const t = s.transport;
  expect(t.bp).toBe(50);
  expect(t.requests).toBeGreaterThanOrEqual(qoe.segments.length);
  expect(t.reliableShare).toBeGreaterThan(0);
  expect(t.reliableShare).toBeLessThan(1);
  expect(t.packets).toBeGreaterThan(t.unreliableChunks);
  // Loopback loses little; whatever was lost is counted, and PLR is that count over all packets.
  expect(t.plr).toBeCloseTo(t.lostChunks / t.packets, 12);
  expect(t.plr).toBeLessThan(0.05);
  for (const seg of qoe.segments) {
    expect(seg.protocol).toBe('datachannel');
    expect(seg.bp).toBe(50);
    expect(seg.reliableBytes).toBeGreaterThan(0);
    expect(seg.reliableBytes + seg.unreliableBytes).toBe(seg.bytes);
  }
  const media = logged.filter((e) => e.protocol === 'datachannel' && /chunk-/.test(e.path));
  expect(media.length).toBeGreaterThanOrEqual(qoe.segments.length);
  expect(new Set(media.map((e) => e.bp))).toEqual(new Set([50]));
}, 120000);

test('dynamic BP moves within its range and says where it went', async () => {
  const { qoe } = await runPlayback({ pageBase: origin.urls.http11, config: { content: 'sample', transport: 'datachannel', abr: 'bba2', stopAt: 16, bp: 'auto:20-80' }, timeoutMs: 90000 });
  const t = qoe.summary.transport;
  expect(t.autoBp).toEqual({ minBp: 20, maxBp: 80 });
  expect(t.bpHistory[0][1]).toBe(50); // starts in the middle of its range
  expect(t.bpHistory.length).toBeGreaterThan(1); // and moved (no loss on loopback: down)
  for (const [, bp] of t.bpHistory) {
    expect(bp).toBeGreaterThanOrEqual(20);
    expect(bp).toBeLessThanOrEqual(80);
  }
  expect(qoe.summary.playSeconds).toBeGreaterThan(12);
}, 120000);

test('two associations: the unreliable part on a second peer connection, the origin logs which carried it', async () => {
  logged.length = 0;
  const { qoe } = await runPlayback({ pageBase: origin.urls.http11, config: { content: 'sample', transport: 'datachannel', abr: 'bba2', stopAt: 16, bp: 0, associations: 2 }, timeoutMs: 90000 });
  expect(qoe.config.associations).toBe(2);
  expect(qoe.summary.playSeconds).toBeGreaterThan(12);
  const t = qoe.summary.transport;
  expect(t.unreliableChunks).toBeGreaterThan(0);
  expect(t.plr).toBeLessThan(0.05);
  const media = logged.filter((e) => e.protocol === 'datachannel' && /chunk-/.test(e.path) && e.status === 200);
  expect(media.length).toBeGreaterThanOrEqual(qoe.segments.length);
  // Asked on one peer connection, the unreliable part sent on the other.
  for (const e of media) expect(e.unreliableVia).not.toBe(e.connectionId);
}, 120000);

// The largest receive buffer among Chromium's UDP sockets while a short playback runs.
async function largestSocketBuffer(config) {
  const watch = watchLargestReceiveBuffer({ everyMs: 1000 });
  let qoe;
  let socket;
  try {
    ({ qoe } = await runPlayback({ pageBase: origin.urls.http11, config: { content: 'sample', transport: 'datachannel', abr: 'bba2', stopAt: 8, bp: 100, ...config }, timeoutMs: 90000, onPlaying: watch.onPlaying }));
  } finally {
    socket = await watch.stop();
  }
  if (socket.error) throw new Error(`Chromium's UDP sockets could not be read: ${socket.error}`);
  return { qoe, largest: socket.largest };
}

test('receiveBuffer video (the default): a receive-only video transceiver, and Chromium gives the session\'s socket a larger buffer than with chromium', async () => {
  const plain = await largestSocketBuffer({ receiveBuffer: 'chromium' });
  const video = await largestSocketBuffer({});
  expect(plain.qoe.config.receiveBuffer).toBe('chromium');
  expect(video.qoe.config.receiveBuffer).toBe('video');
  expect(video.qoe.summary.playSeconds).toBeGreaterThan(5);
  expect(video.qoe.summary.transport.unreliableChunks).toBeGreaterThan(0);
  // Chromium's own 64 KiB (128 KiB of truesize) without it; with it WebRTC asks for video's 1 MiB,
  // which the kernel caps at net.core.rmem_max (truesize: twice what was granted).
  const rmemMax = Number(fs.readFileSync('/proc/sys/net/core/rmem_max', 'utf8'));
  expect(video.largest).toBeGreaterThan(plain.largest);
  expect(video.largest).toBeGreaterThanOrEqual(Math.min(4 * plain.largest, 2 * rmemMax));
}, 240000);
