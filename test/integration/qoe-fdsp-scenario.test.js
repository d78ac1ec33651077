'use strict';
// The DataChannel (FDSP) transport through the emulator, as a user runs it
// (npm run qoe -- scenarios/fdsp-smoke): Chromium in the client namespace, the origin's
// libdatachannel peer in the server namespace, 100 ms RTT, clean and with 2 % loss both ways.
// Issue 5's evidence: on the clean link PLR is 0 and every segment the player got is byte for
// byte the file HTTP/1.1 serves; at 2 % loss BP 0 loses media and keeps playing, and BP 100
// exposes fewer packets to the loss than BP 0. Needs root (CI has it).
const fs = require('node:fs');
const path = require('node:path');
const { ensureContent } = require('../../origin/content/ensure-content');
const { fnv1a32 } = require('../../player/qoe/fnv1a32');
const { fdspMediaLoss } = require('../../player/qoe/fdsp-media-loss');
const { runQoeCli } = require('../support/qoe-cli');
const { earliestRoundTripMs } = require('../../testbed/netem/udp-relay');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
const CONTENT = path.join(REPO, 'content', 'sample');
const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('qoe-fdsp-scenario needs root (network namespaces, TUN): skipped\n');

const digests = new Map();
function fileDigest(seg) {
  const file = path.join(CONTENT, `chunk-${seg.representationId}-${String(seg.index).padStart(5, '0')}.m4s`);
  if (!digests.has(file)) digests.set(file, fnv1a32(fs.readFileSync(file)));
  return digests.get(file);
}

describeAsRoot('npm run qoe -- scenarios/fdsp-smoke', () => {
  let tmp;
  const rec = {};
  beforeAll(async () => {
    await ensureContent({ preset: 'sample', contentDir: path.join(REPO, 'content') });
    tmp = makeLabTempDir('fdsp');
    const r = await runQoeCli(['scenarios/fdsp-smoke', '--out', path.join(tmp, 'run'), '--no-report']);
    if (r.code !== 0) throw new Error(`qoe exited ${r.code}:\n${r.err.slice(-3000)}`);
    const dir = path.join(tmp, 'run', 'playbacks');
    for (const f of fs.readdirSync(dir)) {
      const x = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
      rec[x.id.replace('.fixed-300k', '').replace('.r1', '')] = x;
    }
    // The figures, for whoever reads the CI log.
    for (const [id, x] of Object.entries(rec).sort()) {
      const s = x.qoe.summary;
      const m = fdspMediaLoss(x.qoe.segments);
      const t = m ? `, PLR ${(100 * s.transport.plr).toFixed(2)} % (${s.transport.lostChunks} lost, ${s.transport.lateChunks} late: ${s.transport.lateChunksAfterEnd} after END's grace, ${s.transport.lateChunksAfterDeadline} after a deadline; ${m.deadlineStops} deadline stops cutting ${m.deadlineLostChunks}), in full segments PLR ${m.networkPlr === null ? '-' : (100 * m.networkPlr).toFixed(2)} % (chunk loss ${m.networkChunkLoss === null ? '-' : (100 * m.networkChunkLoss).toFixed(2)} %, exposure ${(100 * m.exposure).toFixed(1)} %), reliable share ${(100 * s.transport.reliableShare).toFixed(1)} %` : '';
      process.stderr.write(`fdsp-smoke ${id}: rebuffer ${s.rebufferSeconds.toFixed(1)} s (${s.rebufferInstances}x)${t}, emulator drops ${JSON.stringify(x.counters.toClient.drops)}, client socket drops ${x.endpointDrops ? x.endpointDrops.client.udp.RcvbufErrors : '?'}\n`);
    }
  }, 900000);
  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('all six playbacks ran through the emulator and played', () => {
    expect(Object.keys(rec).sort()).toEqual([
      'fdsp-bp0.rtt100', 'fdsp-bp0.rtt100-loss2', 'fdsp-bp100.rtt100', 'fdsp-bp100.rtt100-loss2', 'http11.rtt100', 'http11.rtt100-loss2']);
    for (const x of Object.values(rec)) {
      expect(x.status).toBe('ok');
      expect(x.emulated).toBe(true);
      expect(x.qoe.summary.playSeconds).toBeGreaterThan(20);
      expect(x.qoe.segments.length).toBeGreaterThanOrEqual(10);
      // The emulator saw the round trip: no segment's first byte came sooner than one RTT (less
      // the relay's designed early delivery, EARLY_MS on each of the two legs).
      for (const s of x.qoe.segments) expect(s.firstByte - s.requestStart).toBeGreaterThanOrEqual(earliestRoundTripMs(100));
    }
  });

  test('clean link: no loss but drops counted outside the emulator, and every whole segment is the file HTTP/1.1 serves, byte for byte', () => {
    const http = rec['http11.rtt100'].qoe.segments;
    for (const s of http) expect(s.fnv1a32).toBe(fileDigest(s));
    for (const id of ['fdsp-bp0.rtt100', 'fdsp-bp100.rtt100']) {
      const { qoe, endpointDrops } = rec[id];
      const t = qoe.summary.transport;
      expect(t.unreliableChunks).toBeGreaterThan(100);
      // The emulator drops nothing here, but Chromium's WebRTC UDP socket (64 KiB receive
      // buffer) can overflow when the machine is busy (CI once lost 2 of ~4700 chunks so).
      // Such drops are counted per playback; a chunk lost on the clean link must be one of
      // them, never the transport's own doing. A chunk that came after its segment was handed
      // over (late) did arrive: only those that never came need a drop to explain them. (One
      // run saw 37 late chunks at BP 100 on this clean link, none dropped; the log line above
      // now says whether such chunks came after a deadline stop or after END's grace.)
      const outside = endpointDrops.client.udp.RcvbufErrors + endpointDrops.client.tun.txDropped + endpointDrops.host.udp.RcvbufErrors;
      if (t.lostChunks - t.lateChunks > 0) expect(outside).toBeGreaterThan(0);
      expect(t.plr).toBeLessThan(0.01);
      for (const s of qoe.segments) {
        expect(s.protocol).toBe('datachannel');
        if (s.lostChunks === 0) expect(s.fnv1a32).toBe(fileDigest(s));
      }
      // Whole segments are the rule, not the exception.
      expect(qoe.segments.filter((s) => s.lostChunks === 0).length).toBeGreaterThanOrEqual(qoe.segments.length - 2);
    }
  });

  test('2 % loss: BP 0 loses media and keeps playing; BP 100 exposes less of it to the loss', () => {
    const bp0 = rec['fdsp-bp0.rtt100-loss2'].qoe;
    const bp100 = rec['fdsp-bp100.rtt100-loss2'].qoe;
    expect(bp0.summary.transport.plr).toBeGreaterThan(0);
    expect(bp0.summary.playSeconds).toBeGreaterThan(20);
    // PLR = (loss per unreliable chunk) x (share of packets sent unreliably). BP moves only the
    // second factor, and in the sample I-slice data is ~10 % of the packets, so BP 100's
    // expected PLR is ~10 % below BP 0's: less than the binomial noise of one 30 s playback
    // (~1000-5000 packets at 2 %: +-10-20 %), and deadline stops add jumps of dozens of chunks
    // (CI once saw BP 100 at 2.8 % against BP 0's 2.0 %). One run cannot order the two PLRs;
    // it can show both factors: fewer packets exposed at BP 100, and on segments waited for in
    // full, unreliable chunks lost at the network's rate, whatever the BP.
    const loss0 = fdspMediaLoss(bp0.segments);
    const loss100 = fdspMediaLoss(bp100.segments);
    expect(loss100.exposure).toBeLessThan(loss0.exposure);
    for (const m of [loss0, loss100]) {
      expect(m.networkChunkLoss).toBeGreaterThan(0.005);
      expect(m.networkChunkLoss).toBeLessThan(0.05);
    }
    // BP 100 sends all I-slice data reliably: a larger reliable share than BP 0.
    expect(bp100.summary.transport.reliableShare).toBeGreaterThan(bp0.summary.transport.reliableShare);
    // A segment with lost chunks differs from the file (zeros in place of the lost bytes) and
    // was still played: the decoder concealed it rather than stopping.
    const damaged = bp0.segments.filter((s) => s.lostChunks > 0);
    expect(damaged.length).toBeGreaterThan(0);
    for (const s of damaged) expect(s.fnv1a32).not.toBe(fileDigest(s));
    // TCP retransmits: HTTP/1.1 got every byte in spite of the loss.
    for (const s of rec['http11.rtt100-loss2'].qoe.segments) expect(s.fnv1a32).toBe(fileDigest(s));
  });
});
