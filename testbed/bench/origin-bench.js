#!/usr/bin/env node
'use strict';
// npm run bench:origin: how fast the origin serves segments, against nginx serving the same
// files in the same run, over HTTP/1.1 and HTTP/2 (TLS), with h2load as the client. nginx is
// the baseline a CDN or a static server would give: one worker, sendfile, its access log on,
// as the origin keeps its request log on. Server and client are pinned to different cores
// (the machine has 2), so the client does not measure itself. Loopback only.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { spawn, spawnSync } = require('node:child_process');
const { ensureCertificate } = require('../../origin/tls-certificate');
const { ensureContent } = require('../../origin/content/ensure-content');
const { startOriginProcess } = require('../origin-process');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
const TARGETS = { http11: 0.5, h2: 0.8 };
const USAGE = `Usage: npm run bench:origin -- [options]

Requests per second for the sample's media segments, the lab's origin against nginx (1 worker,
sendfile, access log on) serving the same files in the same run, over HTTP/1.1 and HTTP/2 (TLS),
measured with h2load. Prints both, the ratio origin / nginx and the targets
(HTTP/1.1 >= ${TARGETS.http11}x, h2 >= ${TARGETS.h2}x). Installs nginx-light and nghttp2-client
(h2load) with apt-get if they are missing (needs root then). Loopback only.

Options:
  --requests N     requests per measurement (default 20000)
  --clients N      concurrent connections (default 16)
  --streams N      concurrent h2 streams per connection (default 4)
  --rounds N       measurements per server and protocol, best kept (default 3)
  --content NAME   content preset whose segments are fetched (default sample)
  --json FILE      also write the figures as JSON
  -h, --help       this text
`;

function fail(message) {
  process.stderr.write(`bench:origin: ${message}\n`);
  process.exit(2);
}

function have(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** nginx and h2load, installed with apt-get when missing (the bench's own setup). */
function ensureTools() {
  const missing = [];
  if (!have('nginx') && !fs.existsSync('/usr/sbin/nginx')) missing.push('nginx-light');
  if (!have('h2load')) missing.push('nghttp2-client');
  if (!have('taskset')) missing.push('util-linux');
  if (missing.length === 0) return;
  if (process.getuid && process.getuid() !== 0) {
    fail(`needs ${missing.join(', ')}; install as root: apt-get update && apt-get install -y ${missing.join(' ')}`);
  }
  process.stderr.write(`bench:origin: installing ${missing.join(', ')} (apt-get)\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', ...missing]]) {
    const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) fail(`apt-get ${args.join(' ')} failed`);
  }
}

/** A free TCP port on 127.0.0.1 (bound and released; nginx binds it right after). */
function freePort() {
  const net = require('node:net');
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** nginx with one worker on the content root; resolves once both ports answer. */
async function startNginx({ root, certFile, keyFile, dir, core }) {
  const http11Port = await freePort();
  const h2Port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, `
# Written by bench:origin for one run.
user root;
worker_processes 1;
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/nginx-access.log;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { video/iso.segment m4s; video/mp4 mp4; application/dash+xml mpd; }
  client_body_temp_path ${dir}/tmp; proxy_temp_path ${dir}/tmp; fastcgi_temp_path ${dir}/tmp;
  uwsgi_temp_path ${dir}/tmp; scgi_temp_path ${dir}/tmp;
  server {
    listen 127.0.0.1:${http11Port};
    listen 127.0.0.1:${h2Port} ssl http2;
    ssl_certificate ${certFile};
    ssl_certificate_key ${keyFile};
    location /content/ { alias ${root}/; }
  }
}
`);
  fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  const child = spawn('taskset', ['-c', String(core), 'nginx', '-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => { err += c; });
  const base = `http://127.0.0.1:${http11Port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${err.trim()}`);
    try {
      await fetch(`${base}/content/`);
      return { child, urls: { http11: base, h2: `https://127.0.0.1:${h2Port}` } };
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`nginx did not answer on ${base}: ${err.trim()}`);
}

/** One h2load measurement: {reqPerSec, succeeded, failed, errored, mbPerSec}. */
function h2load({ uriFile, protocol, requests, clients, streams, core }) {
  const args = ['-c', String(core), 'h2load', '-n', String(requests), '-c', String(clients), '-i', uriFile];
  if (protocol === 'http11') args.push('--h1');
  else args.push('-m', String(streams));
  const r = spawnSync('taskset', args, { encoding: 'utf8', timeout: 600000 });
  if (r.status !== 0) throw new Error(`h2load failed (${r.status}): ${r.stderr || r.stdout}`);
  const reqs = /finished in [\d.]+m?s, ([\d.]+) req\/s, ([\d.]+)([KMG]?B)\/s/.exec(r.stdout);
  const counts = /requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed, (\d+) errored/.exec(r.stdout);
  const codes = /status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(r.stdout);
  if (!reqs || !counts || !codes) throw new Error(`cannot read h2load's output:\n${r.stdout}`);
  const unit = { B: 1e-6, KB: 1e-3, MB: 1, GB: 1e3 }[reqs[3]];
  return {
    reqPerSec: Number(reqs[1]),
    mbPerSec: Number(reqs[2]) * unit * 1.048576 ** ({ B: 0, KB: 1, MB: 2, GB: 3 }[reqs[3]]) ,
    succeeded: Number(counts[1]),
    failed: Number(counts[2]) + Number(counts[3]),
    non2xx: Number(codes[2]) + Number(codes[3]) + Number(codes[4]),
  };
}

/** CPU time (user + system, seconds) a process has used, from /proc/PID/stat. */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ ticks
}

/** The segment URLs of a content directory, in a fixed shuffled order (every rung mixed). */
function segmentPaths(contentDir, name) {
  const files = fs.readdirSync(path.join(contentDir, name)).filter((f) => /^chunk-.*\.m4s$/.test(f)).sort();
  if (files.length === 0) fail(`content/${name} has no segments`);
  // A deterministic shuffle (LCG), so runs fetch the same sequence.
  let x = 12345;
  const out = files.slice();
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out.map((f) => `/content/${name}/${f}`);
}

function averageBytes(contentDir, name, paths) {
  const total = paths.reduce((a, p) => a + fs.statSync(path.join(contentDir, name, path.basename(p))).size, 0);
  return total / paths.length;
}

async function main(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        requests: { type: 'string', default: '20000' },
        clients: { type: 'string', default: '16' },
        streams: { type: 'string', default: '4' },
        rounds: { type: 'string', default: '3' },
        content: { type: 'string', default: 'sample' },
        json: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    fail(`${err.message}\n\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const int = (name) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < 1) fail(`--${name} must be a positive integer, got "${values[name]}"\n\n${USAGE}`);
    return n;
  };
  const opts = { requests: int('requests'), clients: int('clients'), streams: int('streams'), rounds: int('rounds') };
  ensureTools();
  const contentDir = path.join(REPO, 'content');
  await ensureContent({ preset: values.content, contentDir });
  const cores = os.cpus().length;
  // Server on the last core, client on the first; on one core both share it (said below).
  const serverCore = cores - 1;
  const clientCore = 0;

  const dir = makeLabTempDir('bench-origin');
  const cert = ensureCertificate(path.join(dir, 'data'));
  const paths = segmentPaths(contentDir, values.content);
  const avg = averageBytes(contentDir, values.content, paths);
  let nginx = null;
  let origin = null;
  const cleanup = () => {
    if (nginx && nginx.child.exitCode === null) nginx.child.kill('SIGKILL');
    if (origin) origin.killNow();
  };
  process.once('SIGINT', () => { cleanup(); process.exit(130); });
  process.once('SIGTERM', () => { cleanup(); process.exit(143); });
  try {
    nginx = await startNginx({ root: path.join(contentDir), certFile: cert.certFile, keyFile: cert.keyFile, dir, core: serverCore });
    origin = await startOriginProcess({ contentDir, dataDir: path.join(dir, 'data'), logFile: path.join(dir, 'origin-requests.ndjson'), prefix: ['taskset', '-c', String(serverCore)] });
    // nginx serves /content/<preset>/... from the same root by alias.
    const servers = { nginx: nginx.urls, origin: origin.urls };
    process.stdout.write(`bench:origin: ${paths.length} segments of content/${values.content}, ${(avg / 1024).toFixed(0)} KiB average; ${opts.requests} requests x ${opts.rounds} rounds per cell, ${opts.clients} connections${cores < 2 ? '; WARNING: one core, client and server share it' : `; server on core ${serverCore}, h2load on core ${clientCore}`}\n`);
    const results = {};
    for (const protocol of ['http11', 'h2']) {
      for (const server of ['nginx', 'origin']) {
        const uriFile = path.join(dir, `uris-${server}-${protocol}.txt`);
        fs.writeFileSync(uriFile, paths.map((p) => `${servers[server][protocol]}${p}`).join('\n') + '\n');
        // Warm-up (page cache, JIT, TLS session), then the measured rounds; best of N, as the
        // machine is shared and noise only ever slows a round down.
        h2load({ uriFile, protocol, requests: Math.min(2000, opts.requests), clients: opts.clients, streams: opts.streams, core: clientCore });
        const rounds = [];
        for (let i = 0; i < opts.rounds; i++) {
          // The server's CPU time over the round: whether it was the bottleneck (near 100 % of
          // its core) or the client was, and what a request costs it.
          const pid = server === 'nginx' ? nginx.child.pid : origin.pid;
          const cpu0 = cpuSeconds(pid);
          const round = h2load({ uriFile, protocol, ...opts, core: clientCore });
          const cpu = cpuSeconds(pid) - cpu0;
          rounds.push({ ...round, serverCpuShare: cpu / (opts.requests / round.reqPerSec), serverCpuMsPerRequest: (1000 * cpu) / opts.requests });
        }
        const best = rounds.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a));
        const bad = rounds.reduce((a, r) => a + r.failed + r.non2xx, 0);
        results[`${server}-${protocol}`] = { ...best, rounds: rounds.map((r) => r.reqPerSec), bad };
        process.stdout.write(`  ${server.padEnd(6)} ${protocol.padEnd(6)} ${rounds.map((r) => r.reqPerSec.toFixed(0)).join(' / ')} req/s, server CPU ${rounds.map((r) => `${(100 * r.serverCpuShare).toFixed(0)} %`).join(' / ')}${bad ? `  (${bad} failed or non-2xx!)` : ''}\n`);
      }
    }
    await origin.close(); // SIGINT: the request log is flushed and closed
    const logLines = fs.readFileSync(path.join(dir, 'origin-requests.ndjson'), 'utf8').split('\n').filter(Boolean).length;
    const expected = 2 * (Math.min(2000, opts.requests) + opts.rounds * opts.requests);
    const rows = ['http11', 'h2'].map((protocol) => {
      const n = results[`nginx-${protocol}`];
      const o = results[`origin-${protocol}`];
      const ratio = o.reqPerSec / n.reqPerSec;
      return {
        protocol, nginx: n.reqPerSec, origin: o.reqPerSec, originGbit: (o.reqPerSec * avg * 8) / 1e9, ratio, target: TARGETS[protocol],
        nginxCpuMs: n.serverCpuMsPerRequest, originCpuMs: o.serverCpuMsPerRequest, nginxCpu: n.serverCpuShare, originCpu: o.serverCpuShare,
        pass: ratio >= TARGETS[protocol] && o.bad === 0 && n.bad === 0,
      };
    });
    process.stdout.write('\n| protocol | nginx req/s | origin req/s | origin Gbit/s | origin / nginx | target | | server CPU nginx / origin | CPU ms per request nginx / origin |\n|---|---|---|---|---|---|---|---|---|\n');
    for (const r of rows) {
      process.stdout.write(`| ${r.protocol} | ${r.nginx.toFixed(0)} | ${r.origin.toFixed(0)} | ${r.originGbit.toFixed(2)} | ${r.ratio.toFixed(2)}x | >= ${r.target}x | ${r.pass ? 'PASS' : 'FAIL'} | ${(100 * r.nginxCpu).toFixed(0)} % / ${(100 * r.originCpu).toFixed(0)} % | ${r.nginxCpuMs.toFixed(3)} / ${r.originCpuMs.toFixed(3)} (${(r.originCpuMs / r.nginxCpuMs).toFixed(1)}x) |\n`);
    }
    // When neither server used its whole core, h2load (one thread on the other core) was the
    // limit and req/s compares the client, not the servers: the CPU per request still does.
    if (rows.some((r) => r.nginxCpu < 0.9 && r.originCpu < 0.9)) {
      process.stdout.write('note: where neither server used ~100 % of its core, the client was the bottleneck; compare the CPU ms per request there\n');
    }
    process.stdout.write(`\norigin request log: ${logLines} lines for ${expected} requests sent${logLines === expected ? ' (complete)' : ' (INCOMPLETE)'}\n`);
    if (values.json) fs.writeFileSync(values.json, `${JSON.stringify({ averageSegmentBytes: avg, options: opts, results, rows, logLines, expected }, null, 2)}\n`);
    if (logLines !== expected || rows.some((r) => !r.pass)) process.exitCode = 1;
  } finally {
    cleanup();
    if (origin) await origin.exited;
    if (nginx) await new Promise((r) => (nginx.child.exitCode !== null || nginx.child.signalCode !== null ? r() : nginx.child.once('exit', r)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`bench:origin: ${err.stack || err.message}\n`);
    process.exit(1);
  });
}
