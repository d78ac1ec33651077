'use strict';
// Which build of a content a playback played, and the report's note when a run mixes builds.
const fs = require('node:fs');
const path = require('node:path');
const { contentBuildDigest, digestOfIndex } = require('../../origin/content/content-build-digest');
const { contentBuildNotes } = require('../../testbed/report/content-builds');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

const index = (sizes) => ({
  version: 1,
  representations: [
    { id: '0', bandwidth: 45000, init: { size: 833 }, segments: sizes.map((size, i) => ({ number: i + 1, size, duration: 4 })) },
    { id: '1', bandwidth: 89000, init: { size: 834 }, segments: sizes.map((size, i) => ({ number: i + 1, size: 2 * size, duration: 4 })) },
  ],
});

test('the digest follows the segment sizes and nothing else', () => {
  const a = digestOfIndex(index([25414, 30000, 28000]));
  expect(a).toMatch(/^[0-9a-f]{12}$/);
  expect(digestOfIndex(index([25414, 30000, 28000]))).toBe(a);
  // One segment one byte larger (a re-encode) is another build.
  expect(digestOfIndex(index([25414, 30001, 28000]))).not.toBe(a);
  // A field the index carries besides sizes (durations, priority maps) does not make a build.
  const other = index([25414, 30000, 28000]);
  other.representations[0].segments[0].duration = 3.9;
  expect(digestOfIndex(other)).toBe(a);
  expect(() => digestOfIndex({ mpd: 'manifest.mpd' })).toThrow(/not a segment index/);
});

test('a content directory gives its digest, or why it has none', () => {
  const dir = makeLabTempDir('digest');
  try {
    fs.writeFileSync(path.join(dir, 'index.json'), JSON.stringify(index([1, 2])));
    expect(contentBuildDigest(dir)).toEqual({ digest: digestOfIndex(index([1, 2])) });
    expect(contentBuildDigest(path.join(dir, 'absent'))).toEqual({ digest: null, why: `${path.join(dir, 'absent', 'index.json')}: not found` });
    fs.writeFileSync(path.join(dir, 'index.json'), '{"half":');
    expect(contentBuildDigest(dir).why).toMatch(/index\.json: .*JSON/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('the report says when a run mixes builds', () => {
  const rec = (id, contentDigest) => ({ id, contentDigest });
  const groups = [{ label: 'h2 / sara', ids: ['a1', 'a2'] }, { label: 'h3 / sara', ids: ['b1', 'b2'] }];

  test('one build, or none recorded (runs before the digest existed): nothing to say', () => {
    expect(contentBuildNotes([rec('a1', 'aaaaaaaaaaaa'), rec('a2', 'aaaaaaaaaaaa'), rec('b1', 'aaaaaaaaaaaa')], groups, 'paper-quic')).toEqual([]);
    expect(contentBuildNotes([rec('a1'), rec('a2', null), rec('b1')], groups, 'paper-quic')).toEqual([]);
  });

  test('two builds: both named with their counts, and the cell that holds both', () => {
    const notes = contentBuildNotes([rec('a1', 'aaaaaaaaaaaa'), rec('a2', 'bbbbbbbbbbbb'), rec('b1', 'bbbbbbbbbbbb'), rec('b2', 'bbbbbbbbbbbb')], groups, 'paper-quic');
    expect(notes).toEqual([
      'These playbacks come from 2 builds of paper-quic whose segment sizes differ: aaaaaaaaaaaa (1 playback), bbbbbbbbbbbb (3 playbacks). A cell that mixes builds compares slightly different contents.',
      'Cells holding playbacks of more than one build, or of a build not recorded: h2 / sara.',
    ]);
  });

  test('records from before the digest beside recorded ones: cannot be told, said so', () => {
    const notes = contentBuildNotes([rec('a1'), rec('a2'), rec('b1'), rec('b2', 'bbbbbbbbbbbb')], groups, 'paper-quic');
    expect(notes).toEqual([
      '3 playbacks record no content build (made before the lab recorded one), the others bbbbbbbbbbbb (1 playback): whether they played the same build cannot be told from the records.',
      'Cells holding playbacks of more than one build, or of a build not recorded: h3 / sara.',
    ]);
  });
});

test('a run resumed on another build, or over playbacks that record none, says so when it starts', () => {
  const { recordedContentBuild } = require('../../testbed/runner/run-scenario');
  const dir = makeLabTempDir('digest-run');
  try {
    fs.mkdirSync(path.join(dir, 'c'));
    fs.writeFileSync(path.join(dir, 'c', 'index.json'), JSON.stringify(index([5, 6])));
    const here = digestOfIndex(index([5, 6]));
    const run = (done) => {
      const lines = [];
      const digest = recordedContentBuild({ content: 'c' }, { contentDir: dir }, done, (l) => lines.push(l));
      return { digest, lines };
    };
    expect(run([{ status: 'ok', contentDigest: here }, { status: 'failed', contentDigest: 'ffffffffffff' }])).toEqual({ digest: here, lines: [] });
    const mixed = run([{ status: 'ok', contentDigest: 'aaaaaaaaaaaa' }, { status: 'ok' }, { status: 'ok', contentDigest: here }]);
    expect(mixed.digest).toBe(here);
    expect(mixed.lines).toEqual([
      `note: 1 playback(s) already in the run directory played another build of c (aaaaaaaaaaaa) than this one (${here}): builds made before 2026-12-02, or with another ffmpeg or x264, differ; the report marks the cells that mix builds`,
      `note: 1 playback(s) already in the run directory record no content build (made before the lab recorded builds): whether they played this build of c (${here}) cannot be told; builds made before 2026-12-02, or with another ffmpeg or x264, differ; the report marks the cells that mix builds`,
    ]);
    expect(recordedContentBuild({ content: 'absent' }, { contentDir: dir }, [], () => {})).toBeNull();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
