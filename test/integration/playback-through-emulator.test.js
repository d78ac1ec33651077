'use strict';
// The testbed end to end: the origin in the server namespace, Chromium in the client
// namespace, every packet between them through the emulator. A configured 100 ms RTT must show
// up in the player's request timings and a rate cap in its throughput. Needs root (CI has it).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ensureContent } = require('../../origin/content/ensure-content');
const { createEmulatedLink } = require('../../testbed/netem/namespace-link');
const { runPlayback } = require('../../testbed/run-playback');

const REPO = path.resolve(__dirname, '..', '..');
const CONTENT_DIR = path.join(REPO, 'content');
const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('playback-through-emulator needs root (network namespaces, TUN): skipped\n');

describeAsRoot('a playback through the emulated link', () => {
  let link;
  let origin;
  let dataDir;
  beforeAll(async () => {
    await ensureContent({ preset: 'sample', contentDir: CONTENT_DIR });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-emu-'));
    link = await createEmulatedLink({
      index: 221,
      toClient: { delayMs: 50, rate: 8e6, queueLimitBytes: 150000 },
      toServer: { delayMs: 50 },
    });
    origin = spawn('ip', ['netns', 'exec', link.serverNs, process.execPath, path.join(REPO, 'origin', 'cli.js'),
      '--host', link.serverIp, '--preset', 'none', '--content-dir', CONTENT_DIR, '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise((resolve, reject) => {
      let out = '';
      origin.stdout.on('data', (c) => {
        out += c;
        if (out.includes('Ctrl-C')) resolve();
      });
      origin.once('exit', (code) => reject(new Error(`origin exited (${code})`)));
    });
  }, 300000);

  afterAll(async () => {
    if (origin) origin.kill('SIGINT');
    if (link) await link.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test.each(['http11', 'h2'])('over %s: 100 ms RTT in request timings, 8 Mbit/s cap in throughput', async (transport) => {
    const { qoe } = await runPlayback({
      netns: link.clientNs,
      pageBase: `http://${link.serverIp}:8080`,
      config: { content: 'sample', transport, abr: 'bba2', stopAt: 20 },
      timeoutMs: 120000,
    });
    expect(qoe.errors).toEqual([]);
    expect(qoe.summary.playSeconds).toBeGreaterThan(10);
    // Every request waits at least one round trip for its first byte.
    for (const s of qoe.segments) expect(s.firstByte - s.requestStart).toBeGreaterThanOrEqual(99);
    // No segment arrives faster than the link allows (allowing a little for first-byte timing).
    const big = qoe.segments.filter((s) => s.bytes > 200000);
    expect(big.length).toBeGreaterThan(0);
    for (const s of big) expect((8 * s.bytes) / ((s.lastByte - s.firstByte) / 1000)).toBeLessThan(8e6 * 1.1);
    // The top rung (4.5 Mbit/s nominal) fits under 8 Mbit/s; the link is not starving playback.
    expect(qoe.summary.rebufferInstances).toBe(0);
    const counters = await link.counters();
    expect(counters.toClient.bytesIn).toBeGreaterThan(qoe.summary.bytesDownloaded);
  }, 180000);
});
