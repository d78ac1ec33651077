'use strict';
// The origin's DataChannel (FDSP) side with a real libdatachannel client on loopback: the
// split by BP as the HEAD announces it, byte-exact reassembly, errors as ERROR frames, hostile
// signaling and frames answered without taking the origin down, session limits.
const fs = require('node:fs');
const path = require('node:path');
const WebSocket = require('ws');
const { startOrigin } = require('../../origin/start-origin');
const { ensureContent } = require('../../origin/content/ensure-content');
const { connectFdsp } = require('../../testbed/datachannel/node-fdsp-client');
const { splitSegment } = require('../../shared/fdsp/split-segment');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const CONTENT = path.join(__dirname, '..', '..', 'content');
let origin;
let dataDir;
const logged = [];

beforeAll(async () => {
  await ensureContent({ preset: 'sample', contentDir: CONTENT });
  dataDir = makeLabTempDir('dc');
  origin = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, contentDir: CONTENT, dataDir, log: (e) => logged.push(e) });
}, 300000);
afterAll(async () => {
  if (origin) await origin.close();
  // No require('node-datachannel').cleanup(): called right after the peers closed it crashed
  // the jest worker with SIGSEGV every time (libdatachannel callbacks still in flight); the
  // worker exits through process.exit, which ends libdatachannel's threads anyway.
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a segment arrives byte-exact at BP 0, 50 and 100, split as the priority map says', async () => {
  expect(origin.urls.fdsp).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/fdsp$/);
  const c = await connectFdsp(origin.urls.fdsp, { bindAddress: '127.0.0.1' });
  try {
    const file = fs.readFileSync(path.join(CONTENT, 'sample', 'chunk-3-00004.m4s'));
    const map = JSON.parse(fs.readFileSync(path.join(CONTENT, 'sample', 'priority-3.json'), 'utf8')).segments.find((s) => s.url === 'chunk-3-00004.m4s');
    for (const bp of [0, 50, 100]) {
      const r = await c.fetch('/content/sample/chunk-3-00004.m4s', { bp, graceMs: 1000 });
      const split = splitSegment(map.priority, bp);
      expect(r.head).toMatchObject({ status: 200, totalBytes: file.length, reliableBytes: split.reliableBytes, unreliableBytes: split.unreliableBytes });
      expect(r.end.unreliableSent).toBe(r.head.unreliableChunks);
      expect(r.lostChunks).toBe(0);
      expect(Buffer.from(r.bytes).equals(file)).toBe(true);
    }
    // Paper 000's UDP-only baseline: only the container boxes reliable, and still byte-exact on loopback.
    const udp = await c.fetch('/content/sample/chunk-3-00004.m4s', { bp: 100, udpOnly: true, graceMs: 1000 });
    expect(udp.head.reliableBytes).toBe(splitSegment(map.priority, 100, { udpOnly: true }).reliableBytes);
    expect(udp.head.reliableBytes).toBeLessThan(splitSegment(map.priority, 0).reliableBytes);
    expect(udp.lostChunks).toBe(0);
    expect(Buffer.from(udp.bytes).equals(file)).toBe(true);
    // An MPD has no priority map: all reliable.
    const mpd = await c.fetch('/content/sample/manifest.mpd');
    expect(mpd.head.unreliableBytes).toBe(0);
    expect(Buffer.from(mpd.bytes).equals(fs.readFileSync(path.join(CONTENT, 'sample', 'manifest.mpd')))).toBe(true);
    // A range is honoured (and sent reliably).
    const part = await c.fetch('/content/sample/chunk-3-00004.m4s', { range: [100, 1099] });
    expect(Buffer.from(part.bytes).equals(file.subarray(100, 1100))).toBe(true);
  } finally {
    c.close();
  }
  const entries = logged.filter((e) => e.protocol === 'datachannel' && e.path.endsWith('chunk-3-00004.m4s'));
  expect(entries.map((e) => e.bp)).toEqual([0, 50, 100, 100, 100]);
  expect(entries.map((e) => Boolean(e.udpOnly))).toEqual([false, false, false, true, false]);
}, 60000);

test('a receive window: the player acknowledges, the segment comes whole, the log says the window; null turns it off', async () => {
  const c = await connectFdsp(origin.urls.fdsp, { bindAddress: '127.0.0.1' });
  try {
    const url = '/content/sample/chunk-3-00004.m4s';
    const file = fs.readFileSync(path.join(CONTENT, 'sample', 'chunk-3-00004.m4s'));
    const windowBytes = 32 * 1024;
    const r = await c.fetch(url, { bp: 0, graceMs: 1000, windowBytes });
    expect(r.lostChunks).toBe(0);
    expect(Buffer.from(r.bytes).equals(file)).toBe(true);
    // An ACK each time a quarter of the window came in: each covers at most a quarter plus one
    // 16 KiB reliable frame.
    expect(c.stats().acks).toBeGreaterThanOrEqual(Math.floor(file.length / (windowBytes / 4 + 16 * 1024 + 12)));
    expect(c.errorsWithoutRequest).toEqual([]); // no ACK was refused
    const acksBefore = c.stats().acks;
    const off = await c.fetch(url, { bp: 0, graceMs: 1000, windowBytes: null });
    expect(Buffer.from(off.bytes).equals(file)).toBe(true);
    expect(c.stats().acks).toBe(acksBefore);
    await expect(c.fetch(url, { bp: 0, windowBytes: 100 })).rejects.toThrow(/windowBytes must be/);
  } finally {
    c.close();
  }
  const entries = logged.filter((e) => e.protocol === 'datachannel' && e.path.endsWith('chunk-3-00004.m4s') && e.bp === 0 && e.status === 200);
  expect(entries.slice(-2).map((e) => e.windowBytes)).toEqual([32 * 1024, null]);
}, 60000);

test('a paced unreliable part cannot come faster than the pace asked; the log says the pace; null turns it off', async () => {
  const c = await connectFdsp(origin.urls.fdsp, { bindAddress: '127.0.0.1' });
  try {
    const url = '/content/sample/chunk-3-00004.m4s';
    const unpaced = await c.fetch(url, { bp: 0, graceMs: 1000 });
    const paceBps = 2e6;
    const paced = await c.fetch(url, { bp: 0, graceMs: 1000, paceBps });
    expect(paced.lostChunks).toBe(0);
    // A lower bound only (a slow machine is slower, never faster): the unreliable bytes at the
    // pace, less one 10 ms burst.
    const floor = (paced.head.unreliableBytes * 8) / paceBps - 0.01;
    expect(paced.doneSeconds).toBeGreaterThanOrEqual(floor);
    const off = await c.fetch(url, { bp: 0, graceMs: 1000, paceBps: null });
    expect(off.lostChunks).toBe(0);
    expect(unpaced.head.unreliableBytes).toBe(paced.head.unreliableBytes);
    await expect(c.fetch(url, { bp: 0, paceBps: 5 })).rejects.toThrow(/paceBps must be/);
  } finally {
    c.close();
  }
  const entries = logged.filter((e) => e.protocol === 'datachannel' && e.path.endsWith('chunk-3-00004.m4s') && e.bp === 0);
  expect(entries.slice(-3).map((e) => e.paceBps)).toEqual([null, 2e6, null]);
}, 60000);

test('bad requests get ERROR frames; garbage frames too; the session and the origin live on', async () => {
  const c = await connectFdsp(origin.urls.fdsp, { bindAddress: '127.0.0.1' });
  try {
    await expect(c.fetch('/content/sample/nope.m4s')).rejects.toMatchObject({ status: 404 });
    // Dot segments: normalised out of /content/ by the URL parser (404), or, encoded with the
    // slash, refused by the origin's path check (400). Never a file outside the content root.
    await expect(c.fetch('/content/%2e%2e/%2e%2e/etc/passwd')).rejects.toMatchObject({ status: 404 });
    await expect(c.fetch('/content/sample/%2e%2e%2f%2e%2e%2fetc/passwd')).rejects.toMatchObject({ status: 400 });
    await expect(c.fetch('/player/index.html')).rejects.toMatchObject({ status: 404 });
    await expect(c.fetch('/content/sample/manifest.mpd', { range: [10000000, 10000010] })).rejects.toMatchObject({ status: 416 });
    for (const bytes of [new Uint8Array([1, 2, 3]), new Uint8Array(20).fill(0xfd), new TextEncoder().encode('GET / HTTP/1.1')]) c.sendRaw(bytes);
    await new Promise((r) => setTimeout(r, 300));
    expect(c.errorsWithoutRequest.length).toBe(3);
    expect(c.errorsWithoutRequest[0]).toMatchObject({ status: 400 });
    // Still serving.
    const ok = await c.fetch('/content/sample/manifest.mpd');
    expect(ok.head.status).toBe(200);
  } finally {
    c.close();
  }
}, 60000);

test('hostile signaling is refused with a reason and the socket closed; limits hold', async () => {
  const talk = (messages) => new Promise((resolve) => {
    const ws = new WebSocket(origin.urls.fdsp);
    const got = [];
    ws.on('open', () => { for (const m of messages) ws.send(m); });
    ws.on('message', (d) => got.push(JSON.parse(String(d))));
    ws.on('close', (code) => resolve({ got, code }));
    ws.on('error', () => {});
  });
  const notJson = await talk(['{oops']);
  expect(notJson.got[0]).toMatchObject({ type: 'error' });
  const badType = await talk([JSON.stringify({ type: 'hello' })]);
  expect(badType.got[0].message).toMatch(/unknown signaling message type "hello"/);
  const early = await talk([JSON.stringify({ type: 'candidate', candidate: 'x', mid: '0' })]);
  expect(early.got[0].message).toMatch(/candidate before offer/);
  const badSdp = await talk([JSON.stringify({ type: 'offer', sdp: 'not sdp' })]);
  expect(badSdp.got[0]).toMatchObject({ type: 'error' });
  // Other paths are not WebSocket endpoints.
  const other = await new Promise((resolve) => {
    const ws = new WebSocket(origin.urls.fdsp.replace('/fdsp', '/elsewhere'));
    ws.on('unexpected-response', (req, res) => resolve(res.statusCode));
    ws.on('error', () => {});
  });
  expect(other).toBe(404);
  // Pairing (two associations): a malformed token, a pairWith nobody asked for, a token taken twice.
  // From another loopback address, so these sessions do not count against the limit checked below.
  const upgrade = (query) => new Promise((resolve) => {
    const ws = new WebSocket(`${origin.urls.fdsp}${query}`, { localAddress: '127.0.0.2' });
    ws.on('open', () => resolve({ ws, status: 101 }));
    ws.on('unexpected-response', (req, res) => resolve({ ws, status: res.statusCode }));
    ws.on('error', () => {});
  });
  expect((await upgrade('?pairToken=nothex')).status).toBe(400);
  expect((await upgrade('?pairToken=0123456789abcdef&pairWith=0123456789abcdef')).status).toBe(400);
  expect((await upgrade('?pairWith=0123456789abcdef')).status).toBe(404);
  const asker = await upgrade('?pairToken=00112233445566ff');
  expect(asker.status).toBe(101);
  expect((await upgrade('?pairToken=00112233445566ff')).status).toBe(409);
  // Another address cannot take a pairWith it did not ask for.
  const stranger = await new Promise((resolve) => {
    const ws = new WebSocket(`${origin.urls.fdsp}?pairWith=00112233445566ff`);
    ws.on('unexpected-response', (req, res) => resolve(res.statusCode));
    ws.on('open', () => { resolve(101); ws.terminate(); });
    ws.on('error', () => {});
  });
  expect(stranger).toBe(404);
  asker.ws.terminate();
  // At most 4 sessions per client address.
  const sockets = await Promise.all(Array.from({ length: 5 }, () => new Promise((resolve) => {
    const ws = new WebSocket(origin.urls.fdsp);
    ws.on('open', () => resolve({ ws, status: 101 }));
    ws.on('unexpected-response', (req, res) => resolve({ ws, status: res.statusCode }));
    ws.on('error', () => {});
  })));
  expect(sockets.map((s) => s.status).sort()).toEqual([101, 101, 101, 101, 429]);
  for (const s of sockets) s.ws.terminate();
  // The origin still answers HTTP.
  const res = await fetch(`${origin.urls.http11}/healthz`);
  expect(res.status).toBe(200);
}, 60000);

test('D5: an unparsable URL in a REQUEST is the client\'s error (400), not the origin\'s (500)', async () => {
  const c = await connectFdsp(origin.urls.fdsp, { bindAddress: '127.0.0.1' });
  try {
    // new URL('http://[') threw, and the responder answered 500 "internal error".
    await expect(c.fetch('http://[')).rejects.toMatchObject({ status: 400 });
    await expect(c.fetch('/content/sample/manifest.mpd')).resolves.toMatchObject({ head: { status: 200 } });
  } finally {
    c.close();
  }
  const entry = logged.filter((e) => e.protocol === 'datachannel' && e.path === 'http://[');
  expect(entry.map((e) => e.status)).toEqual([400]);
}, 60000);

test('D6: a flood of REQUESTs on one session is refused and ends the session; the origin serves on', async () => {
  const frames = require('../../shared/fdsp/frames');
  const c = await connectFdsp(origin.urls.fdsp, { bindAddress: '127.0.0.1' });
  const closed = new Promise((resolve) => c.ws.once('close', (code, reason) => resolve(reason.toString())));
  const before = logged.length;
  try {
    // The probe's 5,000 requests in 5 s were answered one by one (429 once 16 were open, which
    // did not count as misbehaving) and the session lived on.
    for (let id = 1; id <= 5000; id++) {
      try {
        c.reliable.sendMessageBinary(frames.encodeRequest(100000 + id, { url: '/content/sample/manifest.mpd', range: null, bp: 100, deadlineMs: null }));
      } catch {
        break; // the channel closed under us: what the test waits for
      }
      if (id % 500 === 0) await new Promise((r) => setTimeout(r, 500));
    }
    const reason = await Promise.race([closed, new Promise((r) => setTimeout(() => r(null), 15000))]);
    expect(reason).toMatch(/more than 10 malformed or refused frames/);
    // Served at most the burst the session allows, not thousands.
    const served = logged.slice(before).filter((e) => e.protocol === 'datachannel' && e.status === 200).length;
    expect(served).toBeLessThanOrEqual(64);
    // Every frame sent was well-formed, so the close reason's strikes are refusals. The refusals'
    // 429 ERROR frames queue on the reliable channel behind the served responses, and the session
    // may end before they go out: whether the client saw one is a race (CI, 2026-11-26), not a check.
  } finally {
    c.close();
  }
  const res = await fetch(`${origin.urls.http11}/healthz`);
  expect(res.status).toBe(200);
}, 60000);

// The origin's second WebRTC stack (@roamhq/wrtc, origin/datachannel/stacks/wrtc.js) serves FDSP
// like the default one: a node-datachannel client against it gets a segment byte-exact at BP 0 and
// 100, the unreliable pump keeps moving (woken by polling: its bufferedamountlow never fires), and
// garbage gets an ERROR frame.
describe('with the @roamhq/wrtc stack', () => {
  let wrtcOrigin;
  let wrtcData;
  const wrtcLogged = [];
  beforeAll(async () => {
    wrtcData = makeLabTempDir('dc-wrtc');
    wrtcOrigin = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, contentDir: CONTENT, dataDir: wrtcData, webrtcStack: 'wrtc', log: (e) => wrtcLogged.push(e) });
  }, 60000);
  afterAll(async () => {
    if (wrtcOrigin) await wrtcOrigin.close();
    fs.rmSync(wrtcData, { recursive: true, force: true });
  });

  test('byte-exact at BP 0 and 100, segments back to back, garbage refused; /api/info names the stack', async () => {
    const info = await (await fetch(`${wrtcOrigin.urls.http11}/api/info`)).json();
    expect(info.webrtcStack).toBe('wrtc');
    const c = await connectFdsp(wrtcOrigin.urls.fdsp, { bindAddress: '127.0.0.1' });
    try {
      const file = fs.readFileSync(path.join(CONTENT, 'sample', 'chunk-3-00004.m4s'));
      for (const bp of [0, 100]) {
        const r = await c.fetch('/content/sample/chunk-3-00004.m4s', { bp, graceMs: 1000 });
        expect(r.lostChunks).toBe(0);
        expect(Buffer.from(r.bytes).equals(file)).toBe(true);
      }
      for (let n = 1; n <= 5; n++) {
        const r = await c.fetch(`/content/sample/chunk-5-0000${n}.m4s`, { bp: 0, graceMs: 1000 });
        expect(r.end.unreliableSent).toBe(r.head.unreliableChunks);
      }
      c.sendRaw(new Uint8Array([1, 2, 3]));
      await new Promise((r) => setTimeout(r, 300));
      expect(c.errorsWithoutRequest[0]).toMatchObject({ status: 400 });
    } finally {
      c.close();
    }
    expect(wrtcLogged.filter((e) => e.protocol === 'datachannel' && e.path.endsWith('chunk-3-00004.m4s')).map((e) => e.bp)).toEqual([0, 100]);
  }, 120000);
});
