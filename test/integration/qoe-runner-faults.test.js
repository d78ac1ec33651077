'use strict';
// Faults in the QoE runner, as they happen: the origin is SIGKILLed in one playback and Chromium
// in another, for real, by the PIDs the runner prints with --verbose, a few seconds into the
// playback. Each playback must end within seconds (not at its timeout) as "failed" with a reason
// that names what died, with none of its processes left, and the run must go on to the next
// playback; `--resume` then runs exactly those two again, to ok. Needs root (CI has it).
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ensureContent } = require('../../origin/content/ensure-content');
const { runQoeCli } = require('../support/qoe-cli');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..');
const isRoot = process.getuid() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) process.stderr.write('qoe-runner-faults needs root (network namespaces, TUN): skipped\n');

const NAME = `faults-test-${process.pid}`;
const TIMEOUT_SECONDS = 120;
// Three short playbacks: the origin dies in the first, Chromium in the second, the third is left alone.
const SCENARIO = `name: ${NAME}
description: the fault test's scenario (test/integration/qoe-runner-faults.test.js)
content: sample
durationSeconds: 15
repetitions: 3
timeoutSeconds: ${TIMEOUT_SECONDS}
transports: [http11]
abrs: [bba2]
profiles:
  rtt40-4mbit: { rttMs: 40, rateMbps: 4 }
`;
const ID = (r) => `http11.bba2.rtt40-4mbit.r${r}`;
const KILL_AFTER_MS = 3000;
const PLAYING_RE = /^\[(\d)\/3\] (\S+) playing: origin PID (\d+) in (labsrv\d+), Chromium PID (\d+) in (labcli\d+)$/gm;

const labNamespaces = () => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' }).split('\n').map((l) => l.split(' ')[0]).filter((n) => /^lab(srv|cli)\d+$/.test(n));

/** A process as [pid, start time in clock ticks]: PIDs are reused, the pair is not. */
function processIdentity(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has ended; only its parent (init, for Chromium's children) has yet to reap it.
    return fields[0] === 'Z' ? null : `${pid}@${fields[19]}`;
  } catch {
    return null;
  }
}
const cmdline = (pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
const pidsIn = (ns) => execFileSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' }).split(/\s+/).filter(Boolean).map(Number);
const readRecords = (dir) => Object.fromEntries(fs.readdirSync(path.join(dir, 'playbacks'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(dir, 'playbacks', f), 'utf8'))).map((r) => [r.id, r]));

describeAsRoot('npm run qoe with the origin and Chromium killed mid-playback', () => {
  let tmp;
  let scenarioFile;
  let runDir = null;
  let child = null;
  const faults = {}; // by playback number: what was killed, when, and what was running
  let first;
  let firstRecords;
  let startedMs;

  beforeAll(async () => {
    await ensureContent({ preset: 'sample', contentDir: path.join(REPO, 'content') });
    tmp = makeLabTempDir('faults');
    scenarioFile = path.join(tmp, `${NAME}.yaml`);
    fs.writeFileSync(scenarioFile, SCENARIO);
    startedMs = Date.now();
    // No --out: the run goes to runs/<name>-<time>/, where --resume looks for it.
    first = await runQoeCli([scenarioFile, '--verbose', '--no-report'], {
      onStderr: (err, c) => {
        child = c;
        if (!runDir && /^run directory: (.+)$/m.test(err)) runDir = /^run directory: (.+)$/m.exec(err)[1];
        for (const m of err.matchAll(PLAYING_RE)) {
          const n = Number(m[1]);
          if (faults[n] || n > 2) continue;
          const f = { id: m[2], originPid: Number(m[3]), serverNs: m[4], chromiumPid: Number(m[5]), clientNs: m[6] };
          faults[n] = f;
          f.killed = n === 1 ? 'origin' : 'chromium';
          f.timer = setTimeout(() => {
            try {
              // Every process of this playback, in both namespaces, to check that none outlives it.
              f.processes = [...pidsIn(f.serverNs), ...pidsIn(f.clientNs)].map(processIdentity).filter(Boolean);
              f.originCmd = cmdline(f.originPid);
              f.chromiumCmd = cmdline(f.chromiumPid);
              f.originInServerNs = pidsIn(f.serverNs).includes(f.originPid);
              f.chromiumInClientNs = pidsIn(f.clientNs).includes(f.chromiumPid);
              f.killedAt = Date.now();
              process.kill(n === 1 ? f.originPid : f.chromiumPid, 'SIGKILL');
            } catch (e) {
              f.killError = e.message; // the playback was already over: the test fails below
            }
          }, KILL_AFTER_MS);
        }
        for (const [n, f] of Object.entries(faults)) {
          if (f.endedAt || !new RegExp(`^\\[${n}/3\\] ${f.id.replace(/\./g, '\\.')} FAILED`, 'm').test(err)) continue;
          // The record is written after the playback's cleanup: by now all of it must be gone.
          f.endedAt = Date.now();
          f.survivors = (f.processes || []).filter((id) => processIdentity(Number(id.split('@')[0])) === id);
        }
      },
    });
    child = null;
    first.seconds = (Date.now() - startedMs) / 1000;
    for (const f of Object.values(faults)) clearTimeout(f.timer);
    if (runDir) firstRecords = readRecords(runDir);
    for (const [n, f] of Object.entries(faults)) {
      process.stderr.write(`qoe-runner-faults: [${n}/3] killed ${f.killed} ${f.killedAt ? 'at' : `NOT (${f.killError})`} ${KILL_AFTER_MS / 1000} s into the playback, playback ended ${f.endedAt ? ((f.endedAt - f.killedAt) / 1000).toFixed(1) : '?'} s later; ${firstRecords && firstRecords[f.id] ? firstRecords[f.id].error : 'no record'}\n`);
    }
    process.stderr.write(`qoe-runner-faults: first run ${first.seconds.toFixed(0)} s, exit ${first.code}\n`);
  }, 400000);

  afterAll(async () => {
    for (const f of Object.values(faults)) clearTimeout(f.timer);
    // A test that gave up early leaves the runner to end itself as Ctrl-C would.
    if (child && child.exitCode === null) {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    if (runDir && runDir.startsWith(path.join(REPO, 'runs', `${NAME}-`))) fs.rmSync(runDir, { recursive: true, force: true });
  });

  test('the PIDs the runner prints are the origin in the server namespace and Chromium in the client namespace', () => {
    expect(faults[1].killedAt).toBeDefined();
    expect(faults[2].killedAt).toBeDefined();
    for (const f of [faults[1], faults[2]]) {
      expect(f.originCmd).toMatch(/node .*origin\/cli\.js/);
      expect(f.originInServerNs).toBe(true);
      expect(f.chromiumCmd).toMatch(/^\/usr\/lib\/chromium\/chromium /);
      expect(f.chromiumCmd).not.toMatch(/--type=/); // the browser process, not a renderer
      expect(f.chromiumInClientNs).toBe(true);
    }
  });

  test('each killed playback ends within seconds, failed, naming what died; the run goes on', () => {
    expect(first.code).toBe(1);
    expect(first.err).toMatch(/qoe: 1 ok, 2 failed of 3/);
    expect(Object.keys(firstRecords).sort()).toEqual([ID(1), ID(2), ID(3)]);
    const origin = firstRecords[ID(1)];
    expect(origin.status).toBe('failed');
    expect(origin.error).toMatch(/^the origin exited \(SIGKILL\) during the playback/);
    // Killed while it played: the page's state and the QoE so far were recorded.
    expect(origin.diagnostics.video.currentTime).toBeGreaterThan(0);
    expect(origin.partialQoe.segments.length).toBeGreaterThan(0);
    const chromium = firstRecords[ID(2)];
    expect(chromium.status).toBe('failed');
    expect(chromium.error).toBe('Chromium exited (SIGKILL) during the playback');
    for (const f of [faults[1], faults[2]]) {
      expect(f.endedAt).toBeDefined();
      expect(f.endedAt - f.killedAt).toBeLessThan(15000);
    }
    expect(firstRecords[ID(3)].status).toBe('ok');
    expect(firstRecords[ID(3)].qoe.summary.playSeconds).toBeGreaterThan(10);
    // Three playbacks of 15 s, far below even one playback's timeout.
    expect(first.seconds).toBeLessThan(TIMEOUT_SECONDS);
  });

  test('nothing of a killed playback is left: no process (checked as it was recorded), no namespace', () => {
    for (const f of [faults[1], faults[2]]) {
      expect(f.processes.length).toBeGreaterThan(2);
      expect(f.survivors).toEqual([]);
    }
    const left = labNamespaces();
    expect(left).not.toContain(faults[1].serverNs);
    expect(left).not.toContain(faults[1].clientNs);
  });

  test('--resume runs exactly the two failed playbacks again, to ok', async () => {
    const r = await runQoeCli([scenarioFile, '--resume', '--no-report'], { onStderr: (err, c) => { child = c; } });
    child = null;
    expect(r.err).toMatch(/3 playbacks \(1 already done\), 2 to run/);
    expect(r.err).toContain(`run directory: ${runDir}`);
    expect(r.err).toMatch(new RegExp(`\\[1/2\\] ${ID(1).replace(/\./g, '\\.')} ok `));
    expect(r.err).toMatch(new RegExp(`\\[2/2\\] ${ID(2).replace(/\./g, '\\.')} ok `));
    expect(r.code).toBe(0);
    const records = readRecords(runDir);
    for (const id of [ID(1), ID(2), ID(3)]) expect(records[id].status).toBe('ok');
    expect(records[ID(3)].startedAt).toBe(firstRecords[ID(3)].startedAt);
    for (const id of [ID(1), ID(2)]) expect(Date.parse(records[id].startedAt)).toBeGreaterThan(Date.parse(firstRecords[ID(3)].startedAt));
  }, 300000);
});
