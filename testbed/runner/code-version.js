'use strict';
// Which code made a playback: the lab's git commit, and whether the work tree had changes on
// top of it. Each record carries it, so a report can tell which figures were measured before a
// fix that changes them (results/known-fixes.json, testbed/report/known-fixes.js). Read once per
// run: a run is one checkout.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const REPO = path.join(__dirname, '..', '..');

/**
 * @param {string} [repoDir]
 * @returns {{commit: string, dirty: boolean}|{commit: null, dirty: null, why: string}}
 *   commit: the full hash of HEAD; dirty: tracked files differ from it (untracked ones do not count)
 */
function codeVersion(repoDir = REPO) {
  const git = (...args) => execFileSync('git', ['-C', repoDir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  try {
    const commit = git('rev-parse', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return { commit, dirty };
  } catch (err) {
    const why = err.code === 'ENOENT' ? 'git is not installed' : 'not a git checkout';
    return { commit: null, dirty: null, why };
  }
}

module.exports = { codeVersion };
