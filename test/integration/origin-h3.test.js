'use strict';
// The origin's HTTP/3 + WebTransport listener (quic-origin + its Node halves) with real
// Chromium: byte-exact h3 responses with nextHopProtocol "h3", Range and 416, hostile paths
// refused, the request log naming the QUIC connection and peer; FDSP over a WebTransport
// session (stream + datagrams) byte-exact; garbage on the session ends that session only; the
// QUIC process ends with the origin.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { startOrigin } = require('../../origin/start-origin');
const { ensureContent } = require('../../origin/content/ensure-content');
const { launchChromium } = require('../../testbed/chromium');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const CONTENT = path.join(__dirname, '..', '..', 'content');
const SECRET = 'outside-the-root-secret';
let tmp;
let origin;
let chromium;
let page;
const logged = [];

const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  await ensureContent({ preset: 'sample', contentDir: CONTENT });
  tmp = makeLabTempDir('h3');
  // A secret beside the content root, and a link to it inside: neither may be served.
  fs.writeFileSync(path.join(tmp, 'secret.txt'), SECRET);
  const playerDir = path.join(tmp, 'player');
  fs.mkdirSync(playerDir);
  fs.writeFileSync(path.join(playerDir, 'index.html'), '<!doctype html><title>h3 test</title>');
  origin = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, h3Port: 0, contentDir: CONTENT, playerDir, dataDir: path.join(tmp, 'data'), log: (e) => logged.push(e) });
  if (!origin.urls.h3) throw new Error(`no h3 listener: ${JSON.stringify(origin.unavailable)}`);
  const { host } = new URL(origin.urls.h3);
  chromium = await launchChromium({ args: ['--enable-quic', `--origin-to-force-quic-on=${host}`, `--ignore-certificate-errors-spki-list=${origin.spkiSha256}`], timeoutMs: 120000 });
  page = chromium.page;
  // http://127.0.0.1 is a secure context: WebTransport is allowed from it.
  await page.goto(`${origin.urls.http11}/`);
}, 300000);

afterAll(async () => {
  if (chromium) await chromium.close();
  if (origin) await origin.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('h3 serves segments, MPDs and ranges byte-exact over HTTP/3, 416 past the end, with the request log naming the QUIC peer', async () => {
  const file = 'content/sample/chunk-3-00004.m4s';
  const onDisk = fs.readFileSync(path.join(CONTENT, 'sample', 'chunk-3-00004.m4s'));
  const r = await page.evaluate(async ({ base, file }) => {
    const hex = async (buf) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', buf))].map((b) => b.toString(16).padStart(2, '0')).join('');
    // no-store: each answer must come from the origin, not from what the browser kept.
    const whole = await fetch(`${base}/${file}`, { cache: 'no-store' });
    const wholeBytes = await whole.arrayBuffer();
    const part = await fetch(`${base}/${file}`, { cache: 'no-store', headers: { Range: 'bytes=100-1099' } });
    const partBytes = await part.arrayBuffer();
    const past = await fetch(`${base}/${file}`, { cache: 'no-store', headers: { Range: 'bytes=999999999-' } });
    const mpd = await fetch(`${base}/content/sample/manifest.mpd`, { cache: 'no-store' });
    const mpdText = await mpd.text();
    const protocols = performance.getEntriesByType('resource').filter((e) => e.name.startsWith(base)).map((e) => e.nextHopProtocol);
    return {
      status: whole.status, length: wholeBytes.byteLength, sha: await hex(wholeBytes), type: whole.headers.get('content-type'),
      partStatus: part.status, partSha: await hex(partBytes), partLength: partBytes.byteLength,
      pastStatus: past.status, mpdStatus: mpd.status, mpdStart: mpdText.slice(0, 40), protocols,
    };
  }, { base: origin.urls.h3, file });
  expect(r.status).toBe(200);
  expect(r.length).toBe(onDisk.length);
  expect(r.sha).toBe(sha256(onDisk));
  expect(r.partStatus).toBe(206);
  expect(r.partLength).toBe(1000);
  expect(r.partSha).toBe(sha256(onDisk.subarray(100, 1100)));
  expect(r.pastStatus).toBe(416);
  expect(r.mpdStatus).toBe(200);
  expect(r.mpdStart).toMatch(/<\?xml|<MPD/);
  // Every response came over HTTP/3: a silent fall back to h2 would show here.
  expect(r.protocols.length).toBeGreaterThanOrEqual(3);
  expect(new Set(r.protocols)).toEqual(new Set(['h3']));
  await origin.flushLog();
  const lines = logged.filter((e) => e.listener === 'h3' && e.path === `/${file}`);
  expect(lines.length).toBeGreaterThanOrEqual(3);
  for (const e of lines) {
    expect(e.protocol).toBe('h3');
    expect(e.connectionId).toMatch(/^h3-\d+$/);
    expect(Number.isInteger(e.streamId)).toBe(true);
    expect(e.peer).toMatch(/^127\.0\.0\.1:\d+$/);
  }
  expect(lines.map((e) => e.status).sort()).toEqual([200, 206, 416]);
}, 60000);

test('h3 refuses paths outside the content root', async () => {
  fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(CONTENT, 'sample', 'h3-test-link.m4s'));
  try {
    const r = await page.evaluate(async (base) => {
      const out = [];
      // What a browser can put on the wire (it folds "." and ".." segments, not %2f).
      for (const p of ['/content/sample/h3-test-link.m4s', '/content/..%2f..%2fsecret.txt', '/content/sample/%2e%2e%2f%2e%2e%2fpackage.json', '/content/%00', '/etc/passwd', '/content/sample/..%5c..%5cpackage.json']) {
        const res = await fetch(base + p, { cache: 'no-store' }).catch((e) => ({ status: `error ${e.message}`, text: async () => '' }));
        out.push({ p, status: res.status, body: (await res.text()).slice(0, 200) });
      }
      return out;
    }, origin.urls.h3);
    for (const x of r) {
      expect([400, 403, 404, 405]).toContain(x.status);
      expect(x.body).not.toContain(SECRET);
      expect(x.body).not.toContain('"dependencies"');
    }
  } finally {
    fs.unlinkSync(path.join(CONTENT, 'sample', 'h3-test-link.m4s'));
  }
}, 60000);

/** In the page: one WebTransport session speaking FDSP (stream messages [u32 len][frame], datagrams). */
async function fdspOverWebTransport(pageRef, { url, certSha256Hex, file, bp, garbage = false }) {
  return pageRef.evaluate(async ({ url, certSha256Hex, file, bp, garbage }) => {
    const hash = new Uint8Array(certSha256Hex.match(/../g).map((h) => parseInt(h, 16)));
    const wt = new WebTransport(url, { serverCertificateHashes: [{ algorithm: 'sha-256', value: hash }] });
    await wt.ready;
    const closed = wt.closed.then((info) => ({ how: 'closed', ...info }), (err) => ({ how: 'error', message: String(err && err.message) }));
    const stream = await wt.createBidirectionalStream();
    const writer = stream.writable.getWriter();
    const message = (frame) => {
      const out = new Uint8Array(4 + frame.length);
      new DataView(out.buffer).setUint32(0, frame.length);
      out.set(frame, 4);
      return out;
    };
    const request = (id, payload) => {
      const json = new TextEncoder().encode(JSON.stringify(payload));
      const f = new Uint8Array(12 + json.length);
      f.set([0xfd, 1, 1, 0]);
      new DataView(f.buffer).setUint32(4, id);
      f.set(json, 12);
      return f;
    };
    const frames = [];
    const datagrams = [];
    (async () => {
      const reader = wt.datagrams.readable.getReader();
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ done: true }));
        if (done) return;
        datagrams.push(value);
      }
    })();
    let pending = new Uint8Array(0);
    const reader = stream.readable.getReader();
    const readFrame = async () => {
      for (;;) {
        if (pending.length >= 4) {
          const n = new DataView(pending.buffer, pending.byteOffset).getUint32(0);
          if (pending.length >= 4 + n) {
            const f = pending.slice(4, 4 + n);
            pending = pending.slice(4 + n);
            return f;
          }
        }
        const { value, done } = await reader.read();
        if (done) return null;
        const next = new Uint8Array(pending.length + value.length);
        next.set(pending);
        next.set(value, pending.length);
        pending = next;
      }
    };
    if (garbage) {
      // Not a frame: bad magic, then a length far over the limit.
      await writer.write(message(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])));
      const err = await readFrame();
      await writer.write(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0]));
      const result = await Promise.race([closed, new Promise((r) => setTimeout(() => r({ how: 'still open' }), 10000))]);
      return { firstReply: err ? { type: err[2], text: new TextDecoder().decode(err.slice(12)) } : null, result };
    }
    await writer.write(message(request(7, { url: file, range: null, bp, deadlineMs: null })));
    let head = null;
    let end = null;
    const body = [];
    for (;;) {
      const f = await readFrame();
      if (!f) break;
      const type = f[2];
      const offset = new DataView(f.buffer, f.byteOffset).getUint32(8);
      if (type === 16) head = JSON.parse(new TextDecoder().decode(f.slice(12)));
      else if (type === 17) body.push({ offset, bytes: f.slice(12) });
      else if (type === 18) { end = JSON.parse(new TextDecoder().decode(f.slice(12))); break; }
      else if (type === 19) return { error: new TextDecoder().decode(f.slice(12)) };
    }
    // END follows the last datagram handed to the carrier: give the last ones time to land.
    await new Promise((r) => setTimeout(r, 500));
    const whole = new Uint8Array(head.totalBytes);
    let reliableBytes = 0;
    for (const d of body) { whole.set(d.bytes, d.offset); reliableBytes += d.bytes.length; }
    let maxDatagram = 0;
    for (const g of datagrams) {
      maxDatagram = Math.max(maxDatagram, g.length);
      const offset = new DataView(g.buffer, g.byteOffset).getUint32(8);
      whole.set(g.slice(12), offset);
    }
    const sha = [...new Uint8Array(await crypto.subtle.digest('SHA-256', whole))].map((b) => b.toString(16).padStart(2, '0')).join('');
    wt.close({ closeCode: 0, reason: 'done' });
    return { head, end, reliableBytes, datagrams: datagrams.length, maxDatagram, maxDatagramSize: wt.datagrams.maxDatagramSize, sha };
  }, { url, certSha256Hex, file, bp, garbage });
}

test('FDSP over WebTransport: the reliable part on the stream, the rest in datagrams, byte-exact at BP 100 and BP 0', async () => {
  const file = '/content/sample/chunk-3-00004.m4s';
  const onDisk = fs.readFileSync(path.join(CONTENT, 'sample', 'chunk-3-00004.m4s'));
  const all = await fdspOverWebTransport(page, { url: origin.urls.webtransport, certSha256Hex: origin.certSha256Hex, file, bp: 100 });
  expect(all.error).toBeUndefined();
  expect(all.head.totalBytes).toBe(onDisk.length);
  expect(all.reliableBytes).toBe(all.head.reliableBytes);
  expect(all.datagrams).toBe(all.head.unreliableChunks);
  expect(all.sha).toBe(sha256(onDisk));

  const split = await fdspOverWebTransport(page, { url: origin.urls.webtransport, certSha256Hex: origin.certSha256Hex, file, bp: 0 });
  expect(split.error).toBeUndefined();
  expect(split.head.unreliableChunks).toBeGreaterThan(all.head.unreliableChunks);
  expect(split.reliableBytes).toBe(split.head.reliableBytes);
  expect(split.end.unreliableSent).toBe(split.head.unreliableChunks);
  // Loopback loses nothing: every datagram arrived, each within the path's datagram limit.
  expect(split.datagrams).toBe(split.head.unreliableChunks);
  expect(split.maxDatagram).toBeLessThanOrEqual(split.maxDatagramSize);
  expect(split.sha).toBe(sha256(onDisk));
  await origin.flushLog();
  const wtLines = logged.filter((e) => e.protocol === 'webtransport' && e.path === file);
  expect(wtLines).toHaveLength(2);
  for (const e of wtLines) {
    expect(e).toMatchObject({ listener: 'h3', status: 200, reliableCc: 'cubic', unreliableCc: 'cubic', carrier: 'single' });
    expect(e.peer).toMatch(/^127\.0\.0\.1:\d+$/);
  }
}, 60000);

test('garbage on a WebTransport session ends that session with an ERROR first; the origin and other listeners serve on', async () => {
  const r = await fdspOverWebTransport(page, { url: origin.urls.webtransport, certSha256Hex: origin.certSha256Hex, file: null, bp: 0, garbage: true });
  expect(r.firstReply.type).toBe(19); // ERROR for the frame with a bad magic byte
  expect(r.firstReply.text).toMatch(/bad-magic/);
  // The length far over the limit cannot be read past: the session is closed.
  expect(r.result.how).not.toBe('still open');
  const health = await fetch(`${origin.urls.http11}/healthz`);
  expect(health.status).toBe(200);
  const again = await fdspOverWebTransport(page, { url: origin.urls.webtransport, certSha256Hex: origin.certSha256Hex, file: '/content/sample/manifest.mpd', bp: 100 });
  expect(again.head.status).toBe(200);
}, 60000);

test('the QUIC process ends with the origin', async () => {
  const other = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, h3Port: 0, contentDir: CONTENT, dataDir: path.join(tmp, 'data2') });
  const pid = other.childPids.h3;
  expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain('quic-origin');
  expect(alive(pid)).toBe(true);
  await other.close();
  expect(alive(pid)).toBe(false);
}, 60000);
