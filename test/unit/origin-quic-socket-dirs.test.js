'use strict';
// An origin killed before close() (SIGKILL in the runner's fault tests, a crash) cannot remove
// its QUIC listener's socket directory; the next origin removes those of dead origins and
// leaves live ones (and anything else) alone.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { removeStaleSocketDirs } = require('../../origin/listeners/quic-listener');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

test('socket directories of dead origins are removed; live ones, other kinds and other names stay', () => {
  const tmp = makeLabTempDir('sockdirs');
  try {
    // A PID that surely ran and has ended: a child that exited.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const names = [`lab-quic-${dead}-abc123`, `lab-quic-${process.pid}-def456`, `lab-quic-${process.ppid}-ghi789`, 'lab-quic-Xy12Zq', 'other-dir',
      // Another kind's leftover is `npm run cleanup`'s to remove, not the QUIC listener's.
      `lab-chromium-${dead}-jkl012`];
    for (const n of names) fs.mkdirSync(path.join(tmp, n));
    fs.writeFileSync(path.join(tmp, names[0], 'h3.sock'), '');
    expect(removeStaleSocketDirs(tmp)).toBe(1);
    expect(fs.readdirSync(tmp).sort()).toEqual(names.slice(1).sort());
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
