'use strict';
// The lab's temporary directories carry their maker's PID (shared/lab-temp-dir.js); npm run
// cleanup removes those whose maker has ended (shared/leftover-temp-dirs.js) and keeps a live
// maker's, however old, and everything not named as the lab names its directories.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { makeLabTempDir, parseLabTempDirName } = require('../../shared/lab-temp-dir');
const { removeLeftoverTempDirs, processStartMs } = require('../../shared/leftover-temp-dirs');

let root;
beforeEach(() => { root = makeLabTempDir('leftover-dirs'); });
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test('a lab temporary directory is named for its kind and its maker', () => {
  const dir = makeLabTempDir('chromium-ns', root);
  expect(path.basename(dir)).toMatch(new RegExp(`^lab-chromium-ns-${process.pid}-[A-Za-z0-9]{6}$`));
  expect(parseLabTempDirName(path.basename(dir))).toEqual({ kind: 'chromium-ns', pid: process.pid });
  expect(parseLabTempDirName('lab-foo-2-123-abcdef')).toEqual({ kind: 'foo-2', pid: 123 });
  // Names from before the PID was in them, and other programs' directories, are not the lab's to judge.
  expect(parseLabTempDirName('lab-e2e-IWOlxt')).toBeNull();
  expect(parseLabTempDirName('org.chromium.Chromium.qNEk2n')).toBeNull();
  expect(() => makeLabTempDir('Bad/Kind', root)).toThrow('lower-case words joined by "-"');
});

test('a process start time comes from /proc: ours is in the past, an ended one has none', () => {
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  expect(processStartMs(process.pid)).toBeLessThanOrEqual(Date.now());
  expect(processStartMs(process.pid)).toBeGreaterThan(Date.now() - 24 * 3600e3 * 365);
  expect(processStartMs(dead)).toBeNull();
});

test('directories of ended makers go (also where their PID was taken again); a live maker\'s and foreign names stay', () => {
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  const reused = 4242;
  const names = {
    deadMaker: `lab-quic-${dead}-abc123`,
    liveMaker: `lab-chromium-ns-${process.pid}-def456`,
    reusedPid: `lab-e2e-${reused}-ghi789`,
    oldName: 'lab-e2e-Xy12Zq',
    foreign: 'playwright_chromiumdev_profile-aXrM4K',
  };
  for (const n of Object.values(names)) fs.mkdirSync(path.join(root, n));
  fs.writeFileSync(path.join(root, names.deadMaker, 'h3.sock'), '');
  fs.writeFileSync(path.join(root, `lab-file-${dead}-jkl012`), 'a file, not a directory');
  const realStart = processStartMs;
  // PID 4242 "runs" but started an hour from now: not the process that made the directory.
  const startOf = (pid) => (pid === reused ? Date.now() + 3600e3 : realStart(pid));

  const dry = removeLeftoverTempDirs({ dir: root, dryRun: true, startOf });
  expect(dry.removed.sort()).toEqual([names.deadMaker, names.reusedPid].sort());
  expect(fs.existsSync(path.join(root, names.deadMaker))).toBe(true);

  const done = removeLeftoverTempDirs({ dir: root, startOf });
  expect(done.removed.sort()).toEqual([names.deadMaker, names.reusedPid].sort());
  expect(done.kept).toEqual([{ name: names.liveMaker, why: `its maker, PID ${process.pid}, still runs` }]);
  expect(done.errors).toEqual([]);
  expect(fs.readdirSync(root).sort()).toEqual([names.liveMaker, names.oldName, names.foreign, `lab-file-${dead}-jkl012`].sort());
});

test('npm run cleanup names the directories it would remove and the live ones it keeps', () => {
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  fs.mkdirSync(path.join(root, `lab-quic-${dead}-abc123`));
  fs.mkdirSync(path.join(root, `lab-chromium-${process.pid}-def456`));
  // os.tmpdir() is $TMPDIR: the CLI looks in our directory, not the machine's.
  const r = spawnSync(process.execPath, [path.join(__dirname, '../../testbed/cli/cleanup.js'), '--dry-run'], { env: { ...process.env, TMPDIR: root }, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout).toContain(`cleanup: would remove 1 temporary directory of ended processes: lab-quic-${dead}-abc123\n`);
  expect(r.stdout).toContain(`cleanup: kept lab-chromium-${process.pid}-def456: its maker, PID ${process.pid}, still runs\n`);
  expect(fs.existsSync(path.join(root, `lab-quic-${dead}-abc123`))).toBe(true);
});
