'use strict';
// The QUIC transports through the emulator, as a user runs them (npm run qoe --
// scenarios/quic-smoke): Chromium in the client namespace, the origin (and its QUIC server) in
// the server namespace at 10.77.x.1, 50 ms RTT, 10 Mbit/s, no loss. The runner launches
// Chromium with the flags the transport registry gives for that origin (forced QUIC to the
// namespace address, the pinned certificate, the page's origin treated as secure): without
// them HTTP/3 is refused and WebTransport does not exist on the page. Needs root (CI has it).
const fs = require('node:fs');
const path = require('node:path');
const { ensureContent } = require('../../origin/content/ensure-content');
const { fnv1a32 } = require('../../player/qoe/fnv1a32');
const { runQoeCli } = require('../support/qoe-cli');
const { earliestRoundTripMs } = require('../../testbed/netem/udp-relay');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
const CONTENT = path.join(REPO, 'content', 'sample');
const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('qoe-quic-scenario needs root (network namespaces, TUN): skipped\n');

const fileDigest = (seg) => fnv1a32(fs.readFileSync(path.join(CONTENT, `chunk-${seg.representationId}-${String(seg.index).padStart(5, '0')}.m4s`)));

describeAsRoot('npm run qoe -- scenarios/quic-smoke', () => {
  let tmp;
  const rec = {};
  beforeAll(async () => {
    await ensureContent({ preset: 'sample', contentDir: path.join(REPO, 'content') });
    tmp = makeLabTempDir('quic');
    const r = await runQoeCli(['scenarios/quic-smoke', '--out', path.join(tmp, 'run')]);
    if (r.code !== 0) throw new Error(`qoe exited ${r.code}:\n${r.err.slice(-3000)}`);
    const dir = path.join(tmp, 'run', 'playbacks');
    for (const f of fs.readdirSync(dir)) {
      const x = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
      rec[x.id.replace('.fixed-750k.rtt50.r1', '')] = x;
    }
    for (const [id, x] of Object.entries(rec).sort()) {
      const s = x.qoe.summary;
      const t = s.transport && s.transport.plr !== undefined ? `, PLR ${(100 * s.transport.plr).toFixed(2)} % (${s.transport.lostChunks} lost of ${s.transport.unreliableChunks} unreliable chunks), reliable share ${(100 * s.transport.reliableShare).toFixed(1)} %` : '';
      process.stderr.write(`quic-smoke ${id}: protocols ${JSON.stringify(s.protocols)}, startup ${s.startupDelaySeconds.toFixed(2)} s, rebuffer ${s.rebufferSeconds.toFixed(1)} s${t}, emulator drops ${JSON.stringify(x.counters.toClient.drops)}\n`);
    }
  }, 600000);
  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('all four played through the emulator, each over the protocol it names', () => {
    expect(Object.keys(rec).sort()).toEqual(['h3', 'http11', 'wt-single', 'wt-split']);
    const protocol = { http11: 'http/1.1', h3: 'h3', 'wt-single': 'webtransport', 'wt-split': 'webtransport' };
    for (const [id, x] of Object.entries(rec)) {
      expect(x.status).toBe('ok');
      expect(x.emulated).toBe(true);
      expect(x.qoe.errors).toEqual([]);
      expect(x.qoe.summary.playSeconds).toBeGreaterThan(15);
      expect(Object.keys(x.qoe.summary.protocols)).toEqual([protocol[id]]);
      for (const s of x.qoe.segments) {
        expect(s.protocol).toBe(protocol[id]);
        // The round trip was the emulator's: no first byte sooner than one RTT (less the relay's
        // designed early delivery, EARLY_MS on each of the two legs).
        expect(s.firstByte - s.requestStart).toBeGreaterThanOrEqual(earliestRoundTripMs(50));
      }
    }
    // QUIC is UDP: the link carried the QUIC playbacks' bytes as it did TCP's.
    for (const id of ['h3', 'wt-single', 'wt-split']) expect(rec[id].counters.toClient.bytesOut).toBeGreaterThan(0.8 * rec.http11.counters.toClient.bytesOut);
  });

  test('HTTP/3 got every byte; WebTransport on the clean link lost nothing the emulator did not see dropped, and got the files byte for byte', () => {
    for (const s of rec.h3.qoe.segments) expect(s.fnv1a32).toBe(fileDigest(s));
    for (const id of ['wt-single', 'wt-split']) {
      const { qoe, endpointDrops, counters } = rec[id];
      const t = qoe.summary.transport;
      expect(t.unreliableChunks).toBeGreaterThan(100);
      expect(t.reliableShare).toBeGreaterThan(0);
      expect(t.reliableShare).toBeLessThan(1);
      // The clean link drops nothing itself; a chunk that never came must have been dropped by
      // a socket or device outside it (counted per playback) or by its queue.
      const outside = endpointDrops.client.udp.RcvbufErrors + endpointDrops.client.tun.txDropped + endpointDrops.host.udp.RcvbufErrors;
      const queue = Object.values(counters.toClient.drops).reduce((a, b) => a + b, 0);
      expect(t.lostChunks - t.lateChunks).toBeLessThanOrEqual(outside + queue);
      expect(t.plr).toBeLessThan(0.01);
      for (const s of qoe.segments) if (s.lostChunks === 0) expect(s.fnv1a32).toBe(fileDigest(s));
      expect(qoe.segments.filter((s) => s.lostChunks === 0).length).toBeGreaterThanOrEqual(qoe.segments.length - 2);
    }
  });

  test('each WebTransport response says which carrier and congestion controllers carried it', () => {
    const single = rec['wt-single'].qoe;
    const split = rec['wt-split'].qoe;
    expect(single.config).toMatchObject({ carrier: 'single', reliableCc: 'cubic', unreliableCc: 'cubic', fixedRateKbps: null });
    // The sample's top rung (4.5 Mbit/s) x 1.2.
    expect(split.config).toMatchObject({ carrier: 'split', reliableCc: 'cubic', unreliableCc: 'fixed', fixedRateKbps: 5400 });
    for (const s of single.segments) expect([s.carrier, s.reliableCc, s.unreliableCc]).toEqual(['single', 'cubic', 'cubic']);
    for (const s of split.segments) expect([s.carrier, s.reliableCc, s.unreliableCc]).toEqual(['split', 'cubic', 'fixed']);
    expect(fs.readFileSync(path.join(tmp, 'run', 'report.md'), 'utf8')).toContain('not TCP-friendly (emulated links only)');
  });
});
