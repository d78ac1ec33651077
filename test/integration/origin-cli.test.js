'use strict';
// `npm run origin` as a user runs it: a child process, its printed URLs, Ctrl-C.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const { spawn, spawnSync } = require('node:child_process');

const CLI = path.join(__dirname, '..', '..', 'origin', 'cli.js');
let tmp;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-cli-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function startCli(args) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => { out += c; });
  child.stderr.on('data', (c) => { err += c; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URLs within 20 s: ${out} ${err}`)), 20000);
    child.stdout.on('data', () => {
      if (out.includes('Ctrl-C')) {
        clearTimeout(timer);
        resolve();
      }
    });
    exited.then(() => { clearTimeout(timer); reject(new Error(`exited early: ${err}`)); });
  });
  return { child, ready, exited, output: () => ({ out, err }) };
}

test('prints its URLs, serves, and stops cleanly on SIGINT', async () => {
  const run = startCli(['--preset', 'none', '--http11-port', '0', '--http10-port', '0', '--h2-port', '0', '--data-dir', tmp]);
  try {
    await run.ready;
    const { out } = run.output();
    const urls = [...out.matchAll(/(https?:\/\/127\.0\.0\.1:\d+)\//g)].map((m) => m[1]);
    expect(urls).toHaveLength(3);
    expect(out).toMatch(/SPKI sha256.*: [A-Za-z0-9+/]{43}=/);
    const res = await fetch(`${urls[0]}/healthz`);
    expect(res.status).toBe(200);
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    expect(code).toBe(0);
    // The port is free again.
    const port = Number(new URL(urls[0]).port);
    await new Promise((resolve, reject) => {
      const s = net.createServer().listen(port, '127.0.0.1', () => s.close(resolve));
      s.on('error', reject);
    });
    // The request log was written.
    const logs = fs.readdirSync(path.join(tmp, 'logs'));
    expect(fs.readFileSync(path.join(tmp, 'logs', logs[0]), 'utf8')).toMatch(/"path":"\/healthz"/);
  } finally {
    run.child.kill('SIGKILL');
  }
});

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
  expect(bad.stderr).toMatch(/nope/);
  const port = spawnSync(process.execPath, [CLI, '--h2-port', '99999'], { encoding: 'utf8' });
  expect(port.status).toBe(2);
  expect(port.stderr).toMatch(/--h2-port must be a port number/);
  const preset = spawnSync(process.execPath, [CLI, '--preset', 'nonexistent', '--data-dir', tmp], { encoding: 'utf8' });
  expect(preset.status).toBe(2);
  expect(preset.stderr).toMatch(/unknown content preset "nonexistent"/);
});
