'use strict';
const { fdspMediaLoss } = require('../../player/qoe/fdsp-media-loss');

test('splits lost chunks into segments waited for in full and segments stopped at the deadline', () => {
  const m = fdspMediaLoss([
    { packets: 100, unreliableChunks: 90, lostChunks: 2, stoppedAtDeadline: false },
    { packets: 100, unreliableChunks: 90, lostChunks: 40, stoppedAtDeadline: true },
    { packets: 200, unreliableChunks: 110, lostChunks: 2, stoppedAtDeadline: false },
    { bytes: 5000 }, // an HTTP segment: no packets, ignored
  ]);
  expect(m).toEqual({
    packets: 400, unreliableChunks: 290, lostChunks: 44, plr: 44 / 400, exposure: 290 / 400,
    networkPackets: 300, networkUnreliableChunks: 200, networkLostChunks: 4, networkPlr: 4 / 300, networkChunkLoss: 4 / 200,
    deadlineStops: 1, deadlineLostChunks: 40, originSkippedChunks: 0,
  });
});

test('no DataChannel segments: null; every segment stopped at its deadline: no network PLR', () => {
  expect(fdspMediaLoss([{ bytes: 1 }])).toBeNull();
  expect(fdspMediaLoss(undefined)).toBeNull();
  const m = fdspMediaLoss([{ packets: 10, lostChunks: 3, stoppedAtDeadline: true }]);
  expect(m.networkPlr).toBeNull();
  expect(m.networkChunkLoss).toBeNull();
  expect(m.plr).toBeCloseTo(0.3, 12);
});

test('malformed entries are skipped, not summed as NaN', () => {
  const m = fdspMediaLoss([null, { packets: 'x', lostChunks: 1 }, { packets: 50, lostChunks: NaN }, { packets: 50, lostChunks: 1 }]);
  expect(m.packets).toBe(50);
  expect(m.networkPlr).toBeCloseTo(0.02, 12);
});

test('fragmented segments: chunks that came after their fragment went count to the deadline\'s part, not the network\'s', () => {
  const m = fdspMediaLoss([
    { packets: 100, unreliableChunks: 90, lostChunks: 7, lateAfterFragment: 5, stoppedAtDeadline: false },
    { packets: 100, unreliableChunks: 90, lostChunks: 1, stoppedAtDeadline: false },
  ]);
  expect(m).toMatchObject({ lostChunks: 8, plr: 8 / 200, networkLostChunks: 3, networkPlr: 3 / 200, deadlineLostChunks: 5, deadlineStops: 0 });
});

test('chunks the origin skipped at their deadline (its END) count to the deadline\'s part, not the network\'s', () => {
  // As a DataChannel playback at 50 ms recorded it: 4864 packets, 3505 lost, 1341 of them after
  // their fragment went and 2154 never sent by the origin: the network took 10.
  const m = fdspMediaLoss([
    { packets: 4864, unreliableChunks: 4844, lostChunks: 3505, lateAfterFragment: 1341, originSkipped: 2154, stoppedAtDeadline: false },
    { packets: 100, unreliableChunks: 90, lostChunks: 50, originSkipped: 30, stoppedAtDeadline: true },
  ]);
  expect(m).toMatchObject({ lostChunks: 3555, networkLostChunks: 10, networkPlr: 10 / 4864, deadlineLostChunks: 1341 + 2154 + 50, originSkippedChunks: 2184 });
  // Without the origin's count (older segment logs) the same segment blames the network for 2164.
  expect(fdspMediaLoss([{ packets: 4864, lostChunks: 3505, lateAfterFragment: 1341, stoppedAtDeadline: false }]).networkLostChunks).toBe(2164);
});

test('chunks that came after the segment was handed over (END\'s grace had run out) count to the deadline\'s part, not the network\'s', () => {
  // As a one-session WebTransport playback at 250 ms recorded it (wt-bp0, paper000-fdsp, r2):
  // the origin skipped 3399 chunks at their deadline and sent 1437; 1431 of them came after
  // END's grace. Before the segment log carried lateChunks that read as 29.6 % network loss.
  const seg = { packets: 4856, unreliableChunks: 4836, lostChunks: 4836, originSkipped: 3399, stoppedAtDeadline: false };
  expect(fdspMediaLoss([seg]).networkPlr).toBeCloseTo(1437 / 4856, 12);
  const m = fdspMediaLoss([{ ...seg, lateChunks: 1431 }]);
  expect(m).toMatchObject({ lostChunks: 4836, networkLostChunks: 6, networkPlr: 6 / 4856, deadlineLostChunks: 3399 + 1431 });
  // A segment stopped at its deadline: all its losses are the deadline's already, late or not.
  expect(fdspMediaLoss([{ packets: 100, lostChunks: 50, lateChunks: 20, stoppedAtDeadline: true }])).toMatchObject({ deadlineLostChunks: 50, networkLostChunks: 0, networkPlr: null });
});
