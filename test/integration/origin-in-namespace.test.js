'use strict';
// The origin started in an emulated link's server namespace (testbed/runner/origin-in-namespace.js,
// what `npm run qoe` and `npm run lab` use): its URLs come from its JSON ready line, not from a
// port written into the testbed, and they are the ones it serves on. Needs root (CI has it).
const fs = require('node:fs');
const path = require('node:path');
const { createEmulatedLink } = require('../../testbed/netem/namespace-link');
const { startOriginInNamespace } = require('../../testbed/runner/origin-in-namespace');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('origin-in-namespace needs root (network namespaces, TUN): skipped\n');

const LINK_INDEX = 214; // apart from the runner's 40-189, the lab's 30-39 and the other tests'

describeAsRoot('the origin in a namespace', () => {
  let tmp;
  let link = null;
  let origin = null;
  beforeAll(async () => {
    tmp = makeLabTempDir('origin-ns');
    // The client end in this process's namespace: the test reaches the origin through the emulator.
    link = await createEmulatedLink({ index: LINK_INDEX, clientInHost: true });
    origin = await startOriginInNamespace({
      netns: link.serverNs, host: link.serverIp, contentDir: tmp, dataDir: path.join(tmp, 'data'), logFile: path.join(tmp, 'requests.ndjson'),
    });
  });
  afterAll(async () => {
    if (origin) await origin.close();
    if (link) await link.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('its URLs are the ready line\'s, with the default ports, and it serves on them', async () => {
    const ip = link.serverIp;
    // The HTTP/1.1 pool's default is any free ports (12), listed in its URL's fragment.
    const { http11pool, ...fixed } = origin.urls;
    expect(fixed).toEqual({ http11: `http://${ip}:8080`, http10: `http://${ip}:8081`, h2: `https://${ip}:8443`, fdsp: `ws://${ip}:8080/fdsp`, h3: `https://${ip}:8444`, webtransport: `https://${ip}:8444/fdsp` });
    const pool = new URL(http11pool);
    const poolPorts = pool.hash.replace('#ports=', '').split(',').map(Number);
    expect(pool.hostname).toBe(ip);
    expect(poolPorts).toHaveLength(12);
    expect(Number(pool.port)).toBe(poolPorts[0]);
    expect((await fetch(`http://${ip}:${poolPorts[11]}/healthz`)).status).toBe(200);
    expect(origin.pageBase).toBe(origin.urls.http11);
    const info = await (await fetch(`${origin.pageBase}/api/info`)).json();
    expect(info.urls).toEqual(origin.urls);
    expect((await fetch(`${origin.urls.http10}/healthz`)).status).toBe(200);
    // The ready line's PID is the origin itself (`ip netns exec` execs it), in the server namespace.
    expect(fs.readFileSync(`/proc/${origin.pid}/cmdline`, 'utf8')).toContain(path.join('origin', 'cli.js'));
    expect(fs.readlinkSync(`/proc/${origin.pid}/ns/net`)).not.toBe(fs.readlinkSync('/proc/self/ns/net'));
  });

  test('close() stops it in order (SIGINT, exit 0) and exited resolves', async () => {
    await origin.close();
    expect(await origin.exited).toEqual({ code: 0, signal: null });
    origin = null;
  });
});
