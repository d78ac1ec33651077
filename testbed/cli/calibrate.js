#!/usr/bin/env node
'use strict';
// npm run calibrate -- SCENARIO [--seconds S] [--network NAME,...]: what a bulk TCP download
// gets from each of a scenario's network profiles, through the same emulated link and server
// congestion control the runner would give a playback. A paper that describes its networks by
// their measured throughput (paper 002 Table 2) is reproduced by a profile whose bulk download
// measures that throughput with the paper's loss, not by a link rate equal to it: this prints
// the figures to tune against and to quote in the scenario's comments.
const path = require('node:path');
const { parseArgs } = require('node:util');
const { loadScenario } = require('../scenario/load-scenario');
const { profileToLinkSettings, describeProfile } = require('../scenario/network-profile');
const { createEmulatedLink, setCongestionControl, requireRoot } = require('../netem/namespace-link');
const { tcpDownload } = require('../netem/probes');

const USAGE = `Usage: npm run calibrate -- SCENARIO [--seconds S] [--network NAME,...]

For each network profile of SCENARIO (constant links; schedules and switches are not played):
one bulk TCP download server -> client through the link emulator, with the scenario's TCP
congestion control at the server, sized to last about S seconds at the profile's rate
(default 20). Prints per profile: the link (rate, RTT, queue), the download's goodput, the IP
rate the emulator delivered, the packets it dropped (queue, random loss) of those it was given,
and its mean queueing delay. Needs root, like npm run qoe. One profile at a time.

Options:
  --seconds S        length of each download at the profile's rate (default 20, 5-300)
  --network NAME,... only these profiles
  -h, --help         this text
`;

function fail(message, code = 2) {
  process.stderr.write(`calibrate: ${message}\n`);
  process.exit(code);
}

/** The emulator's downlink counters between two snapshots: packets given, delivered, dropped by cause. */
function downlinkDelta(before, after) {
  const a = after.toClient;
  const b = before.toClient;
  const drops = Object.fromEntries(Object.keys(a.drops).map((k) => [k, a.drops[k] - (b.drops[k] || 0)]));
  return { packetsIn: a.packetsIn - b.packetsIn, packetsOut: a.packetsOut - b.packetsOut, bytesOut: a.bytesOut - b.bytesOut, drops, queueDelay: a.queueDelay || null };
}

async function calibrateProfile(name, profile, { congestionControl, seconds, index, port }) {
  const settings = profileToLinkSettings(profile);
  const r0 = settings.toClient.rate;
  const rate = r0 && r0.kind === 'constant' ? r0.bitsPerSecond : null;
  if (!rate) throw new Error(`profile ${name}: calibration needs a constant downlink rate (rateMbps), got ${r0 ? `a ${r0.kind} rate` : 'no rate limit'}`);
  const link = await createEmulatedLink({ index, ...settings });
  try {
    setCongestionControl(link.serverNs, congestionControl);
    const bytes = Math.round((rate / 8) * seconds);
    const before = await link.counters();
    const got = await tcpDownload(link, port, bytes);
    const d = downlinkDelta(before, await link.counters());
    const dropped = Object.values(d.drops).reduce((x, y) => x + y, 0);
    return {
      name,
      link: describeProfile(profile),
      goodputMbps: (got.n * 8) / got.seconds / 1e6,
      wireMbps: (d.bytesOut * 8) / got.seconds / 1e6,
      seconds: got.seconds,
      lossPercent: d.packetsIn ? (100 * dropped) / d.packetsIn : 0,
      drops: d.drops,
    };
  } finally {
    await link.close();
  }
}

async function main(argv) {
  let args;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: { seconds: { type: 'string' }, network: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    fail(`${err.message}\n\n${USAGE}`);
  }
  if (args.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.positionals.length !== 1) fail(`give exactly one scenario\n\n${USAGE}`);
  const seconds = args.values.seconds === undefined ? 20 : Number(args.values.seconds);
  if (!(seconds >= 5 && seconds <= 300)) fail(`--seconds must be a number from 5 to 300, got "${args.values.seconds}"`);
  let scenario;
  try {
    ({ scenario } = loadScenario(args.positionals[0]));
  } catch (err) {
    fail(err.message);
  }
  const names = args.values.network ? args.values.network.split(',').map((s) => s.trim()) : Object.keys(scenario.profiles);
  const unknown = names.filter((n) => !scenario.profiles[n]);
  if (unknown.length) fail(`--network: ${unknown.join(', ')} not among the scenario's profiles (${Object.keys(scenario.profiles).join(', ')})`);
  try {
    requireRoot();
  } catch (err) {
    fail(err.message);
  }
  let stopping = false;
  process.on('SIGINT', () => {
    if (stopping) process.exit(130);
    stopping = true;
    process.stderr.write('\ncalibrate: SIGINT: stopping after the current profile (its link is removed); Ctrl-C again to quit at once\n');
  });
  const rows = [];
  for (const [i, name] of names.entries()) {
    if (stopping) break;
    process.stderr.write(`calibrate: [${i + 1}/${names.length}] ${name}: ${describeProfile(scenario.profiles[name])}, ${scenario.congestionControl}, ~${seconds} s ...\n`);
    const r = await calibrateProfile(name, scenario.profiles[name], { congestionControl: scenario.congestionControl, seconds, index: 60 + (process.pid % 100), port: 9500 + i });
    process.stderr.write(`calibrate:   goodput ${r.goodputMbps.toFixed(2)} Mbit/s, ${r.lossPercent.toFixed(2)} % of downlink packets dropped\n`);
    rows.push(r);
  }
  const header = ['profile', 'link', 'bulk TCP goodput (Mbit/s)', 'IP delivered (Mbit/s)', 'downlink packets dropped', 'by cause'];
  const lines = rows.map((r) => [r.name, r.link, r.goodputMbps.toFixed(2), r.wireMbps.toFixed(2), `${r.lossPercent.toFixed(2)} %`, Object.entries(r.drops).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ') || '-']);
  process.stdout.write(`${path.basename(args.positionals[0])}: bulk TCP (${scenario.congestionControl}) through each profile, ~${seconds} s each, ${new Date().toISOString().slice(0, 10)}\n`);
  process.stdout.write(`${[header, header.map(() => '---'), ...lines].map((l) => `| ${l.join(' | ')} |`).join('\n')}\n`);
  return stopping ? 130 : 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
  process.stderr.write(`calibrate: ${err.stack || err.message}\n`);
  process.exit(1);
});
