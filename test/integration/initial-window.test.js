'use strict';
// A scenario's initialWindow through the real emulated link (testbed/netem/initial-window.js):
// the origin's namespace gets `initcwnd` on its route to the client, and a TCP connection the
// server namespace accepts afterwards really starts with that congestion window, as the kernel
// reports it (ss -ti), while one accepted before starts with the kernel's 10. A competing flow's
// host route gets the same window. Needs root.
const { spawn, execFileSync } = require('node:child_process');
const readline = require('node:readline');
const { createEmulatedLink } = require('../../testbed/netem/namespace-link');
const { setInitialWindow } = require('../../testbed/netem/initial-window');
const { prepareCompetingFlows } = require('../../testbed/competing/competing-flows');

const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('initial-window needs root (network namespaces, TUN): skipped\n');

const PORT = 5601;

/** A node process in a namespace, running `code`; resolves with it once it prints its first line. */
function nodeIn(ns, code) {
  const child = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`node in ${ns} exited (${c})`)));
  });
  return { child, first };
}

/** The congestion windows of the server namespace's established sockets on PORT. */
function serverWindows(ns) {
  const out = execFileSync('ip', ['netns', 'exec', ns, 'ss', '-tinH', 'state', 'established', 'sport', '=', `:${PORT}`], { encoding: 'utf8' });
  return [...out.matchAll(/\bcwnd:(\d+)/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
}

/** serverWindows once it lists `count` sockets: the client's "connected" comes one link delay before the server's. */
async function serverWindowsOf(ns, count) {
  for (let i = 0; i < 50; i += 1) {
    const w = serverWindows(ns);
    if (w.length >= count) return w;
    await new Promise((r) => { setTimeout(r, 100); });
  }
  return serverWindows(ns);
}

describeAsRoot('the origin\'s TCP initial window (initialWindow)', () => {
  let link;
  const children = [];
  beforeAll(async () => {
    link = await createEmulatedLink({ index: 218, toClient: { delayMs: 20 }, toServer: { delayMs: 20 } });
  }, 30000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    if (link) await link.close();
  });

  test('connections accepted after setInitialWindow start with that window; earlier ones with the kernel\'s', async () => {
    // A server that holds each connection open and sends nothing, so cwnd stays the initial one.
    const server = nodeIn(link.serverNs, `const s = require('node:net').createServer((c) => { c.on('error', () => {}); }); s.listen(${PORT}, '${link.serverIp}', () => console.log('listening'));`);
    children.push(server.child);
    await server.first;
    const connect = () => {
      const client = nodeIn(link.clientNs, `const c = require('node:net').connect(${PORT}, '${link.serverIp}', () => console.log('connected')); c.on('error', () => {}); setTimeout(() => {}, 60000);`);
      children.push(client.child);
      return client.first;
    };
    await connect();
    expect(await serverWindowsOf(link.serverNs, 1)).toEqual([10]);

    setInitialWindow(link, 3);
    const route = execFileSync('ip', ['-n', link.serverNs, 'route', 'get', link.clientIp], { encoding: 'utf8' });
    expect(route).toMatch(/initcwnd 3/);
    await connect();
    expect(await serverWindowsOf(link.serverNs, 2)).toEqual([3, 10]);
  }, 30000);

  test('a competing flow\'s route gets the same window', async () => {
    const flows = await prepareCompetingFlows({ link, flows: [{ label: 'r', cc: 'reno', startSeconds: 0, stopSeconds: null }], initialWindow: 4 });
    try {
      const [flow] = flows.flows;
      const route = execFileSync('ip', ['-n', link.serverNs, 'route', 'show', `${flow.address}/32`], { encoding: 'utf8' });
      expect(route).toMatch(/congctl reno/);
      expect(route).toMatch(/initcwnd 4/);
    } finally {
      flows.kill();
    }
  }, 30000);
});
