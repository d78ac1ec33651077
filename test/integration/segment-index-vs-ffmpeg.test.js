'use strict';
// The slice-header parser and priority map checked against ffmpeg's own bitstream reader:
// `-bsf:v trace_headers` prints every header field of every NAL unit with its bit position.
// Content is encoded here, High/CABAC (as the presets) and Baseline/CAVLC.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { writeSegmentIndex } = require('../../origin/content/segment-index');
const { parseInitSegment, parseMediaSegment } = require('../../origin/content/media/mp4-boxes');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

let tmp;
beforeAll(() => {
  tmp = makeLabTempDir('index');
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function encode(name, { profile, extra = '' }) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  execFileSync('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30:duration=4',
    '-map', '0:v', '-map', '0:v', '-s:v:0', '320x180', '-b:v:0', '200k', '-s:v:1', '640x360', '-b:v:1', '800k',
    '-c:v', 'libx264', '-profile:v', profile, '-preset', 'veryfast', '-pix_fmt', 'yuv420p',
    '-x264-params', `keyint=60:min-keyint=60:scenecut=0:slices=4:open-gop=0:repeat-headers=1${extra}`,
    '-f', 'dash', '-seg_duration', '2', '-use_template', '1', '-use_timeline', '0',
    '-init_seg_name', 'init-$RepresentationID$.m4s', '-media_seg_name', 'chunk-$RepresentationID$-$Number%05d$.m4s',
    '-adaptation_sets', 'id=0,streams=v', path.join(dir, 'manifest.mpd'),
  ]);
  return dir;
}

/**
 * ffmpeg's view of a segment: per NAL unit in decode order, its kind, and for slices the
 * header fields and the bit where the header ends (after its last field, before
 * cabac_alignment_one_bit or slice data).
 */
function traceOf(initFile, segFile) {
  const joined = path.join(tmp, 'joined.mp4');
  fs.writeFileSync(joined, Buffer.concat([fs.readFileSync(initFile), fs.readFileSync(segFile)]));
  // trace_headers logs to stderr.
  const r = spawnSync('ffmpeg', ['-hide_banner', '-i', joined, '-c', 'copy', '-bsf:v', 'trace_headers', '-f', 'null', '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`ffmpeg trace_headers failed: ${r.stderr.slice(-500)}`);
  const units = [];
  let inPackets = false;
  let current = null;
  for (const rawLine of r.stderr.split('\n')) {
    const line = rawLine.replace(/^.*\[trace_headers @ 0x[0-9a-f]+\] /, '');
    if (/^Packet: /.test(line) || /Packet: \d+ bytes/.test(rawLine)) {
      inPackets = true;
      continue;
    }
    if (!inPackets) continue; // skip the extradata (avcC) part
    const title = /^(Slice Header|Sequence Parameter Set|Picture Parameter Set|Supplemental Enhancement Information|Access Unit Delimiter)$/.exec(line.trim());
    if (title) {
      current = { kind: title[1], fields: {}, end: 0 };
      units.push(current);
      continue;
    }
    const f = /^(\d+)\s+(\S+)\s+([01]+) = (-?\d+)$/.exec(line.trim());
    if (f && current) {
      const [, pos, name, bits, value] = f;
      if (name === 'cabac_alignment_one_bit') continue;
      if (!(name in current.fields)) current.fields[name] = Number(value);
      current.end = Math.max(current.end, Number(pos) + bits.length);
    }
  }
  return units;
}

function checkAgainstFfmpeg(dir) {
  const index = writeSegmentIndex(dir);
  return index.then((idx) => {
    let slicesChecked = 0;
    for (const rep of idx.representations) {
      const initFile = path.join(dir, rep.init.url);
      const initBytes = new Uint8Array(fs.readFileSync(initFile));
      const initInfo = parseInitSegment(initBytes);
      for (const seg of rep.segments) {
        const segFile = path.join(dir, seg.url);
        const bytes = new Uint8Array(fs.readFileSync(segFile));
        const trace = traceOf(initFile, segFile);
        const traceSlices = trace.filter((u) => u.kind === 'Slice Header');
        const { ranges, frames } = seg.priority;

        // Coverage: sorted, disjoint, whole segment.
        let at = 0;
        for (const [s, e] of ranges) {
          expect(s).toBe(at);
          expect(e).toBeGreaterThan(s);
          at = e;
        }
        expect(at).toBe(bytes.length);
        expect(seg.size).toBe(bytes.length);

        // NAL census vs ffmpeg.
        expect(ranges.filter((r) => r[2] === 'parameterSet').length).toBe(trace.filter((u) => /Parameter Set/.test(u.kind)).length);
        expect(ranges.filter((r) => r[2] === 'sei').length).toBe(trace.filter((u) => /Supplemental/.test(u.kind)).length);
        const headers = ranges.filter((r) => r[2] === 'sliceHeader');
        expect(headers.length).toBe(traceSlices.length);

        // Each slice header: same fields, same end. Re-parse each header from the bytes so
        // the comparison is field by field, then check the byte range is the bit end rounded up.
        const { parseSliceHeader } = require('../../origin/content/media/h264/slice-header');
        const { parameterSetsFromInit } = require('../../origin/content/media/priority-map');
        const { splitAvccSample } = require('../../origin/content/media/h264/nal-units');
        const { parseSps, parsePps } = require('../../origin/content/media/h264/parameter-sets');
        const { spsById, ppsById } = parameterSetsFromInit(initInfo);
        const parsed = parseMediaSegment(bytes, initInfo.trex);
        let n = 0;
        for (const sample of parsed.samples) {
          for (const nal of splitAvccSample(bytes, sample.offset, sample.size, initInfo.avcC.lengthSize)) {
            const nalBytes = bytes.subarray(nal.start, nal.end);
            if (nal.type === 7) spsById.set(parseSps(nalBytes).id, parseSps(nalBytes));
            if (nal.type === 8) ppsById.set(parsePps(nalBytes, spsById).id, parsePps(nalBytes, spsById));
            if (nal.type !== 1 && nal.type !== 5) continue;
            const h = parseSliceHeader(nalBytes, spsById, ppsById);
            const t = traceSlices[n];
            expect(h.firstMbInSlice).toBe(t.fields.first_mb_in_slice);
            expect(h.sliceTypeRaw).toBe(t.fields.slice_type);
            expect(h.frameNum).toBe(t.fields.frame_num);
            expect(h.picOrderCntLsb).toBe(t.fields.pic_order_cnt_lsb);
            expect(h.sliceQpDelta).toBe(t.fields.slice_qp_delta);
            expect(h.headerBits).toBe(t.end);
            expect(headers[n][0]).toBe(nal.start);
            expect(headers[n][1] - nal.start).toBeGreaterThanOrEqual(Math.ceil(t.end / 8));
            n += 1;
            slicesChecked += 1;
          }
        }
        expect(n).toBe(traceSlices.length);
        // Every segment starts with an IDR access unit, 4 slices per frame.
        expect(frames[0]).toMatchObject({ type: 'I', idr: true });
        expect(traceSlices.length).toBe(4 * frames.length);
      }
    }
    return slicesChecked;
  });
}

test('High profile, CABAC, B-frames, weighted prediction: every slice header matches ffmpeg', async () => {
  const dir = encode('high', { profile: 'high' });
  const checked = await checkAgainstFfmpeg(dir);
  expect(checked).toBeGreaterThan(400); // 2 reps x 2 segments x 60 frames x 4 slices
});

test('Baseline profile, CAVLC, no B-frames: every slice header matches ffmpeg', async () => {
  const dir = encode('baseline', { profile: 'baseline' });
  const checked = await checkAgainstFfmpeg(dir);
  expect(checked).toBeGreaterThan(400);
});

test('High profile with several reference frames and reference list reordering', async () => {
  const dir = encode('refs', { profile: 'high', extra: ':ref=4:bframes=3:b-pyramid=normal:weightp=2' });
  expect(await checkAgainstFfmpeg(dir)).toBeGreaterThan(400);
});

test('the index lists sizes, durations and counts; priority files carry the maps', async () => {
  const dir = path.join(tmp, 'high');
  const index = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8'));
  expect(index.version).toBe(1);
  expect(index.segmentDuration).toBe(2);
  expect(index.representations.map((r) => r.bandwidth)).toEqual([200000, 800000]);
  for (const rep of index.representations) {
    expect(rep.segments.map((s) => s.number)).toEqual([1, 2]);
    for (const seg of rep.segments) {
      expect(seg.duration).toBeCloseTo(2, 3);
      expect(seg.priority).toBeUndefined();
      expect(Object.values(seg.counts).reduce((a, b) => a + b, 0)).toBe(seg.size);
      expect(seg.frames.I + seg.frames.P + seg.frames.B).toBe(60);
    }
    const maps = JSON.parse(fs.readFileSync(path.join(dir, rep.priorityMaps), 'utf8'));
    expect(maps.segments.map((s) => s.size)).toEqual(rep.segments.map((s) => s.size));
  }
});
