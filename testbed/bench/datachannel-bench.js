#!/usr/bin/env node
'use strict';
// npm run bench:datachannel: the DataChannel (FDSP) transport's goodput against HTTP/1.1 on
// the same emulated link (20 Mbit/s, 50 ms RTT by default), in one run: the origin in the
// server namespace, a Node client (libdatachannel, the same protocol as the player) in the
// client namespace fetching the same segments over each. Ratios are against HTTP/1.1 measured
// in this run. Needs root.
const path = require('node:path');
const { parseArgs } = require('node:util');
const { createEmulatedLink, setCongestionControl, EmulationUnavailableError } = require('../netem/namespace-link');
const { startOriginInNamespace } = require('../runner/origin-in-namespace');
const { nodeIn } = require('../netem/probes');
const { ensureContent } = require('../../origin/content/ensure-content');
const { cleanLinkLoss, cleanLossTable, variantsOf, pickSettings, SETTINGS } = require('./fdsp-clean-loss');
const { stackNames, DEFAULT_STACK } = require('../../origin/datachannel/stacks');
const paceOption = require('../../player/transports/pace-option');
const windowOption = require('../../player/transports/window-option');
const receiveBufferOption = require('../../player/transports/receive-buffer-option');
const congestionControls = require('../congestion/registry');
const { parseSctpSettings, formatSctpSettings, SCTP_SETTING_KEYS } = require('../../origin/datachannel/stacks/sctp-settings');

// --tcp picks among the kernel's built-in controls: the BPF ones need loading, which this bench does not do.
const KERNEL_CONTROLS = congestionControls.list().filter((c) => c.source === 'kernel').map((c) => c.name);

const REPO = path.resolve(__dirname, '..', '..');
// Bad options: said with the usage, without a stack.
class UsageError extends Error {}
const USAGE = `Usage: npm run bench:datachannel -- [--rate MBPS] [--rtt MS] [--loss PERCENT] [--segments N] [--stack NAME|all] [--sctp SETTINGS]...
                                   [--tcp NAME]
       npm run bench:datachannel -- --clean N [--stop SECONDS] [--pace LIST] [--window LIST]
                                   [--receive-buffer LIST] [--where LIST]

Goodput of the DataChannel (FDSP) transport at BP 0 and 100 against HTTP/1.1 over the same
emulated link, measured in one run. Defaults: 20 Mbit/s, 50 ms RTT, no loss, 15 segments of
the sample's top rung. Needs root. Each row also splits the time into waits (request to first
byte, summed over the segments) and transfer (first byte to the segment's end): "transfer vs
HTTP/1.1" compares the rates while data flows, without the per-request round trips. The rows
"2 open" fetch the same segments over the DataChannel with the next request sent while one is
still coming (as the player's substream overlapping does for fragmented content): no idle
round trip between them.

--tcp: the HTTP/1.1 origin's TCP congestion control (${KERNEL_CONTROLS.join(', ')}; default cubic). SCTP's
own control is Reno-like (RFC 4960): --tcp reno compares like with like.

--stack: the origin's WebRTC stack (${stackNames().join(', ')}; default ${DEFAULT_STACK}); all: one
table per stack, each against HTTP/1.1 measured beside it.

--sctp: the origin's SCTP settings (node-datachannel stack), "default" or KEY=VALUE[,KEY=VALUE]
with KEY one of:
  ${SCTP_SETTING_KEYS.join(', ')}
Give it several times for one table per setting, each against HTTP/1.1 measured beside it:
which setting limits the goodput (congestionControlModule: usrsctp's 0 RFC 4960, 1 HighSpeed,
2 H-TCP, 3 RTCC). The origin's defaults: libdatachannel's (1 MiB buffers, initial window 10
packets, SACK delay 20 ms, mtu 1280) with the send buffer at 256 KiB. The same as LAB_SCTP in
the origin's environment. The client here is libdatachannel too (1 MiB receive buffer).

--clean N: loss on clean links as a user meets it: N playbacks of the sample (BP 100, BBA-2,
--stop seconds each, default 30) in Chromium, one at a time, on plain loopback and through the
emulator at 20 and 100 Mbit/s (50 ms RTT, no random loss), each with the unreliable channel
paced (the default, 1.5 x the top bitrate) and unpaced; prints the lost chunks per setting,
split into the network's (in segments waited for in full) and those past their playout
deadline, beside the UDP datagrams the client's kernel dropped for a full receive buffer (on
loopback the host's count, shared with whatever else runs) (20 per cell is about 70 minutes).
--pace LIST: the paces to play, e.g. 1.5 or 1.5,2,off (default 1.5,off; 20 per cell of the
default pace alone is about 35 minutes). --window LIST: the player's receive window (the
transport option window: KiB the origin may have in flight before the player's ACKs, or off),
e.g. 48 or off,48 (default off). --receive-buffer LIST: the transport option receiveBuffer,
${receiveBufferOption.RECEIVE_BUFFERS.join(' or ')} (default video: a receive-only video transceiver, so Chromium's socket
gets video's buffer, 1 MiB at most the kernel's net.core.rmem_max; chromium: Chromium's 64 KiB); each row
shows the largest receive buffer (rb, bytes of kernel truesize: twice what Chromium asked) that Chromium's UDP
sockets had in its playbacks. One row per pace, window and receive buffer. --where LIST:
which settings, of loopback, 20 and 100 (default all three).
`;

// Runs in the client namespace: fetches the same segments over HTTP/1.1 and the DataChannel.
function clientScript({ http11, fdsp, clientIp, urls }) {
  return `
    const { connectFdsp } = require(${JSON.stringify(path.join(REPO, 'testbed', 'datachannel', 'node-fdsp-client.js'))});
    const urls = ${JSON.stringify(urls)};
    (async () => {
      const out = {};
      // waits: request to first byte, summed over the segments (the request-response cost);
      // the rest of each segment's time is its transfer (the congestion control's share).
      let t = performance.now(); let bytes = 0; let waits = 0;
      for (const u of urls) {
        const asked = performance.now();
        const res = await fetch(${JSON.stringify(http11)} + u);
        waits += (performance.now() - asked) / 1000;
        bytes += (await res.arrayBuffer()).byteLength;
      }
      out.http11 = { bytes, seconds: (performance.now() - t) / 1000, waits, lost: 0, chunks: 0 };
      for (const bp of [100, 0]) {
        const c = await connectFdsp(${JSON.stringify(fdsp)}, { bindAddress: ${JSON.stringify(clientIp)} });
        t = performance.now(); bytes = 0; waits = 0; let lost = 0; let chunks = 0;
        for (const u of urls) {
          const r = await c.fetch(u, { bp, graceMs: 300 });
          bytes += r.bytesPerChannel.reliable + r.bytesPerChannel.unreliable; lost += r.lostChunks; chunks += r.unreliableChunks;
          waits += r.ttfbSeconds ?? 0;
        }
        out['datachannel-bp' + bp] = { bytes, seconds: (performance.now() - t) / 1000, waits, lost, chunks };
        // The same segments with the next request sent while one is still coming (two open, as
        // the player's substream overlapping does for fragmented content): no idle round trip
        // between responses, so what is left of the gap to HTTP/1.1 is not the request-response
        // pattern.
        t = performance.now(); bytes = 0; lost = 0; chunks = 0;
        let next = 0;
        const worker = async () => {
          while (next < urls.length) {
            const r = await c.fetch(urls[next++], { bp, graceMs: 300 });
            bytes += r.bytesPerChannel.reliable + r.bytesPerChannel.unreliable; lost += r.lostChunks; chunks += r.unreliableChunks;
          }
        };
        await Promise.all([worker(), worker()]);
        out['datachannel-bp' + bp + ', 2 open'] = { bytes, seconds: (performance.now() - t) / 1000, waits: 0, lost, chunks };
        c.close();
      }
      console.log(JSON.stringify(out));
      // Exit without node-datachannel's cleanup(): with peers just closed it can crash.
      process.exit(0);
    })().catch((e) => { console.error(e.stack || e.message); process.exit(1); });`;
}

async function main(argv) {
  const { values } = parseArgs({ args: argv, options: { rate: { type: 'string' }, rtt: { type: 'string' }, loss: { type: 'string' }, segments: { type: 'string' }, stack: { type: 'string' }, sctp: { type: 'string', multiple: true }, tcp: { type: 'string' }, clean: { type: 'string' }, stop: { type: 'string' }, pace: { type: 'string' }, window: { type: 'string' }, 'receive-buffer': { type: 'string' }, where: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (values.tcp !== undefined && values.clean !== undefined) throw new UsageError(`--tcp goes with the goodput table, not --clean\n\n${USAGE}`);
  if ((values.pace !== undefined || values.where !== undefined || values.window !== undefined || values['receive-buffer'] !== undefined) && values.clean === undefined) throw new UsageError(`--pace, --window, --receive-buffer and --where go with --clean\n\n${USAGE}`);
  if (values.clean !== undefined) {
    const playbacks = Number(values.clean);
    const stopAt = Number(values.stop ?? 30);
    if (!(Number.isInteger(playbacks) && playbacks > 0 && stopAt >= 5)) throw new UsageError(`--clean needs a number of playbacks >= 1 and --stop >= 5 s\n\n${USAGE}`);
    if (values.stack !== undefined && !stackNames().includes(values.stack)) throw new UsageError(`--clean runs one stack: --stack ${stackNames().join(' or ')}\n\n${USAGE}`);
    // The transport option's own rule (player/transports/pace-option.js), so a typo fails before any playback.
    const problems = [];
    const paces = (values.pace ?? `${paceOption.default},off`).split(',').map((p) => paceOption.parse(p, { whole: `--pace "${p}"` }, problems));
    const windows = (values.window ?? windowOption.default).split(',').map((w) => windowOption.parse(w, { whole: `--window "${w}"` }, problems));
    const receiveBuffers = (values['receive-buffer'] ?? receiveBufferOption.default).split(',').map((b) => receiveBufferOption.parse(b, { whole: `--receive-buffer "${b}"` }, problems));
    const settings = values.where === undefined ? SETTINGS : pickSettings(values.where, problems);
    if (problems.length) throw new UsageError(`${problems.join('\n')}\n\n${USAGE}`);
    const contentDir = path.join(REPO, 'content');
    await ensureContent({ preset: 'sample', contentDir });
    const rows = await cleanLinkLoss({ transport: 'datachannel', variants: variantsOf({ pace: paces, window: windows, receiveBuffer: receiveBuffers }), playbacks, stopAt, settings, contentDir, webrtcStack: values.stack ?? DEFAULT_STACK, log: (line) => process.stderr.write(`${line}\n`) });
    process.stdout.write(cleanLossTable(rows));
    return;
  }
  const rate = Number(values.rate ?? 20) * 1e6;
  const rtt = Number(values.rtt ?? 50);
  const loss = Number(values.loss ?? 0) / 100;
  const n = Number(values.segments ?? 15);
  if (!(rate > 0 && rtt >= 0 && loss >= 0 && loss < 1 && Number.isInteger(n) && n > 0)) throw new UsageError(`bad options\n\n${USAGE}`);
  const stacks = values.stack === 'all' ? stackNames() : [values.stack ?? DEFAULT_STACK];
  if (!stacks.every((s) => stackNames().includes(s))) throw new UsageError(`--stack must be ${stackNames().join(', ')} or all, got "${values.stack}"\n\n${USAGE}`);
  const sctpSets = (values.sctp ?? ['default']).map((text) => {
    try {
      return text === 'default' ? 'default' : formatSctpSettings(parseSctpSettings(text));
    } catch (err) {
      throw new UsageError(`--sctp: ${err.message}\n\n${USAGE}`);
    }
  });
  if (sctpSets.some((t) => t !== 'default') && stacks.some((s) => s !== DEFAULT_STACK)) throw new UsageError(`--sctp applies to the ${DEFAULT_STACK} stack only\n\n${USAGE}`);
  const tcp = values.tcp ?? 'cubic';
  if (!KERNEL_CONTROLS.includes(tcp)) throw new UsageError(`--tcp must be one of ${KERNEL_CONTROLS.join(', ')}, got "${tcp}"\n\n${USAGE}`);
  const runs = stacks.flatMap((stack) => sctpSets.map((sctp) => ({ stack, sctp })));
  const contentDir = path.join(REPO, 'content');
  await ensureContent({ preset: 'sample', contentDir });
  const index = require(path.join(contentDir, 'sample', 'index.json'));
  const top = index.representations[index.representations.length - 1];
  const urls = top.segments.slice(0, n).map((s) => `/content/sample/${s.url}`);
  const queueLimitBytes = Math.round((rate / 8) * (rtt / 1000) * 1.5 + 65536);
  const link = await createEmulatedLink({
    index: 232,
    toClient: { delayMs: rtt / 2, rate, queueLimitBytes, lossRate: loss },
    toServer: { delayMs: rtt / 2, lossRate: loss, seed: 2 },
  });
  let origin = null;
  try {
    setCongestionControl(link.serverNs, congestionControls.get(tcp).kernelName);
    for (const { stack, sctp } of runs) {
      origin = await startOriginInNamespace({ netns: link.serverNs, host: link.serverIp, contentDir, dataDir: path.join(REPO, 'data'), logFile: '/dev/null', webrtcStack: stack, env: sctp === 'default' ? {} : { LAB_SCTP: sctp } });
      process.stdout.write(`origin's WebRTC stack: ${stack}${stack === DEFAULT_STACK ? `; SCTP settings: ${sctp}` : ''}\n`);
      const before = await link.counters(); // this stack's drops only
      process.stderr.write(`link: ${rate / 1e6} Mbit/s, RTT ${rtt} ms, loss ${loss * 100} %; ${n} segments of ${top.bandwidth / 1000} kbps (${(urls.length && top.segments.slice(0, n).reduce((a, s) => a + s.size, 0) / 1e6).toFixed(1)} MB)\n`);
      const out = JSON.parse(nodeIn(link.clientNs, clientScript({ http11: origin.pageBase, fdsp: origin.urls.fdsp, clientIp: link.clientIp, urls }), 600000).trim().split('\n').pop());
      const base = (8 * out.http11.bytes) / out.http11.seconds;
      const baseTransfer = (8 * out.http11.bytes) / (out.http11.seconds - out.http11.waits);
      const header = ['transport', 'goodput Mbit/s', 'vs HTTP/1.1', 'waits s', 'transfer Mbit/s', 'transfer vs HTTP/1.1', 'unreliable chunks lost'];
      const lines = Object.entries(out).map(([k, v]) => {
        const g = (8 * v.bytes) / v.seconds;
        const transfer = (8 * v.bytes) / (v.seconds - v.waits);
        return [k, (g / 1e6).toFixed(2), (g / base).toFixed(3), v.waits.toFixed(2), (transfer / 1e6).toFixed(2), (transfer / baseTransfer).toFixed(3), v.chunks ? `${v.lost} / ${v.chunks} (${((100 * v.lost) / v.chunks).toFixed(2)} %)` : '-'];
      });
      const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
      const fmt = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
      process.stdout.write(`${[fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...lines.map(fmt)].join('\n')}\n`);
      const c = await link.counters();
      const drops = Object.fromEntries(Object.entries(c.toClient.drops).map(([k, v]) => [k, v - (before.toClient.drops[k] || 0)]));
      process.stdout.write(`link rate ${rate / 1e6} Mbit/s: goodput / rate = HTTP/1.1 ${(base / rate).toFixed(3)}; the emulator dropped downlink packets: ${JSON.stringify(drops)} of ${c.toClient.packetsIn - before.toClient.packetsIn}\n`);
      await origin.close();
      origin = null;
    }
    process.stdout.write('Both DataChannels share one SCTP association and its congestion control; a drop-tail queue overflowing under SCTP\'s bursts loses unreliable chunks even on a link without random loss.\n');
  } finally {
    if (origin) await origin.close();
    await link.close();
  }
}

// Exit when done: with the origin in this process (--clean's loopback setting), node-datachannel's
// threads outlive the closed peers and kept the process alive after the table was printed.
main(process.argv.slice(2)).then(() => process.exit(0), (err) => {
  // A failed client in the namespace: its own error output says why, not the command line.
  const why = err.stderr !== undefined ? `the client in the namespace failed (${err.signal || `exit ${err.status}`}): ${String(err.stderr).trim() || String(err.stdout).trim() || 'no output'}` : err instanceof EmulationUnavailableError || err instanceof UsageError ? err.message : err.stack || err.message;
  process.stderr.write(`bench:datachannel: ${why}\n`);
  process.exit(err instanceof EmulationUnavailableError ? 2 : 1);
});
