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
          for (const [file, abs] of Object.entries(this.files)) {
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
  // The page, and uPlot's stylesheet beside it (its charts; the script is bundled).
  plugins: [new CopyPageFilesPlugin({
    'index.html': path.join(__dirname, 'player', 'index.html'),
    'uPlot.min.css': require.resolve('uplot/dist/uPlot.min.css'),
  })],
});
