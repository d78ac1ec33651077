'use strict';
// The last check before a file is opened for a client, on every path that serves files (HTTP
// listeners and the DataChannel responder alike): safe-path.js's checks are lexical and cannot
// see symlinks, so a link inside the content root must not lead out of it. The file's resolved
// path has to lie inside the root's resolved path. (The DataChannel responder lacked this check
// and served a symlink's target outside the root; a fuzz run found it.)
const fs = require('node:fs');
const path = require('node:path');
const { UnsafePathError } = require('./safe-path');

const realRoots = new Map(); // root as given -> its resolved path (cached once it exists)

/**
 * @param {string} root  the directory served
 * @param {string} file  a path inside root by safe-path's checks
 * @param {(err: UnsafePathError|null, real?: string) => void} done  404 when the file does not
 *   exist or resolves outside the root
 */
function realPathInside(root, file, done) {
  // realpath.native: one realpath(3) call; the JS fs.realpath lstat()s every path component,
  // and was the largest single cost of serving a segment.
  fs.realpath.native(file, (err, real) => {
    if (err) return done(new UnsafePathError('not found', 404));
    let realRoot = realRoots.get(root);
    if (realRoot === undefined) {
      try {
        realRoot = fs.realpathSync.native(root);
      } catch {
        return done(new UnsafePathError('not found', 404)); // no root yet: tried again next time
      }
      realRoots.set(root, realRoot);
    }
    if (!real.startsWith(realRoot + path.sep)) return done(new UnsafePathError('not found', 404));
    return done(null, real);
  });
}

/** realPathInside as a promise. */
function realPathInsideAsync(root, file) {
  return new Promise((resolve, reject) => realPathInside(root, file, (err, real) => (err ? reject(err) : resolve(real))));
}

module.exports = { realPathInside, realPathInsideAsync };
