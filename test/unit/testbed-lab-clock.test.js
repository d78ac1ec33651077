'use strict';
// The runner lines its wire-byte samples up with the page's times on a clock that does not
// step: a VM resumed from a snapshot sets the wall clock forward mid-run (13 s in one
// transports-lossy playback, whose overhead then came out negative).
const { performance } = require('perf_hooks');
const { labNowMs, pageOriginOnLabClock } = require('../../testbed/runner/lab-clock');
const { sampleWireBytes } = require('../../testbed/runner/link-counters');

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
