'use strict';
// LIA's coupling arithmetic as the BPF program runs it (testbed/congestion/bpf/lab_lia_coupling.h,
// compiled natively here) against RFC 6356's formula in floating point: the window w with which
// the kernel's additive increase gives min(alpha / cwnd_total, 1 / cwnd_i) per segment ACKed.
// Skipped with the reason where no C compiler is installed (npm run setup installs gcc).
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

let cc = null;
try {
  execFileSync('cc', ['--version'], { stdio: 'ignore' });
  cc = 'cc';
} catch {
  process.stderr.write('lia-coupling skipped: no C compiler (cc); npm run setup installs gcc\n');
}
const testIfCc = cc ? test : test.skip;

/** RFC 6356 section 3: alpha, then the per-ACK increase as a window the kernel divides by. */
function rfcWindow(own, subflows) {
  const total = subflows.reduce((a, s) => a + s.cwnd, 0);
  if (subflows.length < 2 || total <= own) return own;
  const best = Math.max(...subflows.map((s) => s.cwnd / (s.rttUs * s.rttUs)));
  const sum = subflows.reduce((a, s) => a + s.cwnd / s.rttUs, 0);
  const alpha = (total * best) / (sum * sum);
  return Math.max(own, total / alpha);
}

let binary = null;
let dir = null;
beforeAll(() => {
  if (!cc) return;
  dir = makeLabTempDir('lia');
  binary = path.join(dir, 'lia-coupling');
  execFileSync(cc, ['-O2', '-Wall', '-Werror', '-o', binary, path.join(__dirname, '../fixtures/lia-coupling-main.c')]);
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const CASES = [
  // Two equal paths: alpha = 1/2, so w = 2 x cwnd_total: each subflow grows a quarter segment per
  // RTT, both together half of what one Reno flow with their total window would.
  { own: 10, subflows: [{ cwnd: 10, rttUs: 100000 }, { cwnd: 10, rttUs: 100000 }], expected: 40 },
  // One subflow: Reno.
  { own: 25, subflows: [{ cwnd: 25, rttUs: 50000 }], expected: 25 },
  // Paper 004's differential paths, 50 and 100 ms, windows in proportion to their RTTs.
  { own: 10, subflows: [{ cwnd: 10, rttUs: 50000 }, { cwnd: 20, rttUs: 100000 }] },
  { own: 20, subflows: [{ cwnd: 10, rttUs: 50000 }, { cwnd: 20, rttUs: 100000 }] },
  // Unequal windows on equal RTTs, three subflows, a large window, a tiny RTT.
  { own: 5, subflows: [{ cwnd: 5, rttUs: 20000 }, { cwnd: 40, rttUs: 20000 }] },
  { own: 8, subflows: [{ cwnd: 8, rttUs: 30000 }, { cwnd: 12, rttUs: 60000 }, { cwnd: 30, rttUs: 90000 }] },
  { own: 3000, subflows: [{ cwnd: 3000, rttUs: 250000 }, { cwnd: 2000, rttUs: 40000 }] },
  { own: 4, subflows: [{ cwnd: 4, rttUs: 300 }, { cwnd: 6, rttUs: 900 }] },
];

testIfCc('a subflow that stopped publishing (its path down) stops counting after max(4 RTT, 1 s)', () => {
  // Two equal subflows of 10 at 100 ms: w = 40 while both count; the second 0.5 s silent still
  // counts, 1.5 s silent does not (Reno: w = own window); at 400 ms RTT it counts up to 1.6 s.
  const lines = ['STALE 10 10 100000 0 10 100000 500', 'STALE 10 10 100000 0 10 100000 1500', 'STALE 10 10 400000 0 10 400000 1500', 'STALE 10 10 400000 0 10 400000 1700'];
  const out = execFileSync(binary, { input: `${lines.join('\n')}\n`, encoding: 'utf8' }).trim().split('\n').map(Number);
  expect(out).toEqual([40, 10, 40, 10]);
});

testIfCc('the BPF program\'s integer window equals RFC 6356\'s within 1 segment (0.5 % for large ones)', () => {
  const input = CASES.map((c) => [c.own, c.subflows.length, ...c.subflows.flatMap((s) => [s.cwnd, s.rttUs])].join(' ')).join('\n');
  const out = execFileSync(binary, { input: `${input}\n`, encoding: 'utf8' }).trim().split('\n').map(Number);
  expect(out).toHaveLength(CASES.length);
  for (const [i, c] of CASES.entries()) {
    const ref = rfcWindow(c.own, c.subflows);
    if (c.expected !== undefined) expect(ref).toBeCloseTo(c.expected, 9);
    expect(Math.abs(out[i] - ref)).toBeLessThanOrEqual(Math.max(1, 0.005 * ref));
  }
});
