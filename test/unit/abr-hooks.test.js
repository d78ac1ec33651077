'use strict';
// The ABR contract's optional hooks (player/abr/contract.js): onSeek and shouldAbandon, driven
// through an ABR session with the throw-away "steady" ABR that uses both, and shown to be no-ops
// for the built-in algorithms (their decisions do not change when seeks are reported).
const { normalizeAbr } = require('../../player/abr/contract');
const { createAbrSession } = require('../../player/abr/abr-session');
const { ALGORITHMS } = require('../../player/abr');
const { downloadFromRequest } = require('../../player/dash/custom-abr-rule');

const steady = normalizeAbr(require('../fixtures/throwaway-abr'));
const ladder = [{ index: 0, bandwidth: 300000, id: 'low' }, { index: 1, bandwidth: 1000000, id: 'mid' }, { index: 2, bandwidth: 3000000, id: 'high' }];
const input = (over = {}) => ({
  ladder, currentIndex: 1, bufferLevelSeconds: 8, segmentDurationSeconds: 2,
  recentDownloads: [{ bytes: 250000, seconds: 1 }, { bytes: 250000, seconds: 1.2 }], nextSegmentSizes: [75000, 250000, 750000], ...over,
});

test('onSeek: a seek reaches the algorithm\'s state before the next decisions', () => {
  const session = createAbrSession(steady, steady.resolveParams({}));
  expect(session.decide(input()).representationIndex).toBe(2);
  session.seek({ fromSeconds: 10, toSeconds: 40, scheduled: true });
  expect(session.state).toEqual({ lowFor: 2, seeks: 1 });
  expect([session.decide(input()), session.decide(input()), session.decide(input())].map((d) => d.representationIndex)).toEqual([0, 0, 2]);
  session.seek({ fromSeconds: 50, toSeconds: 20, scheduled: false });
  expect(session.state.seeks).toBe(2);
  session.reset();
  expect(session.state).toBeNull();
});

test('shouldAbandon: a download too slow for the buffer is given up for the lowest rung; a quick one is kept', () => {
  const session = createAbrSession(steady, steady.resolveParams({}));
  const download = { ladder, representationIndex: 2, bytesLoaded: 100000, bytesTotal: 750000, elapsedSeconds: 2, segmentDurationSeconds: 2, bufferLevelSeconds: 4 };
  // 650 KB to go at 50 KB/s = 13 s > 4 s buffered
  expect(session.shouldAbandon(download)).toEqual({ representationIndex: 0, reason: 'steady: 13.0 s to go > 1 x 4.0 s buffered' });
  // at 500 KB/s: 1.3 s to go
  expect(session.shouldAbandon({ ...download, elapsedSeconds: 0.2 })).toBeNull();
  expect(session.shouldAbandon({ ...download, representationIndex: 0 })).toBeNull();
  // An answer that is not a lower rung would fetch the same bytes again: refused loudly.
  const greedy = normalizeAbr({ ...require('../fixtures/throwaway-abr'), shouldAbandon: () => ({ representationIndex: 2, reason: 'more' }) });
  expect(() => createAbrSession(greedy, greedy.resolveParams({})).shouldAbandon(download)).toThrow(/must name a rung below the one downloading \(2\), got 2/);
});

test.each(Object.keys(ALGORITHMS))('%s has neither hook: seeks leave its decisions as they were, it never abandons', (key) => {
  const abr = ALGORITHMS[key];
  expect(abr.abandons).toBe(false);
  const plain = createAbrSession(abr, abr.resolveParams({}));
  const told = createAbrSession(abr, abr.resolveParams({}));
  const inputs = [input({ currentIndex: null, recentDownloads: [] }), input(), input({ justSeeked: true, bufferLevelSeconds: 0 }), input({ bufferLevelSeconds: 30 })];
  const a = inputs.map((i) => plain.decide(i));
  const b = inputs.map((i) => {
    told.seek({ fromSeconds: 5, toSeconds: 30, scheduled: true });
    return told.decide(i);
  });
  expect(b).toEqual(a);
  expect(told.shouldAbandon({ ladder, representationIndex: 2, bytesLoaded: 1, bytesTotal: 1e9, elapsedSeconds: 100, segmentDurationSeconds: 2, bufferLevelSeconds: 0 })).toBeNull();
});

test('dash.js\'s request in progress as shouldAbandon sees it', () => {
  const request = { type: 'MediaSegment', index: 7, representation: { id: 'high' }, bytesLoaded: 1000, bytesTotal: 4000, startDate: new Date(10000) };
  expect(downloadFromRequest(request, ladder, { bufferLevelSeconds: 3, segmentDurationSeconds: 2, now: 12500 })).toEqual({
    ladder, representationIndex: 2, bytesLoaded: 1000, bytesTotal: 4000, elapsedSeconds: 2.5, segmentDurationSeconds: 2, bufferLevelSeconds: 3,
  });
  expect(downloadFromRequest({ ...request, type: 'InitializationSegment' }, ladder, { bufferLevelSeconds: 3, segmentDurationSeconds: 2 })).toBeNull();
  expect(downloadFromRequest({ ...request, representation: { id: 'audio' } }, ladder, { bufferLevelSeconds: 3, segmentDurationSeconds: 2 })).toBeNull();
  expect(downloadFromRequest({ ...request, bytesTotal: NaN }, ladder, { bufferLevelSeconds: 3, segmentDurationSeconds: 2 })).toBeNull();
});

test('an ABR that leaves the choice to dash.js has no session', () => {
  const dashjs = normalizeAbr(require('../../player/abr/dashjs'));
  expect(() => createAbrSession(dashjs, {})).toThrow(/leaves the choice to dash.js/);
});
