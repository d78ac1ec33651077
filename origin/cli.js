#!/usr/bin/env node
'use strict';
// npm run origin -- [options]: builds the content preset if absent, then serves it.
const { stackNames } = require('./datachannel/stacks');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { startOrigin, DEFAULTS } = require('./start-origin');
const { buildIfAbsent } = require('./content/build-if-absent');
const registry = require('./listeners');

/** A --help option line, its flag in the same 20-character column as the fixed options below. */
function optionLine(flag, text) {
  return `  ${flag.padEnd(20)} ${text}`;
}

// Listener names, port flags and URL keys come from the registry (origin/listeners/), read when
// used: a listener registered before main() runs (node --require) is served like the built-in ones.
function usage() {
  const listeners = registry.listeners();
  const attachments = registry.attachments();
  const carriers = listeners.filter((l) => l.upgrades).map((l) => l.label);
  const urlKeys = [...listeners, ...attachments].map((e) => `"${e.urlKey}":..`).join(',');
  return `Usage: npm run origin -- [options]
       node origin/cli.js [options]

Serves the player page, MPDs, segments and segment indexes over ${listeners.length} listeners:
${[...listeners.map((l) => `  ${l.description}`),
    ...attachments.map((a) => `and ${a.label} at ${a.path} on the ${carriers.join(' and ')} listeners.`)].join('\n')}
Before serving, builds the content preset if it is not there yet (see npm run content -- --help).
Once every listener is up it prints their URLs for people and then, as its last line, one JSON
object for programs: {"event":"origin-ready","pid":N,"urls":{${urlKeys}},
"spkiSha256":..,"certSha256Hex":..,"certFile":..,"logFile":..}.

Options:
  --host ADDR          bind address (default ${DEFAULTS.host})
${listeners.map((l) => optionLine(`${l.port.flag} N`, `${l.label} port (default ${l.port.default}; 0 = any free port)`)).join('\n')}
${listeners.flatMap((l) => l.options || []).map((opt) => optionLine(`${opt.flag} X`, opt.help)).join('\n')}
  --content-dir DIR    content root (default ${DEFAULTS.contentDir})
  --data-dir DIR       certificate and logs (default ${DEFAULTS.dataDir})
  --log FILE           request log, NDJSON (default <data-dir>/logs/requests-<time>.ndjson)
  --link-state FILE    the emulated link's current settings, served at /api/link for the page's
                       throughput chart (npm run lab writes it; default none)
  --cache-mb N         content kept in memory after it was served once, in MiB (default
                       ${DEFAULTS.cacheMegabytes}; 0 = read every request from disk)
  --webrtc-stack NAME  the WebRTC stack of DataChannel (FDSP) sessions: ${stackNames().join(' or ')}
                       (default ${DEFAULTS.webrtcStack})
  --preset NAME        content preset (or group) to build if absent; the printed page
                       URLs play its (first) MPD (default sample; "none" skips)
  -h, --help           show this help
`;
}

function fail(message) {
  process.stderr.write(`origin: ${message}\n\n${usage()}`);
  process.exit(2);
}

function port(value, name) {
  if (value === undefined) return undefined;
  const n = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(n <= 65535)) fail(`${name} must be a port number 0-65535, got "${value}"`);
  return n;
}

/**
 * Chromium speaks HTTP/3 to a self-signed origin only when told to, per host:port, with the
 * certificate's key pinned (docs/platform-notes.md): the exact command line a person runs.
 */
function quicBrowserLines(origin, pagePath) {
  if (!origin.urls.h3 || !origin.urls.http11) return [];
  const { host } = new URL(origin.urls.h3);
  return [
    'Open the page over HTTP/3 in Chromium with:',
    `  chromium --enable-quic --origin-to-force-quic-on=${host} --ignore-certificate-errors-spki-list=${origin.spkiSha256} '${origin.urls.http11}${pagePath}'`,
  ];
}

/** The machine-readable ready line: {"event":"origin-ready", pid, urls, spkiSha256, ...}. */
function readyLine(origin) {
  return {
    event: 'origin-ready',
    pid: process.pid,
    urls: origin.urls,
    spkiSha256: origin.spkiSha256,
    certSha256Hex: origin.certSha256Hex,
    certFile: origin.certFile,
    logFile: origin.logFile,
  };
}

function megabytes(value, name) {
  if (value === undefined) return undefined;
  if (!/^\d{1,6}$/.test(value)) fail(`${name} must be a whole number of MiB (0 or more), got "${value}"`);
  return Number(value);
}

async function main(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        host: { type: 'string' },
        ...Object.fromEntries(registry.listeners().map((l) => [l.port.flag.slice(2), { type: 'string' }])),
        ...Object.fromEntries(registry.listeners().flatMap((l) => l.options || []).map((opt) => [opt.flag.slice(2), { type: 'string' }])),
        'content-dir': { type: 'string' },
        'data-dir': { type: 'string' },
        log: { type: 'string' },
        'cache-mb': { type: 'string' },
        'webrtc-stack': { type: 'string' },
        'link-state': { type: 'string' },
        preset: { type: 'string', default: 'sample' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    return fail(err.message);
  }
  if (values.help) {
    process.stdout.write(usage());
    return;
  }
  let presets = [];
  if (values.preset !== 'none') {
    try {
      // Required here, not at the top: `--preset none` must work without the content tooling.
      // A group name ("paper-fdsp", "all") stands for several presets, each built if absent.
      presets = require('./content/presets').resolvePresetNames(values.preset);
    } catch (err) {
      return fail(err.message);
    }
  }
  const contentDir = path.resolve(values['content-dir'] || DEFAULTS.contentDir);
  const dataDir = path.resolve(values['data-dir'] || DEFAULTS.dataDir);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const logFile = path.resolve(values.log || path.join(dataDir, 'logs', `requests-${stamp}.ndjson`));
  const options = {
    host: values.host || DEFAULTS.host,
    ...Object.fromEntries(registry.listeners().map((l) => [l.port.option, port(values[l.port.flag.slice(2)], l.port.flag) ?? l.port.default])),
    contentDir,
    dataDir,
    logFile,
    cacheMegabytes: megabytes(values['cache-mb'], '--cache-mb') ?? DEFAULTS.cacheMegabytes,
    linkStateFile: values['link-state'] ? path.resolve(values['link-state']) : null,
    webrtcStack: values['webrtc-stack'] ?? DEFAULTS.webrtcStack,
  };
  if (!stackNames().includes(options.webrtcStack)) return fail(`--webrtc-stack must be ${stackNames().join(' or ')}, got "${options.webrtcStack}"`);
  for (const opt of registry.listeners().flatMap((l) => l.options || [])) {
    const text = values[opt.flag.slice(2)];
    if (text === undefined) continue;
    try {
      options[opt.option] = opt.parse(text);
    } catch (err) {
      return fail(`${opt.flag} ${err.message}`);
    }
  }

  let stopping = false;
  let origin = null;
  let building = null;
  const controller = new AbortController();
  const stop = async (signal) => {
    if (stopping) {
      // A second Ctrl-C means "now": skip the orderly shutdown.
      process.exit(130);
    }
    stopping = true;
    controller.abort();
    // The abort kills ffmpeg; waiting for the build to settle lets it remove its partial
    // directory instead of leaving it (and possibly ffmpeg) behind. Bounded, so a stuck
    // child cannot hold the exit.
    if (building) await Promise.race([building.catch(() => {}), new Promise((r) => setTimeout(r, 5000).unref())]);
    if (origin) await origin.close();
    process.stderr.write(`origin: stopped (${signal})\n`);
    process.exit(0);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  for (const preset of presets) {
    try {
      building = buildIfAbsent(preset, contentDir, { signal: controller.signal, who: 'origin' });
      await building;
    } catch (err) {
      if (stopping) return undefined;
      process.stderr.write(`origin: cannot build content "${preset}": ${err.message}\n`);
      process.exit(1);
    }
  }

  if (stopping) return undefined;
  try {
    origin = await startOrigin(options);
  } catch (err) {
    process.stderr.write(`origin: ${err.message}\n`);
    process.exit(1);
  }
  // Each listener's page plays over that same listener's transport (player/run-config.js).
  const page = (transport) => (presets.length > 0 && transport ? `/?content=${presets[0]}&transport=${transport}&abr=dashjs&autostart=1` : '/');
  const lines = [
    'dash-transport-lab origin is serving:',
    // Label column as before ("  HTTP/1.1        http://..."): scripts written against it still read it.
    ...registry.listeners().map((l) => (origin.unavailable[l.name]
      ? `  ${l.label.padEnd(15)} not serving: ${origin.unavailable[l.name]}`
      : `  ${l.label.padEnd(15)} ${origin.urls[l.urlKey]}${page(l.pageTransport)}${Object.keys(l.extraUrls || {}).map((k) => `\n  ${''.padEnd(15)} ${origin.urls[k]} (${k})`).join('')}`)),
    ...(presets.length > 0 && origin.urls.h2 ? [`live broadcast: ${origin.urls.h2}/?content=${presets[0]}&transport=h2&abr=bba2&live=1&autostart=1 (every content is also live at /live/<start ms>/<content>/manifest.mpd)`] : []),
    `content:       ${contentDir}`,
    `request log:   ${origin.logFile}`,
    `TLS SPKI sha256 (for --ignore-certificate-errors-spki-list): ${origin.spkiSha256}`,
    ...quicBrowserLines(origin, page('h3')),
    'Ctrl-C stops it.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  // The same for programs (the testbed, benchmarks, tests): one JSON line, printed last, once
  // every listener is up. Matching the human text above would break when it is reworded.
  process.stdout.write(`${JSON.stringify(readyLine(origin))}\n`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`origin: ${err.stack || err.message}\n`);
    process.exit(1);
  });
}

module.exports = { main, usage, READY_EVENT: 'origin-ready' };
