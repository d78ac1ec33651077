#!/usr/bin/env node
'use strict';
// npm run bench:quic: HTTP/3 and FDSP over WebTransport against HTTP/1.1 on the same emulated
// link, in one run per loss rate: the origin (with its QUIC server) in the server namespace,
// real Chromium in the client namespace (no Node QUIC client exists) fetching the same segments
// over each. Ratios are against HTTP/1.1 measured in the same run. Needs root.
const path = require('node:path');
const { parseArgs } = require('node:util');
const { createEmulatedLink, setCongestionControl, EmulationUnavailableError } = require('../netem/namespace-link');
const { startOriginInNamespace } = require('../runner/origin-in-namespace');
const { launchChromium } = require('../chromium');
const { ensureContent } = require('../../origin/content/ensure-content');
const { fetchSegments, fdspOverWebTransport } = require('./quic/page-clients');

const REPO = path.resolve(__dirname, '..', '..');
const USAGE = `Usage: npm run bench:quic -- [--rate MBPS] [--rtt MS] [--loss LIST] [--segments N] [--json FILE]

Goodput of HTTP/3 (h3) and of FDSP over WebTransport (BP 100 and BP 0; carrier single: one
cubic session; carrier split: requests and the reliable part on a cubic session, the datagrams
on a second session whose sender runs at a fixed rate, 1.2 x the top rung's bitrate: not
TCP-friendly, emulated links only) against HTTP/1.1, over the same emulated link, in one run
per loss rate. Real Chromium in the client namespace. Defaults: 20 Mbit/s, 50 ms RTT, loss
"0,2" (%), 15 segments of the sample's top rung. Needs root.

Verdicts: h3 >= 0.95x HTTP/1.1 on the loss-free link; WebTransport datagrams all arrive on the
loss-free link; the fixed-rate carrier at 2 % loss delivers >= 0.97 of the datagrams the
emulator let through (sent x (1 - the emulator's measured downlink drop ratio)).
`;

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const fmt = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...rows.map(fmt)].join('\n');
}

async function runAtLoss({ rate, rtt, loss, urls, topBandwidth, index }) {
  const queueLimitBytes = Math.round((rate / 8) * (rtt / 1000) * 1.5 + 65536);
  const link = await createEmulatedLink({
    index,
    toClient: { delayMs: rtt / 2, rate, queueLimitBytes, lossRate: loss },
    toServer: { delayMs: rtt / 2, lossRate: loss, seed: 2 },
  });
  let origin = null;
  let browser = null;
  try {
    setCongestionControl(link.serverNs, 'cubic');
    origin = await startOriginInNamespace({ netns: link.serverNs, host: link.serverIp, contentDir: path.join(REPO, 'content'), dataDir: path.join(REPO, 'data'), logFile: '/dev/null' });
    const { urls: ou, spkiSha256, certSha256Hex } = origin.info;
    if (!ou.h3) throw new Error('the origin serves no HTTP/3 (is the QUIC server built? npm run setup)');
    browser = await launchChromium({
      netns: link.clientNs,
      timeoutMs: 20 * 60 * 1000,
      args: ['--enable-quic', `--origin-to-force-quic-on=${new URL(ou.h3).host}`, `--ignore-certificate-errors-spki-list=${spkiSha256}`,
        // WebTransport needs a secure context; the page is plain HTTP on the emulated address.
        `--unsafely-treat-insecure-origin-as-secure=${origin.pageBase}`],
    });
    const { page } = browser;
    await page.goto(`${origin.pageBase}/healthz`);
    const results = [];
    const step = async (name, fn) => {
      process.stderr.write(`bench:quic: loss ${loss * 100} %: ${name} ...\n`);
      const before = await link.counters();
      const r = await fn();
      const after = await link.counters();
      const packetsIn = after.toClient.packetsIn - before.toClient.packetsIn;
      const dropped = Object.values(after.toClient.drops).reduce((a, b) => a + b, 0) - Object.values(before.toClient.drops).reduce((a, b) => a + b, 0);
      results.push({ name, ...r, emulatorDropRatio: packetsIn > 0 ? dropped / packetsIn : 0 });
    };
    await step('http11', () => page.evaluate(fetchSegments, { base: origin.pageBase, urls }));
    await step('h3', () => page.evaluate(fetchSegments, { base: ou.h3, urls }));
    const rateKbps = Math.round((topBandwidth * 1.2) / 1000);
    // END leaves once the last datagram is handed to the QUIC server, which may still hold some:
    // a short pause between requests, and a long one before counting what never came.
    const graceMs = Math.max(100, rtt);
    const tailMs = 3000;
    for (const carrier of ['single', 'split']) {
      for (const bp of [100, 0]) {
        await step(`webtransport ${carrier} BP ${bp}`, () => page.evaluate(fdspOverWebTransport, { url: ou.webtransport, certSha256Hex, urls, bp, carrier, rateKbps, graceMs, tailMs }));
      }
    }
    return { loss, rateKbps, results };
  } finally {
    if (browser) await browser.close();
    if (origin) await origin.close();
    await link.close();
  }
}

function report({ rate, rtt }, runs) {
  const verdicts = [];
  for (const run of runs) {
    const base = run.results.find((r) => r.name === 'http11');
    const goodput = (r) => (8 * r.bytes) / r.seconds;
    const rows = run.results.map((r) => [
      r.name,
      (goodput(r) / 1e6).toFixed(2),
      (goodput(r) / goodput(base)).toFixed(3),
      r.protocols ? r.protocols.join(',') : '-',
      r.datagramsSent !== undefined ? `${r.datagramsReceived} / ${r.datagramsSent}` : '-',
      r.datagramsSent ? `${((100 * (r.datagramsSent - r.datagramsReceived)) / r.datagramsSent).toFixed(2)} %` : '-',
      `${(100 * r.emulatorDropRatio).toFixed(2)} %`,
    ]);
    process.stdout.write(`\nLink ${rate / 1e6} Mbit/s, RTT ${rtt} ms, random loss ${run.loss * 100} % each way (fixed-rate carrier at ${run.rateKbps} kbit/s):\n`);
    process.stdout.write(`${table(['transport', 'goodput Mbit/s', 'vs HTTP/1.1', 'protocol', 'datagrams received / sent', 'datagrams lost', 'emulator downlink drops'], rows)}\n`);
    const h3 = run.results.find((r) => r.name === 'h3');
    if (!h3.protocols.every((p) => p === 'h3')) verdicts.push(['h3 responses all came over HTTP/3', run.loss, `FAIL (${h3.protocols.join(',')})`]);
    if (run.loss === 0) {
      const ratio = goodput(h3) / goodput(base);
      verdicts.push(['h3 >= 0.95x HTTP/1.1 (loss-free)', 0, `${ratio >= 0.95 ? 'PASS' : 'FAIL'} (${ratio.toFixed(3)})`]);
      for (const r of run.results.filter((x) => x.datagramsSent)) {
        // The link adds no random loss, but its drop-tail queue still drops what a sender
        // bursts into it: said beside the verdict, never folded into it.
        verdicts.push([`${r.name}: no datagram lost (loss-free)`, 0, `${r.datagramsReceived === r.datagramsSent ? 'PASS' : 'FAIL'} (${r.datagramsReceived} / ${r.datagramsSent}; the emulator's queue dropped ${(100 * r.emulatorDropRatio).toFixed(2)} % of downlink packets meanwhile)`]);
      }
    }
    if (Math.abs(run.loss - 0.02) < 1e-9) {
      for (const r of run.results.filter((x) => x.name.startsWith('webtransport split') && x.datagramsSent)) {
        const passed = r.datagramsSent * (1 - r.emulatorDropRatio);
        const ratio = r.datagramsReceived / passed;
        verdicts.push([`${r.name}: fixed rate delivers >= 0.97 of what the emulator passed (2 %)`, 0.02, `${ratio >= 0.97 ? 'PASS' : 'FAIL'} (${ratio.toFixed(3)})`]);
      }
    }
  }
  process.stdout.write(`\n${table(['target', 'loss', 'verdict'], verdicts.map(([t, l, v]) => [t, `${l * 100} %`, v]))}\n`);
  return verdicts.every((v) => v[2].startsWith('PASS'));
}

async function main(argv) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { rate: { type: 'string' }, rtt: { type: 'string' }, loss: { type: 'string' }, segments: { type: 'string' }, json: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    process.stderr.write(`bench:quic: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const rate = Number(values.rate ?? 20) * 1e6;
  const rtt = Number(values.rtt ?? 50);
  const losses = String(values.loss ?? '0,2').split(',').map((x) => Number(x) / 100);
  const n = Number(values.segments ?? 15);
  if (!(rate > 0 && rtt >= 0 && losses.every((l) => l >= 0 && l < 1) && Number.isInteger(n) && n > 0)) {
    process.stderr.write(`bench:quic: bad options\n\n${USAGE}`);
    process.exit(2);
  }
  if (process.getuid && process.getuid() !== 0) throw new EmulationUnavailableError('bench:quic needs root (network namespaces and the link emulator); run it as root');
  const contentDir = path.join(REPO, 'content');
  await ensureContent({ preset: 'sample', contentDir });
  const index = require(path.join(contentDir, 'sample', 'index.json'));
  const top = index.representations[index.representations.length - 1];
  const urls = top.segments.slice(0, n).map((s) => `/content/sample/${s.url}`);
  const runs = [];
  for (const [i, loss] of losses.entries()) runs.push(await runAtLoss({ rate, rtt, loss, urls, topBandwidth: top.bandwidth, index: 233 + i }));
  const ok = report({ rate, rtt }, runs);
  if (values.json) require('node:fs').writeFileSync(values.json, JSON.stringify({ rate, rtt, segments: n, runs }, null, 2));
  const load = require('node:os').loadavg().map((x) => x.toFixed(1)).join(' ');
  process.stdout.write(`${ok ? 'OK' : 'NOT OK'}: ${n} segments of ${top.bandwidth / 1000} kbit/s; 2 CPUs, load average at the end ${load}.\n`);
  if (!ok) process.exitCode = 1;
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`bench:quic: ${err instanceof EmulationUnavailableError ? err.message : err.stack || err.message}\n`);
  process.exit(err instanceof EmulationUnavailableError ? 2 : 1);
});
