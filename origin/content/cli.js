#!/usr/bin/env node
'use strict';
// npm run content -- [PRESET ...] [options]
const path = require('node:path');
const { parseArgs } = require('node:util');
const { PRESETS, GROUPS, resolvePresetNames } = require('./presets');
const { ensureContent } = require('./ensure-content');
const { defaultProcessCount } = require('./parallel-encode');
const { createProgressBar } = require('./progress-bar');
const { contentShares, formatContentShares } = require('./content-shares');
const { exitQuietlyOnClosedStdout } = require('../../shared/exit-quietly-on-closed-stdout');

const REPO = path.resolve(__dirname, '..', '..');

function usage() {
  const presets = Object.entries(PRESETS)
    .map(([name, p]) => `  ${name.padEnd(16)} ${p.description}`)
    .join('\n');
  const groups = Object.entries(GROUPS)
    .map(([name, list]) => `  ${name.padEnd(16)} = ${list.join(' + ')}`)
    .join('\n');
  return `Usage: npm run content -- [PRESET ...] [options]

Generates DASH content (H.264 High, fMP4, SegmentTemplate, an IDR at every segment start,
4 slices per frame) with ffmpeg, plus a segment index (index.json: sizes, durations and the
per-segment priority map). With no PRESET, builds "sample".

Presets:
${presets}
Groups:
${groups}

Options:
  --input FILE        package your own video with the preset's ladder instead of the
                      synthetic source (only one preset at a time)
  --name NAME         output directory name (default: the preset name, or
                      <input basename>-<preset> with --input)
  --duration SECONDS  encode only this much (default: the preset's length, or the input's)
  --content-dir DIR   where content goes (default: ${path.join(REPO, 'content')})
  --force             rebuild even if the content exists (the old build stays until the new
                      one is complete)
  --processes N       ffmpeg processes sharing the ladder's rungs (default ${defaultProcessCount(Infinity)}: one per
                      core, at most 4); each encodes its rungs with one x264 thread, so the
                      bytes are the same for any N; each process makes the whole source
                      (~1.4 GB of memory for a 1080p ladder)
  --shares            print, for each named content (built, in --content-dir), what FDSP sends
                      reliably at BP 0/25/50/75/100: its share of bytes and of 1100-byte packets,
                      with each rung's I-slice share and I-frames per 30 s; builds nothing
  --list              list presets and exit
  -h, --help          show this help
`;
}

function fail(message) {
  process.stderr.write(`content: ${message}\nRun "npm run content -- --help" for usage.\n`);
  process.exit(2);
}

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        input: { type: 'string' },
        name: { type: 'string' },
        duration: { type: 'string' },
        'content-dir': { type: 'string' },
        force: { type: 'boolean', default: false },
        processes: { type: 'string' },
        list: { type: 'boolean', default: false },
        shares: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    return fail(err.message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(usage());
    return;
  }
  if (values.list) {
    exitQuietlyOnClosedStdout();
    for (const [name, p] of Object.entries(PRESETS)) process.stdout.write(`${name}\t${p.description}\n`);
    return;
  }
  if (values.shares) {
    // Names of built contents: presets, or --name'd packagings of a user's file.
    const wanted = positionals.length ? positionals : ['sample'];
    for (const name of wanted) {
      const dir = path.join(path.resolve(values['content-dir'] || path.join(REPO, 'content')), name);
      try {
        process.stdout.write(`${formatContentShares(contentShares(dir)).join('\n')}\n`);
      } catch (err) {
        return fail(`${name}: ${err.message}`);
      }
    }
    return;
  }
  let names;
  try {
    names = (positionals.length ? positionals : ['sample']).flatMap(resolvePresetNames);
  } catch (err) {
    return fail(err.message);
  }
  let durationSeconds;
  if (values.duration !== undefined) {
    durationSeconds = Number(values.duration);
    if (!(durationSeconds > 0)) return fail(`--duration must be a positive number of seconds, got "${values.duration}"`);
  }
  let processes;
  if (values.processes !== undefined) {
    processes = Number(values.processes);
    if (!Number.isInteger(processes) || processes < 1 || processes > 64) return fail(`--processes must be a whole number from 1 to 64, got "${values.processes}"`);
  }
  if ((values.input || values.name) && names.length !== 1) {
    return fail('--input and --name take exactly one preset');
  }
  const contentDir = path.resolve(values['content-dir'] || path.join(REPO, 'content'));

  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  for (const preset of names) {
    const name = values.name || (values.input ? `${path.parse(values.input).name}-${preset}` : preset);
    const bar = createProgressBar(`encoding ${name}`);
    try {
      const { dir, built } = await ensureContent({
        preset,
        name,
        contentDir,
        inputFile: values.input,
        durationSeconds,
        force: values.force,
        processes,
        signal: controller.signal,
        onProgress: (e) => {
          if (e.phase === 'encode' && e.fraction !== undefined) bar.update(e.fraction);
          else if (e.phase === 'encode') process.stderr.write(`${e.message}\n`);
          else if (e.phase === 'index') bar.done('building segment index ...');
          else if (e.phase === 'done' || e.phase === 'wait' || e.phase === 'stale') process.stderr.write(`${e.message}\n`);
        },
      });
      if (!built) process.stderr.write(`${name}: already built in ${dir} (use --force to rebuild)\n`);
    } catch (err) {
      bar.done();
      if (controller.signal.aborted) {
        process.stderr.write(`content: interrupted; ${name} was not changed\n`);
        process.exit(130);
      }
      process.stderr.write(`content: ${name} failed: ${err.message}\n`);
      process.exit(1);
    }
  }
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { main, usage };
