'use strict';
// Builds one preset unless it is already there, with a progress bar on stderr: what the
// origin does on its first run and the QoE runner does before its first playback.
const { ensureContent } = require('./ensure-content');
const { createProgressBar } = require('./progress-bar');

/**
 * @param {string} preset
 * @param {string} contentDir
 * @param {{signal?: AbortSignal, who?: string}} [o]  who: the prefix of messages ("origin")
 */
async function buildIfAbsent(preset, contentDir, { signal, who = 'content' } = {}) {
  const bar = createProgressBar(`building ${preset}`);
  try {
    const { built } = await ensureContent({
      preset,
      contentDir,
      signal,
      onProgress: (e) => {
        if (e.phase === 'encode' && e.fraction !== undefined) bar.update(e.fraction);
        else if (e.phase === 'encode') process.stderr.write(`${who}: first run: ${e.message}\n`);
        else if (e.phase === 'index') bar.done();
        else if (e.phase === 'done' || e.phase === 'wait' || e.phase === 'stale') process.stderr.write(`${who}: ${e.message}\n`);
      },
    });
    if (!built) process.stderr.write(`${who}: content "${preset}" present in ${contentDir}\n`);
    return { built };
  } finally {
    bar.done();
  }
}

module.exports = { buildIfAbsent };
