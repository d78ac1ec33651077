'use strict';
// `npm run origin` as a user runs it: a child process, its printed URLs, Ctrl-C.
const fs = require('node:fs');
const path = require('node:path');
const net = require('node:net');
const http2 = require('node:http2');
const dgram = require('node:dgram');
const { spawn, spawnSync } = require('node:child_process');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const CLI = path.join(__dirname, '..', '..', 'origin', 'cli.js');
let tmp;
beforeAll(() => {
  tmp = makeLabTempDir('cli');
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function startCli(args) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => { out += c; });
  child.stderr.on('data', (c) => { err += c; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  // Ready when it prints its machine-readable line ({"event":"origin-ready",...}), not when the
  // human text says so: that text may be reworded.
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 20 s: ${out} ${err}`)), 20000);
    child.stdout.on('data', () => {
      const line = out.split('\n').find((l) => l.startsWith('{"event":"origin-ready"'));
      if (line && out.includes(`${line}\n`)) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    exited.then(() => { clearTimeout(timer); reject(new Error(`exited early: ${err}`)); });
  });
  // Not every test waits for readiness; an early exit is then not an unhandled rejection.
  ready.catch(() => {});
  return { child, ready, exited, output: () => ({ out, err }) };
}

/** Resolves with the child's exit, or rejects if it takes longer than `ms`. */
function exitWithin(run, ms) {
  return Promise.race([
    run.exited,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`still running ${ms} ms after the signal`)), ms).unref()),
  ]);
}

test.each(['SIGINT', 'SIGTERM'])('prints its URLs, serves on all four, and stops cleanly on %s', async (signal) => {
  const dataDir = fs.mkdtempSync(path.join(tmp, 'data-'));
  const run = startCli(['--preset', 'none', '--http11-port', '0', '--http10-port', '0', '--h2-port', '0', '--h3-port', '0', '--data-dir', dataDir]);
  try {
    const ready = await run.ready;
    const { out } = run.output();
    // The listener lines: "  LABEL   URL/..."
    const urls = [...out.matchAll(/^ {2}\S.{14} (https?:\/\/127\.0\.0\.1:(\d+))\//gm)];
    // The last: the HTTP/1.1 pool's first port (its URL lists all 12, "/#ports=P1,P2,...").
    expect(urls.map((m) => m[1].split(':')[0])).toEqual(['http', 'http', 'https', 'https', 'http']);
    // Port 0 became real, distinct ports.
    expect(new Set(urls.map((m) => m[2])).size).toBe(5);
    const poolPorts = new URL(ready.urls.http11pool).hash.replace('#ports=', '').split(',').map(Number);
    expect(poolPorts[0]).toBe(Number(urls[4][2]));
    expect(poolPorts).toHaveLength(12);
    expect(ready.urls.webtransport).toBe(`${urls[3][1]}/fdsp`);
    // The exact Chromium command line for the page over HTTP/3.
    expect(out).toContain(`chromium --enable-quic --origin-to-force-quic-on=127.0.0.1:${urls[3][2]} --ignore-certificate-errors-spki-list=${ready.spkiSha256} '${urls[0][1]}/`);
    expect(urls.every((m) => Number(m[2]) > 0)).toBe(true);
    expect(out).toMatch(/SPKI sha256.*: [A-Za-z0-9+/]{43}=/);
    expect(out).toContain(path.join(dataDir, 'logs'));
    const [http11, http10, h2] = urls.map((m) => m[1]);
    expect((await fetch(`${http11}/healthz`)).status).toBe(200);
    expect((await fetch(`${http10}/healthz`)).status).toBe(200);
    expect(await h2Status(`${h2}/healthz`, path.join(dataDir, 'tls', 'origin-cert.pem'))).toBe(200);

    // A client holding an idle keep-alive connection must not delay the exit.
    const idle = net.connect(Number(new URL(http11).port), '127.0.0.1');
    idle.on('error', () => {});
    await new Promise((r) => idle.once('connect', r));
    idle.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => idle.once('data', r));

    run.child.kill(signal);
    const { code } = await exitWithin(run, 5000);
    idle.destroy();
    expect(code).toBe(0);
    expect(run.output().err).toContain(`stopped (${signal})`);
    // The ports are free again: the QUIC server's UDP port too (its process ended with the origin).
    await new Promise((resolve, reject) => {
      const u = dgram.createSocket('udp4');
      u.once('error', reject);
      u.bind(Number(urls[3][2]), '127.0.0.1', () => u.close(resolve));
    });
    for (const port of [...urls.slice(0, 3).map((m) => Number(m[2])), ...poolPorts]) {
      await new Promise((resolve, reject) => {
        const s = net.createServer().listen(port, '127.0.0.1', () => s.close(resolve));
        s.on('error', reject);
      });
    }
    // The request log was written and flushed before the exit.
    const logs = fs.readdirSync(path.join(dataDir, 'logs'));
    expect(logs).toHaveLength(1);
    const lines = fs.readFileSync(path.join(dataDir, 'logs', logs[0]), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.protocol).sort()).toEqual(['h2', 'http/1.1', 'http/1.1', 'http/1.1']);
  } finally {
    run.child.kill('SIGKILL');
  }
});

function h2Status(url, caFile) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(new URL(url).origin, { ca: fs.readFileSync(caFile), servername: 'localhost' });
    session.on('error', reject);
    const stream = session.request({ ':path': new URL(url).pathname });
    stream.on('response', (h) => {
      stream.resume();
      stream.on('end', () => {
        session.close();
        resolve(h[':status']);
      });
    });
    stream.on('error', reject);
  });
}

test('a preset already built is served as is, and each printed page URL plays it over its own listener', async () => {
  const contentDir = path.join(tmp, 'prebuilt');
  fs.mkdirSync(path.join(contentDir, 'sample'), { recursive: true });
  for (const f of ['manifest.mpd', 'index.json', 'content.json']) fs.writeFileSync(path.join(contentDir, 'sample', f), '{}');
  const run = startCli(['--http11-port', '0', '--http10-port', '0', '--h2-port', '0', '--data-dir', tmp, '--content-dir', contentDir]);
  try {
    await run.ready;
    const { out, err } = run.output();
    for (const transport of ['http11', 'http10', 'h2']) {
      expect(out).toMatch(new RegExp(`/\\?content=sample&transport=${transport}&abr=dashjs&autostart=1`));
    }
    expect(err).toMatch(/content "sample" present/);
    const http11 = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(out)[1];
    const info = await (await fetch(`${http11}/api/info`)).json();
    expect(info.content.map((c) => c.name)).toEqual(['sample']);
    run.child.kill('SIGINT');
    expect((await exitWithin(run, 5000)).code).toBe(0);
  } finally {
    run.child.kill('SIGKILL');
  }
});

test('Ctrl-C while the content is being built stops ffmpeg and leaves no partial build', async () => {
  const contentDir = path.join(tmp, 'building');
  const run = startCli(['--http11-port', '0', '--http10-port', '0', '--h2-port', '0', '--data-dir', tmp, '--content-dir', contentDir]);
  try {
    // Wait until ffmpeg is really running for this content dir.
    const deadline = Date.now() + 20000;
    while (ffmpegPidsFor(contentDir).length === 0) {
      if (Date.now() > deadline) throw new Error(`ffmpeg never started: ${run.output().err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    run.child.kill('SIGINT');
    const { code } = await exitWithin(run, 8000);
    expect(code).toBe(0);
    expect(ffmpegPidsFor(contentDir)).toEqual([]);
    expect(fs.existsSync(contentDir) ? fs.readdirSync(contentDir) : []).toEqual([]);
  } finally {
    run.child.kill('SIGKILL');
    for (const pid of ffmpegPidsFor(contentDir)) process.kill(pid, 'SIGKILL');
  }
});

/** PIDs of ffmpeg processes writing under dir (found through /proc, Linux only). */
function ffmpegPidsFor(dir) {
  const pids = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline;
    try {
      cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (path.basename(cmdline[0] || '') === 'ffmpeg' && cmdline.some((a) => a.startsWith(dir))) pids.push(Number(entry));
  }
  return pids;
}

test('a port in use is a clear error, not a stack trace', async () => {
  const blocker = net.createServer();
  await new Promise((r) => blocker.listen(0, '127.0.0.1', r));
  try {
    const port = blocker.address().port;
    const r = spawnSync(process.execPath, [CLI, '--preset', 'none', '--http11-port', String(port), '--data-dir', tmp], { encoding: 'utf8', timeout: 20000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use.*--http11-port`));
  } finally {
    blocker.close();
  }
});

test('--help, bad options and bad values', () => {
  const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(/--h2-port N/);
  const bad = spawnSync(process.execPath, [CLI, '--nope'], { encoding: 'utf8' });
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/Unknown option '--nope'/);
  expect(bad.stderr).toMatch(/Usage:/);
  const positional = spawnSync(process.execPath, [CLI, 'stray'], { encoding: 'utf8' });
  expect(positional.status).toBe(2);
  expect(positional.stderr).toMatch(/stray/);
  const notANumber = spawnSync(process.execPath, [CLI, '--http11-port', '80a'], { encoding: 'utf8' });
  expect(notANumber.status).toBe(2);
  expect(notANumber.stderr).toMatch(/--http11-port must be a port number/);
  const port = spawnSync(process.execPath, [CLI, '--h2-port', '99999'], { encoding: 'utf8' });
  expect(port.status).toBe(2);
  expect(port.stderr).toMatch(/--h2-port must be a port number/);
  const preset = spawnSync(process.execPath, [CLI, '--preset', 'nonexistent', '--data-dir', tmp], { encoding: 'utf8' });
  expect(preset.status).toBe(2);
  expect(preset.stderr).toMatch(/unknown content preset "nonexistent"/);
});
