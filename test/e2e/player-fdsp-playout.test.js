'use strict';
// Paper 000's FDSP playout in Chromium through the link emulator: a segment packaged in movie
// fragments goes to dash.js fragment by fragment, so playback starts once the first segment's
// reliable part is in instead of the whole segment. On a 100 ms, 4 Mbit/s link with 10 s
// segments of 2 Mbit/s (paper 000's 10 s substreams), FDSP at BP 0 starts well before HTTP/1.1,
// which waits for the whole first segment (~2.5 MB, ~5 s). Both carriers: the DataChannel (its
// unreliable channel paced at 1.5 x the top bitrate, the default: unpaced, the first segment's
// reliable part took 23 s here, SCTP recovering the start's losses) and WebTransport's split
// (reliable part on a cubic connection, datagrams at a fixed rate: the paper's TCP + UDP).
// Needs root (CI has it).
const fs = require('node:fs');
const path = require('node:path');
const { createEmulatedLink } = require('../../testbed/netem/namespace-link');
const { startOriginInNamespace } = require('../../testbed/runner/origin-in-namespace');
const { runPlayback } = require('../../testbed/run-playback');
const { ensureContent } = require('../../origin/content/ensure-content');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const isRoot = process.getuid() === 0;
const testAsRoot = isRoot ? test : test.skip;
if (!isRoot) process.stderr.write('player-fdsp-playout needs root (network namespaces, TUN): skipped\n');

const CONTENT = 'fdsp-fragments';
let tmp = null;
let link = null;
let origin = null;
afterAll(async () => {
  if (origin) await origin.close();
  if (link) await link.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

testAsRoot('FDSP hands fragments over at their deadlines and starts before HTTP/1.1 on a 100 ms link', async () => {
  tmp = makeLabTempDir('fdsp-playout');
  const contentDir = path.join(tmp, 'content');
  await ensureContent({
    preset: 'sample', name: CONTENT, contentDir, durationSeconds: 20,
    overrides: { segmentSeconds: 10, fragmentSeconds: 0.5, ladder: [{ bitrateKbps: 2000, width: 640, height: 360 }] },
  });
  link = await createEmulatedLink({ index: 221, toClient: { delayMs: 50, rate: 4e6, queueLimitBytes: 100000 }, toServer: { delayMs: 50 } });
  origin = await startOriginInNamespace({ netns: link.serverNs, host: link.serverIp, contentDir, dataDir: path.join(tmp, 'data'), logFile: path.join(tmp, 'requests.ndjson') });
  const play = (transport, extra = {}) => runPlayback({
    pageBase: origin.pageBase, originInfo: origin.info, netns: link.clientNs,
    config: { content: CONTENT, transport, abr: 'basic', stopAt: 12, ...extra }, timeoutMs: 120000,
  });
  const http = (await play('http11')).qoe;
  for (const carrier of [{ transport: 'datachannel' }, { transport: 'webtransport', carrier: 'split' }]) {
    const fdsp = (await play(carrier.transport, { bp: 0, ...carrier })).qoe;
    const first = fdsp.segments[0];
    // The mechanism: the first segment had several fragments, and some went before it was whole.
    expect(first.fragments).toBe(20);
    expect(first.fragmentsOnDeadline).toBeGreaterThan(0);
    // Playback started on the reliable part, long before the segment was whole.
    expect(first.reliableDoneAt).toBeLessThan(first.lastByte - 2000);
    expect(fdsp.errors).toEqual([]);
    // Segments the origin finished (its END came) say how many chunks it skipped at their
    // deadline, so the network's share of the loss leaves those out.
    for (const s of fdsp.segments.filter((x) => x.finishedBy === 'end')) {
      expect(Number.isInteger(s.originSkipped) && s.originSkipped >= 0 && s.originSkipped <= s.lostChunks).toBe(true);
    }
    expect(fdsp.summary.decodedFrames).toBeGreaterThan(0);
    // The outcome, with a generous margin (the figures belong to the benchmark and the results).
    expect(fdsp.summary.startupDelaySeconds).toBeLessThan(0.7 * http.summary.startupDelaySeconds);
  }
}, 300000);
