#!/usr/bin/env node
'use strict';
// npm run lab -- [SCENARIO --profile NAME] [KEY=VALUE ...]: the origin behind the link
// emulator for a person with a browser. The origin runs in the emulated link's server
// namespace; the client end of the link stays in this machine's own namespace, so a browser
// on this machine that opens the printed address reaches the origin only through the
// emulator (TCP, and the DataChannel's UDP too). The link's settings change live from stdin.
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { parseArgs } = require('node:util');
const { loadScenario } = require('../scenario/load-scenario');
const { validateProfile, mergeProfile, profileToLinkSettings, describeProfile } = require('../scenario/network-profile');
const { createEmulatedLink, EmulationUnavailableError, requireRoot } = require('../netem/namespace-link');
const congestionControls = require('../congestion/registry');
const { applyCongestionControls } = require('../congestion/apply-congestion-controls');
const { startOriginInNamespace } = require('../runner/origin-in-namespace');
const { leftoverNotice } = require('../netem/leftover-namespaces');
const { describeCounters } = require('../netem/effects');
const { buildIfAbsent } = require('../../origin/content/build-if-absent');
const { chromiumArgsFor } = require('../../player/transports');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');

function usage() {
  return `Usage: npm run lab -- [SCENARIO --profile NAME] [KEY=VALUE ...] [options]

Starts the origin behind the link emulator and prints the player page's address. Open it in
a browser on this machine: every packet between that browser and the origin, TCP and the
DataChannel's UDP, crosses the emulated link. Pick a transport (e.g. "DataChannel (FDSP)"),
move the BP slider, and watch PLR and rebuffering in the page's QoE table.

The link: a profile of a scenario (SCENARIO --profile NAME), and/or settings KEY=VALUE with
the keys of a scenario profile (testbed/scenarios/README.md), e.g.
  npm run lab -- rttMs=100 lossPercent=2 rateMbps=20
  npm run lab -- scenarios/fdsp-smoke --profile rtt100-loss2
Without either the link adds nothing (no delay, no loss, no rate limit).

While it runs, type on stdin:
  KEY=VALUE ...   change the link now (on top of the current settings)
  reset           back to the starting settings
  counters        packets, bytes and drops per direction since the start
  help            this list
Ctrl-C (or end of input) stops the origin and removes the emulated link. The origin's request
log (printed at start, under the system's temp directory) is kept if anything was requested.

Options:
  --profile NAME     the profile of SCENARIO to start with
  --content PRESET   content to make sure is built (default sample; the page offers all built)
  --cc NAME          TCP congestion control in the origin's namespace: ${congestionControls.names().join(', ')}
                     (default: the profile's congestionControl, else cubic; vegas and lia are the
                     lab's BPF programs)
  --content-dir DIR  content (default ./content)
  --data-dir DIR     TLS certificate and other state (default ./data)
  -h, --help         this text

Needs root (network namespaces and TUN devices). The HTTP/2 listener's certificate does not
name the emulated address: the browser will ask to accept it.
`;
}

function fail(message, code = 2) {
  process.stderr.write(`lab: ${message}\n`);
  process.exit(code);
}

/** "rttMs=100" -> ['rttMs', 100]; numbers and true/false become values, the rest stays text. */
function parseSetting(text) {
  const m = /^([A-Za-z]+)=(.*)$/.exec(text);
  if (!m) throw new Error(`"${text}" is not KEY=VALUE`);
  const raw = m[2];
  let value = raw;
  if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (raw !== '' && Number.isFinite(Number(raw))) value = Number(raw);
  return [m[1], value];
}

/** Settings words -> a validated partial profile, or the problems. */
function parseSettings(words) {
  const raw = {};
  for (const w of words) {
    const [k, v] = parseSetting(w);
    raw[k] = v;
  }
  const problems = [];
  // The origin's congestion control is chosen at start (--cc, or the profile's), not per change.
  if (raw.congestionControl !== undefined) problems.push('congestionControl is chosen at start: npm run lab -- --cc NAME');
  const profile = validateProfile(raw, 'settings', problems, (f) => fs.readFileSync(f, 'utf8'), { partial: true });
  if (problems.length) throw new Error(problems.join('; '));
  return profile;
}

/** Each network effect words its own counters (testbed/netem/effects/). */
function formatCounters(c) {
  const line = (name, d) => `  ${name}: ${d.packetsOut}/${d.packetsIn} packets delivered, ${(d.bytesOut / 1e6).toFixed(2)} MB; ${describeCounters(d)}`;
  return [line('to browser', c.toClient), line('to origin ', c.toServer)].join('\n');
}

async function main(argv) {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        profile: { type: 'string' },
        content: { type: 'string', default: 'sample' },
        cc: { type: 'string' },
        'content-dir': { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    fail(`${err.message}\n\n${usage()}`);
  }
  if (args.values.help) {
    process.stdout.write(usage());
    return 0;
  }
  const settingsWords = args.positionals.filter((p) => p.includes('='));
  const scenarioArgs = args.positionals.filter((p) => !p.includes('='));
  if (scenarioArgs.length > 1) fail(`one SCENARIO at most, got ${scenarioArgs.join(', ')}`);
  let profile = { rttMs: 0 };
  if (scenarioArgs.length) {
    let scenario;
    try {
      scenario = loadScenario(scenarioArgs[0]).scenario;
    } catch (err) {
      fail(err.message);
    }
    const names = Object.keys(scenario.profiles);
    if (!args.values.profile) fail(`name one of ${scenario.name}'s profiles with --profile: ${names.join(', ')}`);
    if (!scenario.profiles[args.values.profile]) fail(`${scenario.name} has no profile "${args.values.profile}" (it has ${names.join(', ')})`);
    profile = scenario.profiles[args.values.profile];
  } else if (args.values.profile) {
    fail('--profile needs a SCENARIO to take it from');
  }
  try {
    profile = mergeProfile(profile, parseSettings(settingsWords));
  } catch (err) {
    fail(err.message);
  }
  if (profile.extraPaths) fail('npm run lab runs one path; a profile with extraPaths (Multipath TCP) runs in npm run qoe');
  const cc = args.values.cc || profile.congestionControl || 'cubic';
  if (!congestionControls.has(cc)) fail(`--cc must be one of ${congestionControls.names().join(', ')}, got "${cc}"`);
  try {
    requireRoot();
  } catch (err) {
    if (err instanceof EmulationUnavailableError) fail(`${err.message} (without emulation: npm run origin)`);
    throw err;
  }
  const notice = leftoverNotice();
  if (notice) process.stderr.write(`lab: ${notice}\n`);
  const contentDir = path.resolve(args.values['content-dir'] || path.join(REPO, 'content'));
  const dataDir = path.resolve(args.values['data-dir'] || path.join(REPO, 'data'));
  await buildIfAbsent(args.values.content, contentDir, { who: 'lab' });

  const startProfile = profile;
  const logFile = path.join(makeLabTempDir('origin'), 'requests.ndjson');
  // What the link is set to now, for the page's throughput chart (the origin serves it at
  // /api/link): the downlink's rate schedule and the wall-clock time its clock started, which
  // is when the link was made or last changed (schedules restart then). Written whole and renamed,
  // so the origin never reads half a file.
  const linkStateFile = path.join(path.dirname(logFile), 'link-state.json');
  const writeLinkState = (p, settings) => {
    const state = { description: describeProfile(p), downlinkRate: settings.toClient.rate || null, clockOriginWallMs: Date.now() };
    fs.writeFileSync(`${linkStateFile}.tmp`, `${JSON.stringify(state)}\n`);
    fs.renameSync(`${linkStateFile}.tmp`, linkStateFile);
  };
  let link = null;
  let origin = null;
  let congestion = null;
  let stopping = null;
  const stop = async (code) => {
    if (!stopping) {
      stopping = (async () => {
        if (origin) await origin.close().catch(() => {});
        if (link) await link.close().catch(() => {});
        if (congestion) await congestion.release();
        // The request log is the one record of what the page fetched: kept if it has anything.
        let logged = 0;
        try { logged = fs.statSync(logFile).size; } catch { /* the origin never started */ }
        fs.rmSync(linkStateFile, { force: true });
        fs.rmSync(`${linkStateFile}.tmp`, { force: true });
        if (logged > 0) process.stderr.write(`lab: the request log stays at ${logFile}\n`);
        else fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
        process.stderr.write('lab: stopped; the emulated link is gone\n');
        return code;
      })();
    }
    return stopping;
  };
  const signalled = new Promise((resolve) => {
    process.once('SIGINT', () => resolve(0));
    process.once('SIGTERM', () => resolve(0));
  });
  try {
    const settings = profileToLinkSettings(profile);
    link = await createEmulatedLink({ index: 30 + (process.pid % 10), toClient: settings.toClient, toServer: settings.toServer, clientInHost: true });
    writeLinkState(profile, settings);
    congestion = await applyCongestionControls(link, { namespaceDefault: cc });
    origin = await startOriginInNamespace({ netns: link.serverNs, host: link.serverIp, contentDir, dataDir, logFile, linkStateFile });
  } catch (err) {
    await stop(1);
    fail(err.message, 1);
  }
  const base = origin.pageBase;
  process.stdout.write([
    `lab: link: ${describeProfile(profile)} (origin TCP congestion control: ${cc})`,
    `lab: open in a browser on this machine (through the emulator):`,
    `  ${base}/`,
    `  ${base}/?content=${args.values.content}&transport=datachannel&abr=bba2&bp=0`,
    `lab: HTTP/2: ${origin.urls.h2}/ (accept the certificate); request log: ${logFile}`,
    ...(chromiumArgsFor(origin.info).length ? [`lab: HTTP/3 and WebTransport need Chromium started with: ${chromiumArgsFor(origin.info).join(' ')}`] : []),
    `lab: the origin runs in network namespace ${link.serverNs} (its TCP state: ip netns exec ${link.serverNs} ss -ti)`,
    'lab: type KEY=VALUE to change the link, "counters", "reset" or "help"; Ctrl-C stops.',
    '',
  ].join('\n'));

  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  const ended = new Promise((resolve) => rl.once('close', () => resolve(0)));
  rl.on('line', async (line) => {
    const words = line.trim().split(/\s+/).filter(Boolean);
    if (!words.length) return;
    try {
      if (words[0] === 'help') process.stdout.write(`${usage().split('While it runs')[1].split('Options:')[0].trim()}\n`);
      else if (words[0] === 'counters') process.stdout.write(`${formatCounters(await link.counters())}\n`);
      else {
        profile = words[0] === 'reset' ? startProfile : mergeProfile(profile, parseSettings(words));
        const s = profileToLinkSettings(profile);
        // Schedules (square waves, traces) restart from now, as in a new playback.
        await link.configure('toClient', { ...s.toClient, timeOriginMs: 'now' });
        await link.configure('toServer', { ...s.toServer, timeOriginMs: 'now' });
        writeLinkState(profile, s);
        process.stdout.write(`lab: link now: ${describeProfile(profile)}\n`);
      }
    } catch (err) {
      process.stdout.write(`lab: ${err.message} (type "help")\n`);
    }
  });
  const code = await Promise.race([signalled, ended]);
  rl.close();
  return stop(code);
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
    process.stderr.write(`lab: ${err.stack || err.message}\n`);
    process.exit(1);
  });
}

module.exports = { parseSetting, parseSettings, formatCounters };
