'use strict';
// The QUIC transports in Debian's Chromium against the origin's QUIC server (origin/quic), on
// loopback: `h3` plays the sample with every response carried by HTTP/3 (nextHopProtocol),
// and FDSP over WebTransport plays it at BP 100 and BP 0 on one session and split over two
// (the datagrams on a fixed-rate session), through the same client core as the DataChannel.
// Chromium gets its flags from the transport registry for this origin (runPlayback's
// originInfo: forced QUIC and the pinned certificate for h3).
const fs = require('node:fs');
const path = require('node:path');
const { startOrigin } = require('../../origin/start-origin');
const { ensureContent } = require('../../origin/content/ensure-content');
const { fnv1a32 } = require('../../player/qoe/fnv1a32');
const { runPlayback } = require('../../testbed/run-playback');
const { parseUdpCounters } = require('../../testbed/netem/endpoint-drops');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const CONTENT_DIR = path.join(__dirname, '..', '..', 'content');
const fileDigest = (seg) => fnv1a32(fs.readFileSync(path.join(CONTENT_DIR, 'sample', `chunk-${seg.representationId}-${String(seg.index).padStart(5, '0')}.m4s`)));
let origin;
let dataDir;
const logged = [];

beforeAll(async () => {
  await ensureContent({ preset: 'sample', contentDir: CONTENT_DIR });
  dataDir = makeLabTempDir('quic-e2e');
  origin = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, h3Port: 0, contentDir: CONTENT_DIR, dataDir, log: (e) => logged.push(e) });
}, 300000);
afterAll(async () => {
  if (origin) await origin.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const play = (config) => runPlayback({ pageBase: origin.urls.http11, originInfo: origin, config: { content: 'sample', abr: 'bba2', stopAt: 16, ...config }, timeoutMs: 90000 });

test('h3: every response came over HTTP/3, byte for byte, and the origin logged them as h3', async () => {
  const before = logged.length;
  const { qoe, pageErrors } = await play({ transport: 'h3' });
  expect(pageErrors).toEqual([]);
  expect(qoe.errors).toEqual([]);
  expect(qoe.summary.playSeconds).toBeGreaterThan(12);
  expect(Object.keys(qoe.summary.protocols)).toEqual(['h3']);
  expect(Object.keys(qoe.summary.bytesPerTransport)).toEqual(['h3']);
  expect(qoe.segments.length).toBeGreaterThan(4);
  for (const s of qoe.segments) {
    expect(s.protocol).toBe('h3');
    expect(s.fnv1a32).toBe(fileDigest(s));
  }
  const media = logged.slice(before).filter((e) => /chunk-/.test(e.path) && !e.aborted);
  expect(media.length).toBeGreaterThanOrEqual(qoe.segments.length);
  expect(new Set(media.map((e) => e.protocol))).toEqual(new Set(['h3']));
}, 120000);

const udpCounters = () => parseUdpCounters(fs.readFileSync('/proc/net/snmp', 'utf8'));
// Packets the kernel dropped before any socket (backlog full): the second column of each CPU's
// line, in hex. Printed beside the socket drops so a failing run records both.
const softnetBacklogDrops = () => fs.readFileSync('/proc/net/softnet_stat', 'utf8').trim().split('\n')
  .reduce((sum, line) => sum + parseInt(line.trim().split(/\s+/)[1], 16), 0);

// WebTransport: the segments split by part, FDSP's accounting, and the carrier on each one.
async function playWebTransport(options) {
  const before = logged.length;
  const udpBefore = udpCounters();
  const softnetBefore = softnetBacklogDrops();
  const { qoe, pageErrors } = await play({ transport: 'webtransport', ...options });
  const udpAfter = udpCounters();
  const socketDrops = udpAfter.RcvbufErrors - udpBefore.RcvbufErrors;
  const otherUdpErrors = (udpAfter.InErrors - udpBefore.InErrors) - socketDrops;
  const softnetDrops = softnetBacklogDrops() - softnetBefore;
  expect(pageErrors).toEqual([]);
  expect(qoe.errors).toEqual([]);
  const s = qoe.summary;
  expect(s.playSeconds).toBeGreaterThan(12);
  expect(Object.keys(s.protocols)).toEqual(['webtransport']);
  const t = s.transport;
  expect(t.bp).toBe(options.bp);
  expect(t.requests).toBeGreaterThanOrEqual(qoe.segments.length);
  expect(t.unreliableChunks).toBeGreaterThan(100);
  expect(t.reliableShare).toBeGreaterThan(0);
  expect(t.reliableShare).toBeLessThan(1);
  expect(t.plr).toBeCloseTo(t.lostChunks / t.packets, 12);
  // Loopback drops nothing, but a UDP socket's receive buffer can overflow: unpaced (pace off),
  // under cubic the origin sends a whole segment's datagrams at memory speed (quinn paces at
  // cwnd / RTT, and the RTT is ~0.1 ms), and Chromium's QUIC socket (2 MB of buffer, ~2.5 KB a
  // packet) then drops some (seen: 3-4 % of chunks at BP 100 on a busy machine, before the
  // default pace; none at the split carrier's paced 5.4 Mbit/s). Every chunk that never came
  // must be such a drop on this host, never the transport's doing. The counter is the host's:
  // other processes' drops only loosen the bound.
  process.stderr.write(`webtransport ${JSON.stringify(options)}: ${t.lostChunks} of ${t.unreliableChunks} chunks lost (${t.lateChunks} late), ${socketDrops} UDP receive-buffer drops on the host (other UDP input errors ${otherUdpErrors}, softnet backlog drops ${softnetDrops})\n`);
  // A few more go missing than the host counted, all on the unpaced cubic session, none on the
  // paced ones: 7-11 of ~28,000 in three runs, at most 7 in five more, and 35 of 29,290 (0.12 %) in
  // one CI run on a loaded machine with 939 socket drops (a 0.1 % margin failed it). Not yet
  // attributed; the excess grew with the drops, which fits one candidate: at BP 0 the
  // unreliable parts can end in short chunks, quinn can pack two such datagrams into a packet,
  // and one socket drop then loses both. In five later local runs (unattributed 7, 0, 3, -2, 3
  // beside 367-868 drops) softnet backlog drops and UDP memory errors were 0; the failing CI
  // run's counters were not recorded (the line printed above records them now), so those two
  // are ruled out only where they were read.
  // So the margin is 0.3 % of the chunks (~2.5x the worst seen), and anything beyond it fails.
  expect(t.lostChunks - t.lateChunks).toBeLessThanOrEqual(socketDrops + Math.ceil(0.003 * t.unreliableChunks));
  // A segment with nothing lost is the file, byte for byte (and the small early ones are).
  expect(qoe.segments.filter((seg) => seg.lostChunks === 0).length).toBeGreaterThan(0);
  for (const seg of qoe.segments) {
    expect(seg.protocol).toBe('webtransport');
    expect(seg.bp).toBe(options.bp);
    expect(seg.reliableBytes).toBeGreaterThan(0);
    expect(seg.reliableBytes + seg.unreliableBytes).toBe(seg.bytes);
    if (seg.lostChunks === 0) expect(seg.fnv1a32).toBe(fileDigest(seg));
  }
  const media = logged.slice(before).filter((e) => /chunk-/.test(e.path));
  expect(media.length).toBeGreaterThanOrEqual(qoe.segments.length);
  return { qoe, media };
}

test('webtransport, one session, BP 100: plays through the FDSP core, every response on the cubic session, its datagrams paced', async () => {
  const { qoe, media } = await playWebTransport({ bp: 100 });
  // The default pace: the sample's top rung, 4.5 Mbit/s, x 1.5, asked with every request.
  expect(qoe.config).toMatchObject({ bp: 100, paceBps: 6750000, carrier: 'single', reliableCc: 'cubic', unreliableCc: 'cubic' });
  expect(new Set(media.map((e) => e.paceBps))).toEqual(new Set([6750000]));
  for (const seg of qoe.segments) expect([seg.carrier, seg.reliableCc, seg.unreliableCc]).toEqual(['single', 'cubic', 'cubic']);
  expect(new Set(media.map((e) => e.protocol))).toEqual(new Set(['webtransport']));
  expect(new Set(media.map((e) => e.bp))).toEqual(new Set([100]));
}, 120000);

test('webtransport, one session, BP 0, pace off: less goes reliably than at BP 100; the origin paces nothing', async () => {
  const { qoe, media } = await playWebTransport({ bp: 0, pace: 'off' });
  expect(qoe.summary.transport.reliableShare).toBeLessThan(0.2);
  expect(qoe.config.paceBps).toBeNull();
  expect(new Set(media.map((e) => e.paceBps))).toEqual(new Set([null]));
  expect(new Set(media.map((e) => e.bp))).toEqual(new Set([0]));
}, 120000);

test('webtransport split: requests and reliable frames on a cubic session, the datagrams on a paired fixed-rate one', async () => {
  const { qoe, media } = await playWebTransport({ bp: 100, carrier: 'split' });
  // The sample's top rung, 4.5 Mbit/s, x the default margin 1.2.
  expect(qoe.config).toMatchObject({ carrier: 'split', reliableCc: 'cubic', unreliableCc: 'fixed', fixedRateKbps: 5400 });
  for (const seg of qoe.segments) expect([seg.carrier, seg.reliableCc, seg.unreliableCc]).toEqual(['split', 'cubic', 'fixed']);
  // The origin's side of the pairing: each response's reliable and unreliable sessions' cc.
  expect(new Set(media.map((e) => JSON.stringify([e.reliableCc, e.unreliableCc])))).toEqual(new Set([JSON.stringify(['cubic', 'fixed'])]));
}, 120000);
