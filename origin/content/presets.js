'use strict';
// Named content presets. Each reproduces the dataset of one of the papers (docs/papers.md)
// closely enough that its results can be compared: the same ladder, segment duration and
// length, with synthetic pictures instead of the copyrighted clips the papers used.
//
// Every rung of one adaptation set has exactly the same 16:9 aspect ratio: Chromium's MSE
// (through dash.js) refuses to switch between e.g. 854x480 and 1280x720 (docs/platform-notes.md).

const SIZES = {
  144: [256, 144],
  216: [384, 216],
  288: [512, 288],
  360: [640, 360],
  432: [768, 432],
  576: [1024, 576],
  720: [1280, 720],
  1080: [1920, 1080],
};

function rung(kbps, height) {
  const [width, h] = SIZES[height];
  return { bitrateKbps: kbps, width, height: h };
}

// The Klagenfurt DASH dataset's Big Buck Bunny ladder that paper 002 used ("20 bitrates ranging
// from 44 Kbps to 3.9 Mbps"), on demand and live.
const PAPER_QUIC_LADDER = [
  rung(45, 144), rung(89, 144), rung(129, 144), rung(177, 216), rung(218, 216), rung(256, 216),
  rung(323, 288), rung(378, 288), rung(509, 360), rung(578, 360), rung(783, 432), rung(1008, 432),
  rung(1207, 576), rung(1474, 576), rung(2087, 720), rung(2410, 720), rung(2944, 720), rung(3341, 1080),
  rung(3614, 1080), rung(3936, 1080),
];

// A scene list is what the synthetic source cycles through; "high" motion cuts often between
// fast-moving sources (many I-frames, as paper 000's Bunny), "low" holds long slow scenes
// (few I-frames, as paper 000's Nature). See synthetic-source.js.
const PRESETS = {
  sample: {
    description: 'built-in sample: 60 s, 6 rungs 300k-4500k up to 720p, 2 s segments',
    paper: null,
    durationSeconds: 60,
    fps: 30,
    segmentSeconds: 2,
    motion: 'mixed',
    // superfast keeps the first `npm run origin` on a fresh 2-core machine near a minute.
    x264Preset: 'superfast',
    ladder: [rung(300, 216), rung(750, 360), rung(1200, 432), rung(1850, 576), rung(2850, 720), rung(4500, 720)],
  },
  'paper-http2': {
    description: 'paper 003 (DASH over HTTP/2 vs 1.1 vs 1.0): 14 rungs 100-4500 kbps, 2 s segments, 24 fps (GOP 48), 180 s',
    paper: '003',
    // 180 s covers the paper's 160 s bandwidth trace with room for startup.
    durationSeconds: 180,
    fps: 24,
    segmentSeconds: 2,
    motion: 'mixed',
    x264Preset: 'veryfast',
    ladder: [
      rung(100, 144), rung(200, 144), rung(350, 216), rung(500, 216), rung(700, 288), rung(900, 360),
      rung(1100, 360), rung(1300, 432), rung(1600, 432), rung(1900, 576), rung(2300, 576), rung(2800, 720),
      rung(3400, 720), rung(4500, 1080),
    ],
  },
  'paper-quic': {
    description: 'paper 002 (HAS over QUIC vs TCP): 600 s, 4 s segments, 20 rungs 45-3936 kbps (the DASH dataset ladder)',
    paper: '002',
    durationSeconds: 600,
    fps: 24,
    segmentSeconds: 4,
    motion: 'mixed',
    x264Preset: 'veryfast',
    ladder: PAPER_QUIC_LADDER,
  },
  'paper-quic-live': {
    description: 'paper 002 live (connection switches): paper-quic with 2 s segments, for the origin\'s live broadcast (/live/)',
    paper: '002',
    durationSeconds: 600,
    fps: 24,
    // Paper 002: "For the live content, the segment duration and playback buffer size were set
    // to two and eight seconds".
    segmentSeconds: 2,
    motion: 'mixed',
    x264Preset: 'veryfast',
    ladder: PAPER_QUIC_LADDER,
  },
  'paper-fdsp-high': {
    description: 'paper 000 (FDSP) high-motion clip: 1080p30, 1/2/4 Mbps, 150 s, frequent scene cuts and many I-frames',
    paper: '000',
    durationSeconds: 150,
    fps: 30,
    // Paper 000 buffers 10 s "substreams"; one DASH segment stands for one substream.
    segmentSeconds: 10,
    // Each unreliable packet's deadline is its own frame's playout time (paper 000 Sect. 3):
    // the FDSP player hands the segment to the decoder fragment by fragment, each at its own
    // deadline, so a segment is packed in 0.5 s movie fragments (per frame would put 300 moof
    // boxes and a 300-entry list in every HEAD; 0.5 s is the deviation, docs/papers.md).
    fragmentSeconds: 0.5,
    // Paper 000's Bunny has 37 I-frames per 30 s, this clip had 22 (3 at segment starts, the rest
    // at scene cuts): an I-frame every 2 s besides them is meant to come near (to be checked with
    // `npm run content -- --shares paper-fdsp-high` once built), so BP moves more than 7 % of bytes.
    keyframeSeconds: 2,
    motion: 'high',
    x264Preset: 'veryfast',
    ladder: [rung(1000, 1080), rung(2000, 1080), rung(4000, 1080)],
  },
  'paper-fdsp-low': {
    description: 'paper 000 (FDSP) low-motion clip: 1080p30, 1/2/4 Mbps, 150 s, long slow scenes and few I-frames',
    paper: '000',
    durationSeconds: 150,
    fps: 30,
    segmentSeconds: 10,
    fragmentSeconds: 0.5, // as paper-fdsp-high
    // Paper 000's Nature has 5 I-frames per 30 s, this clip had 3 (segment starts only): one every
    // 6 s besides them gives 6 per 30 s (0, 6, 10, 16, 20, 26).
    keyframeSeconds: 6,
    motion: 'low',
    x264Preset: 'veryfast',
    ladder: [rung(1000, 1080), rung(2000, 1080), rung(4000, 1080)],
  },
  'paper-mptcp': {
    description: 'paper 004 (video over two Wi-Fi paths, MPTCP, TCP variants): one 5.24 Mbit/s rung at 720p30, 4 s segments, 120 s',
    paper: '004',
    // The paper's clip plays 10 min 24 s at 5.24 Mbit/s, VLC over HTTP with no rate choice:
    // one rung here, so dash.js has nothing to adapt; 120 s keeps 5 trials per cell at a few
    // hours (a documented deviation, results/README.md). 720p, not 1080p: dropped frames must
    // come from the network, not from a 2-core machine's software decoder.
    durationSeconds: 120,
    fps: 30,
    segmentSeconds: 4,
    motion: 'mixed',
    x264Preset: 'veryfast',
    // Every 4 s segment ~2.6 MB: the rate the paper's two 5 Mbit/s paths are measured against.
    constantBitrate: true,
    ladder: [rung(5240, 720)],
  },
};

// Names that stand for several presets at once.
const GROUPS = {
  'paper-fdsp': ['paper-fdsp-high', 'paper-fdsp-low'],
  all: Object.keys(PRESETS),
};

function presetNames() {
  return Object.keys(PRESETS);
}

/** Expands a preset or group name to preset names; throws a message listing the valid ones. */
function resolvePresetNames(name) {
  if (PRESETS[name]) return [name];
  if (GROUPS[name]) return GROUPS[name].slice();
  const valid = [...Object.keys(PRESETS), ...Object.keys(GROUPS)].join(', ');
  throw new Error(`unknown content preset "${name}" (known: ${valid})`);
}

/** One preset by name; a group name is refused (it stands for several builds). */
function getPreset(name) {
  const preset = PRESETS[name];
  if (!preset) {
    const members = resolvePresetNames(name); // throws the helpful message for unknown names
    throw new Error(`"${name}" is a group of presets (${members.join(', ')}); name one of them`);
  }
  return { name, ...preset };
}

module.exports = { PRESETS, GROUPS, presetNames, resolvePresetNames, getPreset };
