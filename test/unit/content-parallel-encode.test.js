'use strict';
// The parts of a split encode (origin/content/parallel-encode.js) that are plain logic: which
// process encodes which rungs, and how the processes' outputs join into one manifest and one set
// of file names. That the join gives a one-process build's bytes is checked with real ffmpeg in
// test/integration/content-reproducible.test.js.
const { rungGroups, joinManifests, joinedFileName, defaultProcessCount } = require('../../origin/content/parallel-encode');
const { getPreset } = require('../../origin/content/presets');

const rung = (width, height) => ({ width, height, bitrateKbps: 1 });

test('rung groups: every rung once, in ladder order, work balanced by pixels', () => {
  const ladder = getPreset('paper-quic').ladder;
  const groups = rungGroups(ladder, 2);
  expect(groups).toHaveLength(2);
  expect(groups.flat().sort((a, b) => a - b)).toEqual(ladder.map((_, i) => i));
  for (const g of groups) expect(g).toEqual([...g].sort((a, b) => a - b));
  const load = groups.map((g) => g.reduce((sum, i) => sum + ladder[i].width * ladder[i].height, 0));
  // The three 1080p rungs cannot all go to one process, and the loads end within one 720p rung.
  expect(Math.abs(load[0] - load[1])).toBeLessThanOrEqual(1280 * 720);
  expect(groups.map((g) => g.filter((i) => ladder[i].height === 1080).length).sort()).toEqual([1, 2]);
});

test('rung groups: one group for one process, no empty groups for more processes than rungs', () => {
  const ladder = [rung(256, 144), rung(640, 360)];
  expect(rungGroups(ladder, 1)).toEqual([[0, 1]]);
  expect(rungGroups(ladder, 4)).toEqual([[1], [0]]);
  // Largest first: the 1080p rung alone, the two small ones together.
  expect(rungGroups([rung(1920, 1080), rung(640, 360), rung(1280, 720)], 2)).toEqual([[0], [1, 2]]);
});

test('default process count: one per core, at most 4 and at most one per rung', () => {
  expect(defaultProcessCount(20, 2)).toBe(2);
  expect(defaultProcessCount(20, 16)).toBe(4);
  expect(defaultProcessCount(1, 8)).toBe(1);
  expect(defaultProcessCount(6, 1)).toBe(1);
});

const rep = (id, bw, w) => `\t\t\t<Representation id="${id}" mimeType="video/mp4" bandwidth="${bw}" width="${w}" height="${w / 2}">\n`
  + '\t\t\t\t<SegmentTemplate media="chunk-$RepresentationID$-$Number%05d$.m4s" startNumber="1">\n'
  + '\t\t\t\t</SegmentTemplate>\n\t\t\t</Representation>\n';
const mpd = (maxWidth, reps) => `<MPD type="static">\n\t<Period id="0">\n\t\t<AdaptationSet id="0" maxWidth="${maxWidth}">\n${reps.join('')}\t\t</AdaptationSet>\n\t</Period>\n</MPD>\n`;

test('manifests join by ladder index, around the part that holds the top rung', () => {
  // Ladder: 0 = 200 wide, 1 = 400, 2 = 800 (the top). Part A encoded rungs [0, 2], part B [1].
  const partA = { rungs: [0, 2], mpd: mpd(800, [rep(0, 100, 200), rep(1, 300, 800)]) };
  const partB = { rungs: [1], mpd: mpd(400, [rep(0, 200, 400)]) };
  const joined = joinManifests([partB, partA], 2);
  expect(joined).toBe(mpd(800, [rep(0, 100, 200), rep(1, 200, 400), rep(2, 300, 800)]));
});

test('a part whose manifest does not list its rungs is an error, not a short ladder', () => {
  const partA = { rungs: [0, 2], mpd: mpd(800, [rep(0, 100, 200)]) };
  const partB = { rungs: [1], mpd: mpd(400, [rep(0, 200, 400)]) };
  expect(() => joinManifests([partA, partB], 2)).toThrow(/wrote 1 representations, expected 2/);
  expect(() => joinManifests([{ rungs: [0], mpd: mpd(200, [rep(3, 100, 200)]) }], 0)).toThrow(/representation 3/);
  expect(() => joinManifests([partB], 2)).toThrow(/top rung 2/);
});

test("a part's file names become the ladder's", () => {
  expect(joinedFileName('init-0.m4s', [3, 7])).toBe('init-3.m4s');
  expect(joinedFileName('chunk-1-00042.m4s', [3, 7])).toBe('chunk-7-00042.m4s');
  expect(joinedFileName('chunk-2-00001.m4s', [3, 7])).toBeNull();
  expect(joinedFileName('manifest.mpd', [3, 7])).toBeNull();
});
