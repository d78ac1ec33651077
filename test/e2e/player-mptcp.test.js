'use strict';
// The sample plays over Multipath TCP in Chromium through two emulated paths: the origin in the
// server namespace and Chromium in the client namespace both under mptcpize, MPTCP endpoints set
// for both paths (testbed/netem/mptcp.js). The connections are MP_CAPABLE, grow a subflow on
// path 1 (MP_JOIN), and both paths carry media. Needs root (CI has it).
const fs = require('node:fs');
const path = require('node:path');
const { createEmulatedLink } = require('../../testbed/netem/namespace-link');
const { enableMptcp, mptcpCounters } = require('../../testbed/netem/mptcp');
const { tcpSockets, byPath } = require('../../testbed/netem/tcp-subflows');
const { startOriginInNamespace } = require('../../testbed/runner/origin-in-namespace');
const { runPlayback } = require('../../testbed/run-playback');
const { ensureContent } = require('../../origin/content/ensure-content');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
const isRoot = process.getuid() === 0;
const testAsRoot = isRoot ? test : test.skip;
if (!isRoot) process.stderr.write('player-mptcp needs root (network namespaces, TUN): skipped\n');

// Two paths of 3 Mbit/s: the sample's top rung (4.5 Mbit/s) fits only in both together.
const PATH = (delayMs) => ({ toClient: { delayMs, rate: 3e6, queueLimitBytes: 60000 }, toServer: { delayMs } });

let link = null;
let origin = null;
let tmp = null;
afterAll(async () => {
  if (origin) await origin.close();
  if (link) await link.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

testAsRoot('the sample plays over MPTCP in Chromium, its media on both paths', async () => {
  await ensureContent({ preset: 'sample', contentDir: path.join(REPO, 'content') });
  tmp = makeLabTempDir('mptcp');
  link = await createEmulatedLink({ index: 215, ...PATH(10), extraPaths: [PATH(20)] });
  enableMptcp(link);
  origin = await startOriginInNamespace({ netns: link.serverNs, host: link.serverIp, contentDir: path.join(REPO, 'content'), dataDir: path.join(tmp, 'data'), logFile: path.join(tmp, 'requests.ndjson'), mptcp: true });
  const before = mptcpCounters(link.serverNs);
  let start = null;
  // The origin's TCP sockets while Chromium holds its connections (ss -tin): a subflow per path.
  let sockets = [];
  const watch = setInterval(() => {
    const now = tcpSockets(link.serverNs).filter((x) => x.state === 'ESTAB');
    if (now.length) sockets = now;
  }, 2000);
  const played = await runPlayback({
    pageBase: origin.pageBase,
    originInfo: origin.info,
    netns: link.clientNs,
    mptcp: true,
    config: { content: 'sample', transport: 'http11', abr: 'basic', stopAt: 24 },
    timeoutMs: 120000,
    beforeStart: async () => { start = await Promise.all(link.paths.map((p) => p.counters())); },
  });
  clearInterval(watch);
  const end = await Promise.all(link.paths.map((p) => p.counters()));
  const perPath = byPath(sockets, link.paths);
  const after = mptcpCounters(link.serverNs);
  const bytes = end.map((c, k) => c.toClient.bytesOut - start[k].toClient.bytesOut);
  const s = played.qoe.summary;
  process.stderr.write(`mptcp playback: ${JSON.stringify(bytes)} bytes down per path, bitrate ${(s.averagePlaybackBitrate / 1e6).toFixed(2)} Mbit/s, MP_CAPABLE ${after.MPTcpExtMPCapableSYNRX - (before.MPTcpExtMPCapableSYNRX || 0)}, MP_JOIN ${after.MPTcpExtMPJoinAckRx - (before.MPTcpExtMPJoinAckRx || 0)}, fallbacks ${after.MPTcpExtMPCapableFallbackACK - (before.MPTcpExtMPCapableFallbackACK || 0)}; sockets by path ${JSON.stringify(perPath)}\n`);
  expect(played.qoe.errors).toEqual([]);
  expect(s.playSeconds).toBeGreaterThan(20);
  expect(Object.keys(s.protocols)).toEqual(['http/1.1']);
  // Chromium's connections (page, index, media) were MPTCP, and joined path 1.
  expect(after.MPTcpExtMPCapableSYNRX - (before.MPTcpExtMPCapableSYNRX || 0)).toBeGreaterThanOrEqual(1);
  expect(after.MPTcpExtMPJoinAckRx - (before.MPTcpExtMPJoinAckRx || 0)).toBeGreaterThanOrEqual(1);
  expect(after.MPTcpExtMPCapableFallbackACK - (before.MPTcpExtMPCapableFallbackACK || 0)).toBe(0);
  // Both paths carried media: each more than 1 MB of the playback's bytes.
  expect(bytes[0]).toBeGreaterThan(1e6);
  expect(bytes[1]).toBeGreaterThan(1e6);
  // The kernel's view agrees: the origin had a subflow on each path, each had sent data.
  expect(perPath.map((p) => p.sockets > 0 && p.bytesSent > 0)).toEqual([true, true]);
}, 240000);
