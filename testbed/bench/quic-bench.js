#!/usr/bin/env node
'use strict';
// npm run bench:quic: HTTP/3 and FDSP over WebTransport against HTTP/1.1 on the same emulated
// link, in one run per loss rate: the origin (with its QUIC server) in the server namespace,
// real Chromium in the client namespace (no Node QUIC client exists) on the player page. HTTP/1.1
// and h3 are a fetch() loop in the page; WebTransport is the player's own transport
// (player/transports, driven through quic/page-hook.js), so the bench measures the code a
// playback runs. Ratios are against HTTP/1.1 measured on the same link. Needs root.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { createEmulatedLink, setCongestionControl, requireRoot, EmulationUnavailableError } = require('../netem/namespace-link');
const { readEndpointDrops, diffDrops } = require('../netem/endpoint-drops');
const { diffCounters } = require('../runner/link-counters');
const { startOriginInNamespace } = require('../runner/origin-in-namespace');
const { launchChromium } = require('../chromium');
const { chromiumArgsFor } = require('../../player/transports');
const { ensureContent } = require('../../origin/content/ensure-content');
const { fetchSegments } = require('./quic/page-clients');
const { bundlePageHook } = require('./quic/bundle-page-hook');
const { cleanLinkLoss, cleanLossTable, variantsOf, pickSettings, SETTINGS } = require('./fdsp-clean-loss');
const paceOption = require('../../player/transports/pace-option');
const { carrier: carrierOption } = require('../../player/transports/webtransport-options');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
const USAGE = `Usage: npm run bench:quic -- [--rate MBPS] [--rtt MS] [--loss LIST] [--segments N] [--json FILE]
       npm run bench:quic -- --clean N [--stop SECONDS] [--carrier LIST] [--pace LIST] [--where LIST]

Goodput of HTTP/3 (h3) and of FDSP over WebTransport against HTTP/1.1 over the same emulated
link, one run per loss rate, real Chromium in the client namespace on the player page:
  http11, h3           a fetch() loop in the page; every h3 response must say nextHopProtocol h3
  webtransport         the player's own transport, BP 100 and BP 0, carrier single (one cubic
                       session, its datagrams paced at the default 1.5 x the top rung's rate;
                       "unpaced": pace off, as fast as cubic lets them go) and split (requests
                       and the reliable part on a cubic session, the datagrams on a second
                       session at a fixed 1.2 x the top rung's rate: not TCP-friendly, emulated
                       links only)
For each: bytes delivered, seconds, goodput, ratio to HTTP/1.1; for WebTransport the datagrams
the origin sent (its request log) against those the page received, and delivered / what the
emulator let through (sent x the emulator's downlink pass ratio over that measurement).

  --rate MBPS      bottleneck rate, server -> client (default 20)
  --rtt MS         round-trip time (default 50)
  --loss LIST      random loss in % each way, one run per value (default "0,2")
  --segments N     segments of the sample's top rung (default 15)
  --json FILE      also write every figure as JSON
  -h, --help

Targets (PASS/FAIL each): h3 >= 0.95x HTTP/1.1 on the loss-free link; WebTransport datagrams
lose nothing on the loss-free link with the transport's default options (the unpaced rows are
shown, not judged); the fixed-rate carrier at 2 % loss delivers >= 0.97 of what the emulator
passed. Exit 1 when a target fails. Needs root. About 11 minutes.

--clean N: loss on clean links as a user meets it: N playbacks of the sample (WebTransport,
BP 100, BBA-2, --stop seconds each, default 30) in Chromium, one at a time, on plain loopback
and through the emulator at 20 and 100 Mbit/s (50 ms RTT, no random loss), per carrier and
pace; prints the lost chunks per row, split into the network's (in segments waited for in
full) and those past their playout deadline, beside the UDP datagrams the client's kernel
dropped for a full receive buffer (on loopback the host's count, shared with whatever else
runs) and the largest receive buffer Chromium's UDP sockets had. --carrier LIST: single,
split or both (default single); --pace LIST: the transport option pace, e.g. 1.5 or 1.5,off
(default ${paceOption.default}); --where LIST: of loopback, 20 and 100 (default all three). 20 playbacks per
row are about 12 minutes per setting. Loopback needs no root; the emulated settings do. Exit 1
when a playback lost a chunk or failed.
`;

const WARMUP_PATH = '/content/sample/manifest.mpd';
// After the last response: chunks still on the way are counted late, not lost.
const TAIL_MS = 2000;
const H3_TARGET = 0.95;
const FIXED_TARGET = 0.97;
const FIXED_TARGET_LOSS = 0.02;

class UsageError extends Error {}

// What a Ctrl-C (or SIGTERM) must end, newest first: the browser, the origin, the link. Each
// run registers its own; the handler closes them (the link's own exit hook is the last resort).
const closers = [];
function onSignal(sig) {
  if (onSignal.busy) process.exit(130); // a second Ctrl-C: the exit hooks end what is left
  onSignal.busy = true;
  progress(`${sig}: cleaning up`);
  const all = closers.slice().reverse().reduce((p, close) => p.then(() => close().catch(() => {})), Promise.resolve());
  Promise.race([all, delay(15000)]).then(() => process.exit(sig === 'SIGINT' ? 130 : 143));
}

function parseOptions(argv) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { rate: { type: 'string' }, rtt: { type: 'string' }, loss: { type: 'string' }, segments: { type: 'string' }, json: { type: 'string' }, clean: { type: 'string' }, stop: { type: 'string' }, carrier: { type: 'string' }, pace: { type: 'string' }, where: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    throw new UsageError(err.message);
  }
  if (values.help) return { help: true };
  const cleanOnly = ['stop', 'carrier', 'pace', 'where'].filter((k) => values[k] !== undefined);
  if (values.clean === undefined && cleanOnly.length) throw new UsageError(`${cleanOnly.map((k) => `--${k}`).join(', ')}: only with --clean`);
  if (values.clean !== undefined) return parseCleanOptions(values);
  const rate = Number(values.rate ?? 20) * 1e6;
  const rtt = Number(values.rtt ?? 50);
  const losses = String(values.loss ?? '0,2').split(',').map((x) => (x.trim() === '' ? NaN : Number(x) / 100));
  const segments = Number(values.segments ?? 15);
  if (!(rate > 0)) throw new UsageError(`--rate must be a positive number of Mbit/s, got ${JSON.stringify(values.rate)}`);
  if (!(rtt >= 0)) throw new UsageError(`--rtt must be a number of ms >= 0, got ${JSON.stringify(values.rtt)}`);
  if (!losses.every((l) => l >= 0 && l < 1)) throw new UsageError(`--loss must be a comma-separated list of percentages from 0 to below 100, got ${JSON.stringify(values.loss)}`);
  if (!(Number.isInteger(segments) && segments > 0)) throw new UsageError(`--segments must be a positive integer, got ${JSON.stringify(values.segments)}`);
  return { rate, rtt, losses, segments, json: values.json || null };
}

/** --clean N and what goes with it; the transport's own option rules, so a typo fails before any playback. */
function parseCleanOptions(values) {
  const goodputOnly = ['rate', 'rtt', 'loss', 'segments', 'json'].filter((k) => values[k] !== undefined);
  if (goodputOnly.length) throw new UsageError(`${goodputOnly.map((k) => `--${k}`).join(', ')}: not with --clean (its links are fixed: loopback, 20 and 100 Mbit/s at 50 ms)`);
  const playbacks = Number(values.clean);
  const stopAt = Number(values.stop ?? 30);
  if (!(Number.isInteger(playbacks) && playbacks > 0)) throw new UsageError(`--clean needs a number of playbacks >= 1, got ${JSON.stringify(values.clean)}`);
  if (!(stopAt >= 5)) throw new UsageError(`--stop must be a number of seconds >= 5, got ${JSON.stringify(values.stop)}`);
  const problems = [];
  const list = (raw, option, flag) => raw.split(',').map((x) => option.parse(x, { whole: `--${flag} "${x}"` }, problems));
  const carriers = list(values.carrier ?? carrierOption.default, carrierOption, 'carrier');
  const paces = list(values.pace ?? String(paceOption.default), paceOption, 'pace');
  const settings = values.where === undefined ? SETTINGS : pickSettings(values.where, problems);
  if (problems.length) throw new UsageError(problems.join('\n'));
  return { clean: { playbacks, stopAt, variants: variantsOf({ carrier: carriers, pace: paces }), settings } };
}

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const fmt = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...rows.map(fmt)].join('\n');
}

const progress = (line) => process.stderr.write(`bench:quic: ${line}\n`);
const pct = (x) => `${(100 * x).toFixed(2)} %`;

/** The request log's entries after character `from` of its text; returns them and the new end. */
function readLogSince(file, from) {
  const text = fs.readFileSync(file, 'utf8');
  const entries = text.slice(from).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  return { entries, offset: text.length };
}

/** What each measurement is: the transport and its options. */
function measurements() {
  const out = [{ name: 'http11', kind: 'fetch', listener: 'http11' }, { name: 'h3', kind: 'fetch', listener: 'h3' }];
  // The unpaced single session is shown, not judged: it is what cubic alone does with the
  // datagrams (the emulator's queue drops what its probing bursts into it).
  const carriers = [{ carrier: 'single' }, { carrier: 'single', pace: 'off', label: 'single unpaced', judged: false }, { carrier: 'split' }];
  for (const c of carriers) {
    for (const bp of [100, 0]) {
      out.push({ name: `webtransport ${c.label || c.carrier} BP ${bp}`, kind: 'transport', transport: 'webtransport', judged: c.judged !== false, options: { bp, carrier: c.carrier, cc: 'cubic', ...(c.pace ? { pace: c.pace } : {}) } });
    }
  }
  return out;
}

async function runAtLoss({ rate, rtt, loss, urls, top, linkIndex, hookScript, logDir }) {
  const queueLimitBytes = Math.round((rate / 8) * (rtt / 1000) * 1.5 + 65536);
  const link = await createEmulatedLink({
    index: linkIndex,
    toClient: { delayMs: rtt / 2, rate, queueLimitBytes, lossRate: loss },
    toServer: { delayMs: rtt / 2, lossRate: loss, seed: 2 },
  });
  const logFile = path.join(logDir, `requests-loss-${loss * 100}.ndjson`);
  let origin = null;
  let browser = null;
  const own = [() => link.close(), () => (origin ? origin.close() : Promise.resolve()), () => (browser ? browser.close() : Promise.resolve())];
  closers.push(...own);
  try {
    setCongestionControl(link.serverNs, 'cubic');
    origin = await startOriginInNamespace({ netns: link.serverNs, host: link.serverIp, contentDir: path.join(REPO, 'content'), dataDir: path.join(REPO, 'data'), logFile });
    const info = origin.info;
    if (!info.urls.h3 || !info.urls.webtransport) throw new Error('the origin serves no HTTP/3 / WebTransport (is quic-origin built? run "npm run setup", which builds it with cargo)');
    // The flags the player's transports declare (HTTP/3 forced on, the certificate pinned, the
    // emulator's plain-HTTP page treated as secure for WebTransport), as a playback gets them.
    browser = await launchChromium({ netns: link.clientNs, timeoutMs: 30 * 60 * 1000, args: chromiumArgsFor(info), handleSignals: false });
    const { page } = browser;
    await page.goto(`${origin.pageBase}/`, { timeout: 60000 });
    await page.waitForFunction(() => window.lab && ['ready', 'error'].includes(window.lab.state), null, { timeout: 60000, polling: 100 });
    if (await page.evaluate(() => window.lab.state) !== 'ready') throw new Error(`the player page failed: ${await page.evaluate(() => window.lab.errors.join('; '))}`);
    await page.addScriptTag({ content: hookScript });
    let logOffset = 0;
    const results = [];
    for (const m of measurements()) {
      progress(`loss ${loss * 100} %: ${m.name} ...`);
      ({ offset: logOffset } = readLogSince(logFile, logOffset));
      const before = await link.counters();
      const dropsBefore = readEndpointDrops(link);
      const r = m.kind === 'fetch'
        ? await page.evaluate(fetchSegments, { base: info.urls[m.listener], warmup: WARMUP_PATH, urls })
        : await page.evaluate((o) => window.quicBench.fetchOverTransport(o), { name: m.transport, originInfo: info, options: m.options, highestBandwidthBps: top.bandwidth, warmup: WARMUP_PATH, paths: urls, tailMs: TAIL_MS });
      const counters = diffCounters(await link.counters(), before);
      const endpointDrops = diffDrops(readEndpointDrops(link), dropsBefore);
      const down = counters.toClient;
      const result = { name: m.name, judged: m.judged, ...r, counters, endpointDrops, downlinkPassRatio: down.packetsIn ? down.packetsOut / down.packetsIn : 1 };
      if (m.kind === 'transport') {
        // What the origin sent: its own request log (the FDSP responder counts each DATA frame it
        // handed to the datagram carrier). The warm-up (the MPD) goes wholly reliable.
        await delay(200); // the log is written through a stream
        const { entries, offset } = readLogSince(logFile, logOffset);
        logOffset = offset;
        const media = entries.filter((e) => e.protocol === 'webtransport' && urls.includes(e.path));
        if (media.length !== urls.length) throw new Error(`${m.name}: the origin logged ${media.length} of the ${urls.length} WebTransport responses`);
        result.datagramsSent = media.reduce((a, e) => a + e.unreliableSent, 0);
        result.logged = { carriers: [...new Set(media.map((e) => `${e.carrier}: ${e.reliableCc}/${e.unreliableCc}`))] };
        // lostChunks also counts chunks that came after their movie fragment went (fragmented content):
        // they were received.
        result.datagramsReceived = r.unreliableChunks - r.lostChunks + r.lateChunks + (r.lateChunksAfterRelease || 0);
        result.datagramsPassed = result.datagramsSent * result.downlinkPassRatio;
      }
      results.push(result);
      const g = (8 * result.bytes) / result.seconds / 1e6;
      progress(`  ${(result.bytes / 1e6).toFixed(2)} MB in ${result.seconds.toFixed(2)} s = ${g.toFixed(2)} Mbit/s${result.datagramsSent !== undefined ? `; datagrams ${result.datagramsReceived} / ${result.datagramsSent} received` : ''}; downlink drops ${JSON.stringify(down.drops)} of ${down.packetsIn}`);
    }
    return { loss, rateKbps: (results.find((r) => r.plan && r.plan.fixedRateKbps) || { plan: {} }).plan.fixedRateKbps, results };
  } finally {
    if (browser) await browser.close();
    if (origin) await origin.close();
    await link.close();
    closers.splice(closers.indexOf(own[0]), own.length);
  }
}

function goodput(r) {
  return (8 * r.bytes) / r.seconds;
}

function printRun({ rate, rtt }, run) {
  const base = run.results.find((r) => r.name === 'http11');
  const rows = run.results.map((r) => {
    const wt = r.datagramsSent !== undefined;
    const drops = r.counters.toClient.drops;
    const dropText = Object.entries(drops).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(', ') || '0';
    return [
      r.name,
      (r.bytes / 1e6).toFixed(2),
      r.seconds.toFixed(2),
      (goodput(r) / 1e6).toFixed(2),
      (goodput(r) / goodput(base)).toFixed(3),
      r.protocols.join(','),
      wt ? `${r.datagramsReceived} / ${r.datagramsSent}` : '-',
      wt && r.datagramsSent ? pct((r.datagramsSent - r.datagramsReceived) / r.datagramsSent) : '-',
      wt && r.datagramsPassed ? (r.datagramsReceived / r.datagramsPassed).toFixed(3) : '-',
      `${dropText} of ${r.counters.toClient.packetsIn}`,
      r.endpointDrops.client.udp.RcvbufErrors,
    ];
  });
  process.stdout.write(`\nLink ${rate / 1e6} Mbit/s, RTT ${rtt} ms, random loss ${run.loss * 100} % each way${run.rateKbps ? `; split carrier's datagrams at a fixed ${run.rateKbps} kbit/s` : ''}:\n`);
  process.stdout.write(`${table(['transport', 'MB', 's', 'goodput Mbit/s', 'vs HTTP/1.1', 'protocol', 'datagrams received / sent', 'datagrams lost', 'delivered / emulator passed', 'emulator downlink drops', 'client UDP RcvbufErrors'], rows)}\n`);
}

/** Each target's verdict, from the runs measured (a target whose link was not run says so). */
function verdicts(runs) {
  const out = [];
  for (const run of runs) {
    const h3 = run.results.find((r) => r.name === 'h3');
    const notH3 = h3.perResponse.filter((p) => p !== 'h3');
    out.push({ target: 'every h3 response came over HTTP/3', loss: run.loss, pass: notH3.length === 0, detail: notH3.length ? `${notH3.length} of ${h3.perResponse.length}: ${[...new Set(notH3)].join(',')}` : `${h3.perResponse.length} of ${h3.perResponse.length}` });
  }
  const clean = runs.find((r) => r.loss === 0);
  if (clean) {
    const base = clean.results.find((r) => r.name === 'http11');
    const ratio = goodput(clean.results.find((r) => r.name === 'h3')) / goodput(base);
    out.push({ target: `h3 >= ${H3_TARGET}x HTTP/1.1 (loss-free link)`, loss: 0, pass: ratio >= H3_TARGET, detail: ratio.toFixed(3) });
    for (const r of clean.results.filter((x) => x.datagramsSent !== undefined && x.judged !== false)) {
      // The link adds no random loss, but its drop-tail queue still drops what senders burst into
      // it, and Chromium's socket what it cannot take: said beside the verdict, not folded in.
      out.push({
        target: `${r.name}: no datagram lost (loss-free link)`,
        loss: 0,
        pass: r.datagramsReceived >= r.datagramsSent,
        detail: `${r.datagramsReceived} / ${r.datagramsSent}; the emulator's queue dropped ${pct(1 - r.downlinkPassRatio)} of downlink packets meanwhile, client RcvbufErrors ${r.endpointDrops.client.udp.RcvbufErrors}`,
      });
    }
  } else out.push({ target: `h3 >= ${H3_TARGET}x HTTP/1.1; datagrams lose nothing (loss-free link)`, loss: 0, pass: null, detail: '--loss has no 0' });
  const lossy = runs.find((r) => Math.abs(r.loss - FIXED_TARGET_LOSS) < 1e-9);
  if (lossy) {
    for (const r of lossy.results.filter((x) => x.name.startsWith('webtransport split'))) {
      const ratio = r.datagramsReceived / r.datagramsPassed;
      out.push({ target: `${r.name}: fixed rate delivers >= ${FIXED_TARGET} of what the emulator passed`, loss: FIXED_TARGET_LOSS, pass: ratio >= FIXED_TARGET, detail: `${ratio.toFixed(3)}: ${r.datagramsReceived} of ~${Math.round(r.datagramsPassed)}` });
    }
  } else out.push({ target: `fixed rate delivers >= ${FIXED_TARGET} of what the emulator passed (${FIXED_TARGET_LOSS * 100} % loss)`, loss: FIXED_TARGET_LOSS, pass: null, detail: `--loss has no ${FIXED_TARGET_LOSS * 100}` });
  return out;
}

/** --clean: the rows of fdsp-clean-loss.js for WebTransport; exit 1 when a playback lost a chunk or failed. */
async function cleanLoss({ playbacks, stopAt, variants, settings }) {
  if (settings.some((x) => x.rateMbps !== null) && typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new EmulationUnavailableError('bench:quic --clean through the emulator needs root (network namespaces and TUN devices); --where loopback runs without it');
  }
  if (settings.some((x) => x.rateMbps !== null)) requireRoot();
  const contentDir = path.join(REPO, 'content');
  await ensureContent({ preset: 'sample', contentDir });
  const rows = await cleanLinkLoss({ transport: 'webtransport', variants, playbacks, stopAt, settings, contentDir, log: progress });
  process.stdout.write(cleanLossTable(rows));
  process.stdout.write(`${os.cpus().length} CPUs; load average (1, 5, 15 min) at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}.\n`);
  return rows.every((r) => r.lost === 0 && r.failed === 0) ? 0 : 1;
}

function delay(ms) {
  return new Promise((resolve) => { setTimeout(resolve, ms); });
}

async function main(argv) {
  const o = parseOptions(argv);
  if (o.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (o.clean) return cleanLoss(o.clean);
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new EmulationUnavailableError('bench:quic needs root: it makes network namespaces and TUN devices for the emulated link (CAP_NET_ADMIN); run it as root');
  }
  requireRoot(); // and the tools the link needs (ip, socat)
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  const contentDir = path.join(REPO, 'content');
  await ensureContent({ preset: 'sample', contentDir });
  const index = JSON.parse(fs.readFileSync(path.join(contentDir, 'sample', 'index.json'), 'utf8'));
  const top = index.representations[index.representations.length - 1];
  if (o.segments > top.segments.length) throw new UsageError(`--segments: the sample's top rung has ${top.segments.length} segments`);
  const urls = top.segments.slice(0, o.segments).map((s) => `/content/sample/${s.url}`);
  const totalBytes = top.segments.slice(0, o.segments).reduce((a, s) => a + s.size, 0);
  progress(`${o.segments} segments of the sample's ${top.bandwidth / 1000} kbit/s rung (${(totalBytes / 1e6).toFixed(1)} MB) per measurement; link ${o.rate / 1e6} Mbit/s, RTT ${o.rtt} ms, loss ${o.losses.map((l) => `${l * 100} %`).join(' and ')}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const hookScript = await bundlePageHook();
  const logDir = makeLabTempDir('quic-bench');
  const removeLogs = () => fs.rmSync(logDir, { recursive: true, force: true });
  process.on('exit', removeLogs);
  const loadAtStart = os.loadavg();
  const runs = [];
  try {
    for (const [i, loss] of o.losses.entries()) runs.push(await runAtLoss({ rate: o.rate, rtt: o.rtt, loss, urls, top, linkIndex: 233 + i, hookScript, logDir }));
  } finally {
    removeLogs();
  }
  for (const run of runs) printRun(o, run);
  const vs = verdicts(runs);
  process.stdout.write(`\n${table(['target', 'loss', 'verdict'], vs.map((v) => [v.target, `${v.loss * 100} %`, `${v.pass === null ? 'NOT MEASURED' : v.pass ? 'PASS' : 'FAIL'} (${v.detail})`]))}\n`);
  const loadAtEnd = os.loadavg();
  const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
  process.stdout.write(`${os.cpus().length} CPUs; load average (1, 5, 15 min) at the start ${load(loadAtStart)}, at the end ${load(loadAtEnd)}: other work on the machine shares the cores.\n`);
  if (o.json) {
    fs.writeFileSync(o.json, `${JSON.stringify({ rateBps: o.rate, rttMs: o.rtt, segments: o.segments, segmentBytes: totalBytes, topBandwidthBps: top.bandwidth, loadAverage: { start: loadAtStart, end: loadAtEnd }, runs, verdicts: vs }, null, 2)}\n`);
    progress(`wrote ${o.json}`);
  }
  return vs.every((v) => v.pass !== false) ? 0 : 1;
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, (err) => {
  // Ctrl-C closed the browser under a measurement: the signal handler reports and exits.
  if (onSignal.busy) return;
  if (err instanceof UsageError) {
    process.stderr.write(`bench:quic: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  process.stderr.write(`bench:quic: ${err instanceof EmulationUnavailableError ? err.message : err.stack || err.message}\n`);
  process.exit(err instanceof EmulationUnavailableError ? 2 : 1);
});
