'use strict';
// Origin listeners are plug-ins (origin/listeners/): a listener registered from a test fixture,
// with no other edit, gets its port option and --help line, is served, printed, and published in
// the ready line and /api/info. And the upgrade endpoints ride on every HTTP/1.x listener.
const fs = require('node:fs');
const path = require('node:path');
const net = require('node:net');
const { spawn, spawnSync } = require('node:child_process');
const WebSocket = require('ws');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const CLI = path.join(__dirname, '..', '..', 'origin', 'cli.js');
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'throwaway-listener.js');
const ALL_PORTS_FREE = ['--http11-port', '0', '--http10-port', '0', '--h2-port', '0'];

let tmp;
beforeAll(() => {
  tmp = makeLabTempDir('listeners');
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** node [--require FIXTURE] origin/cli.js ARGS, resolved with the parsed ready line. */
function startCli(nodeArgs, args) {
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => { out += c; });
  child.stderr.on('data', (c) => { err += c; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
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
  ready.catch(() => {});
  return { child, ready, exited, output: () => ({ out, err }) };
}

function exitWithin(run, ms) {
  return Promise.race([
    run.exited,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`still running ${ms} ms after the signal`)), ms).unref()),
  ]);
}

test('a listener registered from a fixture gets a port flag and --help line; without it the flag is unknown', () => {
  const help = spawnSync(process.execPath, ['--require', FIXTURE, CLI, '--help'], { encoding: 'utf8' });
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(/^ {2}--throwaway-port N +Throw-away port \(default 8099; 0 = any free port\)$/m);
  expect(help.stdout).toMatch(/"throwaway":\.\./);
  // The built-in ones are still there, from the same registry.
  expect(help.stdout).toMatch(/^ {2}--h2-port N +HTTP\/2 \(TLS\) port \(default 8443/m);

  const bad = spawnSync(process.execPath, ['--require', FIXTURE, CLI, '--throwaway-port', 'x1'], { encoding: 'utf8' });
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/--throwaway-port must be a port number 0-65535, got "x1"/);

  const without = spawnSync(process.execPath, [CLI, '--throwaway-port', '0'], { encoding: 'utf8' });
  expect(without.status).toBe(2);
  expect(without.stderr).toMatch(/Unknown option '--throwaway-port'/);
  expect(spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' }).stdout).not.toMatch(/throwaway/);
});

test('the fixture listener is served, printed, and in the ready line and /api/info; Ctrl-C frees its port', async () => {
  const run = startCli(['--require', FIXTURE], ['--preset', 'none', ...ALL_PORTS_FREE, '--throwaway-port', '0', '--data-dir', tmp]);
  try {
    const ready = await run.ready;
    expect(Object.keys(ready.urls).sort()).toEqual(['fdsp', 'h2', 'h3', 'http10', 'http11', 'http11pool', 'throwaway', 'webtransport']);
    const port = Number(new URL(ready.urls.throwaway).port);
    expect(ready.urls.throwaway).toBe(`http://127.0.0.1:${port}`);
    expect(port).toBeGreaterThan(0);
    expect(run.output().out).toContain(`\n  Throw-away      ${ready.urls.throwaway}/\n`);

    // Served over it, and the origin says which listener answered.
    const info = await (await fetch(`${ready.urls.throwaway}/api/info`)).json();
    expect(info.listener).toBe('throwaway');
    expect(info.urls).toEqual(ready.urls);
    // Every listener publishes the same URLs.
    expect((await (await fetch(`${ready.urls.http11}/api/info`)).json()).urls).toEqual(ready.urls);

    run.child.kill('SIGINT');
    expect((await exitWithin(run, 5000)).code).toBe(0);
    await new Promise((resolve, reject) => {
      const s = net.createServer().listen(port, '127.0.0.1', () => s.close(resolve));
      s.on('error', reject);
    });
  } finally {
    run.child.kill('SIGKILL');
  }
});

test('a busy port of the fixture listener names its own flag', async () => {
  const blocker = net.createServer();
  await new Promise((r) => blocker.listen(0, '127.0.0.1', r));
  try {
    const port = blocker.address().port;
    const r = spawnSync(process.execPath, ['--require', FIXTURE, CLI, '--preset', 'none', ...ALL_PORTS_FREE, '--throwaway-port', String(port), '--data-dir', tmp],
      { encoding: 'utf8', timeout: 20000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use \\(throwaway listener\\); pass --throwaway-port N`));
  } finally {
    blocker.close();
  }
});

describe('in process', () => {
  let origin;
  const logged = [];
  beforeAll(async () => {
    require(FIXTURE);
    const { startOrigin } = require('../../origin/start-origin');
    origin = await startOrigin({
      http11Port: 0, http10Port: 0, h2Port: 0, throwawayPort: 0, contentDir: tmp, playerDir: path.join(tmp, 'player'), dataDir: path.join(tmp, 'data'), log: (e) => logged.push(e),
    });
  });
  afterAll(() => origin && origin.close());

  test('startOrigin takes the fixture\'s port option and logs requests under its name', async () => {
    expect(origin.urls.throwaway).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${origin.urls.throwaway}/healthz`)).status).toBe(200);
    await origin.flushLog();
    expect(logged.some((e) => e.listener === 'throwaway' && e.path === '/healthz' && e.status === 200)).toBe(true);
  });

  test('the signaling WebSocket is reached on both HTTP/1.x listeners, and only at its path', async () => {
    expect(origin.urls.fdsp).toBe(`${origin.urls.http11.replace('http:', 'ws:')}/fdsp`);
    for (const base of [origin.urls.http11, origin.urls.http10]) {
      const ws = new WebSocket(`${base.replace('http:', 'ws:')}/fdsp`);
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      ws.close();
    }
    const statusOf = (port, target) => new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => s.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`));
      let got = '';
      s.on('data', (c) => { got += c; });
      s.on('close', () => resolve(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? got));
      s.on('error', reject);
    });
    expect(await statusOf(Number(new URL(origin.urls.http11).port), '/nope')).toBe('404');
    expect(await statusOf(Number(new URL(origin.urls.http10).port), '/fdsp-not')).toBe('404');
    expect(await statusOf(Number(new URL(origin.urls.http11).port), 'http://[')).toBe('400');
  });
});
