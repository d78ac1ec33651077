'use strict';
// One progress line for long work (encodes, QoE runs). On a terminal it redraws itself in
// place; in a log (CI, a pipe) it prints a line only every 10 %, so logs stay readable.

function formatSeconds(s) {
  if (!Number.isFinite(s) || s < 0) return '--:--';
  const m = Math.floor(s / 60);
  const sec = Math.round(s % 60);
  return `${m}:${String(sec).padStart(2, '0')}`;
}

/** Pure: the text of the bar for a fraction done after elapsedSeconds. */
function renderProgress(label, fraction, elapsedSeconds, width = 30) {
  const f = Math.max(0, Math.min(1, fraction));
  const filled = Math.round(f * width);
  const eta = f > 0.01 ? (elapsedSeconds * (1 - f)) / f : NaN;
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.floor(f * 100)).padStart(3)}%  elapsed ${formatSeconds(elapsedSeconds)}  eta ${formatSeconds(eta)}`;
}

function createProgressBar(initialLabel, { stream = process.stderr, now = () => Date.now() } = {}) {
  let label = initialLabel;
  const started = now();
  const tty = Boolean(stream.isTTY);
  let lastDecile = -1;
  let open = false;
  return {
    /** @param {string} [newLabel]  what is being worked on now (a QoE run's current playback) */
    update(fraction, newLabel) {
      if (newLabel !== undefined) label = newLabel;
      const text = renderProgress(label, fraction, (now() - started) / 1000);
      if (tty) {
        // \x1b[K clears what a longer previous label left on the line.
        stream.write(`\r${text}\x1b[K`);
        open = true;
        return;
      }
      const decile = Math.floor(Math.max(0, Math.min(1, fraction)) * 10);
      if (decile > lastDecile) {
        lastDecile = decile;
        stream.write(`${text}\n`);
      }
    },
    done(message) {
      if (open) stream.write('\n');
      open = false;
      if (message) stream.write(`${message}\n`);
    },
  };
}

module.exports = { createProgressBar, renderProgress, formatSeconds };
