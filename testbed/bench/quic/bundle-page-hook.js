'use strict';
// Bundles page-hook.js (and through it the player's transports, from the same sources as the
// player's bundle) with the repository's webpack settings into a temporary directory, and
// returns the script text bench:quic adds to the player page. Built per run, so the bench
// always drives the transports as they are in the tree.
const fs = require('node:fs');
const path = require('node:path');
const { makeLabTempDir } = require('../../../shared/lab-temp-dir');

const REPO = path.resolve(__dirname, '..', '..', '..');

/**
 * @param {string} [entry]  the hook to bundle (default bench:quic's page-hook.js; throughput
 *   runs bundle testbed/throughput/page-hook.js the same way)
 * @returns {Promise<string>} the bundle's JavaScript
 */
async function bundlePageHook(entry = path.join(__dirname, 'page-hook.js')) {
  const webpack = require('webpack');
  const base = require(path.join(REPO, 'webpack.config.js'))(null, { mode: 'development' });
  const dir = makeLabTempDir('quic-bench-hook');
  try {
    const config = {
      ...base,
      mode: 'development',
      context: REPO,
      entry: { hook: entry },
      output: { path: dir, filename: '[name].js' },
      devtool: false,
      plugins: [],
    };
    const stats = await new Promise((resolve, reject) => {
      webpack(config, (err, s) => (err ? reject(err) : resolve(s)));
    });
    if (stats.hasErrors()) throw new Error(`bundling the bench's page hook failed: ${stats.toString({ all: false, errors: true })}`);
    return fs.readFileSync(path.join(dir, 'hook.js'), 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { bundlePageHook };
