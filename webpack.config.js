'use strict';
// Bundles the browser player (player/ and the shared/ code it uses) into dist/player/.
// dash.js itself is not bundled: the page loads the stock dash.all.min.js that the origin
// serves from node_modules at /vendor/, so the player runs the exact published dash.js and a
// build does not spend half a minute re-minifying a megabyte of it.
const fs = require('node:fs');
const path = require('node:path');

class CopyPageFilesPlugin {
  constructor(files) {
    this.files = files;
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('CopyPageFilesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'CopyPageFilesPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const file of this.files) {
            const abs = path.join(__dirname, 'player', file);
            compilation.fileDependencies.add(abs);
            compilation.emitAsset(file, new compiler.webpack.sources.RawSource(fs.readFileSync(abs)));
          }
        },
      );
    });
  }
}

module.exports = (_env, argv = {}) => ({
  mode: argv.mode || 'production',
  target: 'web',
  entry: { player: './player/main.js' },
  output: {
    path: path.join(__dirname, 'dist', 'player'),
    filename: '[name].js',
    clean: { keep: /\.build-stamp$/ },
  },
  externals: { dashjs: 'dashjs' },
  devtool: 'source-map',
  performance: { hints: false },
  plugins: [new CopyPageFilesPlugin(['index.html'])],
});
