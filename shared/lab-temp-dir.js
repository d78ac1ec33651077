'use strict';
// Every temporary directory the lab makes is named lab-<kind>-<pid>-XXXXXX, <pid> being the
// process that made it. Its maker removes it when it ends, but a run killed hard (SIGKILL, a
// machine restart) cannot: `npm run cleanup` then removes the directories whose maker no longer
// runs, which the PID in the name tells without guessing from their age.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** A new directory under the system's temporary directory (or `parent`), named for its maker. */
function makeLabTempDir(kind, parent = os.tmpdir()) {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(kind)) throw new RangeError(`a lab temporary directory's kind is lower-case words joined by "-", got "${kind}"`);
  return fs.mkdtempSync(path.join(parent, `lab-${kind}-${process.pid}-`));
}

/** { kind, pid } for a name makeLabTempDir gives, else null. */
function parseLabTempDirName(name) {
  const m = /^lab-([a-z0-9]+(?:-[a-z0-9]+)*?)-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
  return m ? { kind: m[1], pid: Number(m[2]) } : null;
}

module.exports = { makeLabTempDir, parseLabTempDirName };
