'use strict';
// The runner lines its wire-byte samples up with the page's times on a clock that does not
// step: a VM resumed from a snapshot sets the wall clock forward mid-run (13 s in one
// transports-lossy playback, whose overhead then came out negative).
const { performance } = require('perf_hooks');
const { execFileSync } = require('child_process');
const { labNowMs, labMsOfMachineMonotonic, pageOriginOnLabClock } = require('../../testbed/runner/lab-clock');
const { sampleWireBytes } = require('../../testbed/runner/link-counters');
const { startSwitches } = require('../../testbed/runner/network-switches');
const { receiverSample } = require('../../testbed/competing/competing-flows');

test('a wall-clock step during sampling does not move the wire series on the page clock', async () => {
  let bytes = 0;
  const link = { counters: async () => ({ toClient: { bytesOut: (bytes += 1000) } }) };
  const pageOrigin = labNowMs();
  const wire = sampleWireBytes(link, { toClient: { bytesOut: 0 } }, 10);
  const realNow = Date.now;
  Date.now = () => realNow() + 13000; // the wall clock jumps 13 s forward
  try {
    await new Promise((resolve) => setTimeout(resolve, 150));
  } finally {
    Date.now = realNow;
  }
  const series = wire.finish(bytes, pageOrigin);
  const elapsed = labNowMs() - pageOrigin;
  expect(series.length).toBeGreaterThan(3);
  for (const [ms] of series) {
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(ms).toBeLessThanOrEqual(elapsed + 1);
  }
  expect(series[series.length - 1][1]).toBe(bytes);
});

test("the page's time 0 on the lab clock comes from a paired reading of the page's monotonic clock", async () => {
  // A page whose performance.now() started 5000 ms after this process's: its origin lies 5000
  // ms later on the lab clock, whatever the wall clock says.
  const page = { evaluate: async () => performance.now() - 5000 };
  const realNow = Date.now;
  Date.now = () => realNow() - 60000;
  try {
    const origin = await pageOriginOnLabClock(page);
    expect(origin - performance.timeOrigin).toBeCloseTo(5000, -1); // within ~5 ms
  } finally {
    Date.now = realNow;
  }
});

test('the lab clock is monotonic and near the wall clock at the start', () => {
  const a = labNowMs();
  const b = labNowMs();
  expect(b).toBeGreaterThanOrEqual(a);
  expect(Math.abs(a - Date.now())).toBeLessThan(60000);
});

test("a child process's machine-monotonic reading lands on this process's lab clock between our own readings", () => {
  // What the competing flows' receivers send: their own performance.now() would count from
  // their own start, and their wall clock can step; CLOCK_MONOTONIC is one clock for all.
  const before = labNowMs();
  const child = Number(execFileSync(process.execPath, ['-e', "const { machineMonotonicMs } = require(process.argv[1]); process.stdout.write(String(machineMonotonicMs()))", require.resolve('../../testbed/runner/lab-clock')], { encoding: 'utf8' }));
  const after = labNowMs();
  const onLab = labMsOfMachineMonotonic(child);
  expect(onLab).toBeGreaterThan(before);
  expect(onLab).toBeLessThan(after);
});

test("a network switch's time on the playback's clock does not move with a wall-clock step", async () => {
  const configured = [];
  const link = { configure: async (direction, settings) => { configured.push([direction, settings]); }, switchClientAddress: () => '10.0.0.3' };
  const realNow = Date.now;
  const start = labNowMs();
  Date.now = () => realNow() + 13000;
  let switches;
  try {
    switches = startSwitches({ link, switches: [{ atSeconds: 0.05, network: 'lte', newAddress: true }], settingsFor: () => ({ toClient: { rate: 1 }, toServer: { rate: 2 } }), startLabMs: start });
    await new Promise((resolve) => setTimeout(resolve, 150));
  } finally {
    Date.now = realNow;
    if (switches) switches.cancel();
  }
  const [entry] = switches.log;
  expect(entry).toMatchObject({ network: 'lte', clientIp: '10.0.0.3' });
  expect(entry.atSeconds).toBeGreaterThanOrEqual(0.049);
  expect(entry.atSeconds).toBeLessThan(0.15);
  expect(configured).toEqual([['toClient', { rate: 1 }], ['toServer', { rate: 2 }]]);
});

test("a competing flow's receiver sample goes on the lab clock by its monotonic stamp", () => {
  // The receiver took its stamp now, on the machine's monotonic clock.
  const mono = Number(process.hrtime.bigint()) / 1e6;
  const before = labNowMs();
  const sample = receiverSample({ mono, bytes: 4096 });
  const after = labNowMs();
  expect(sample[1]).toBe(4096);
  expect(sample[0]).toBeGreaterThan(before - 5);
  expect(sample[0]).toBeLessThanOrEqual(after);
  expect(receiverSample({ listening: true })).toBeNull();
  expect(receiverSample({ t: Date.now(), bytes: 1 })).toBeNull(); // a wall-clock stamp alone is not lined up
});
