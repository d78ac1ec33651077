'use strict';
// What every FDSP transport's registry entry says about its accounting (the DataChannel's,
// entries/datachannel.js, and WebTransport's, entries/webtransport.js): the per-segment
// fields, the page's rows, the runner's progress note and the results.csv columns. One
// definition, so a column such as mediaPlr means the same whichever carrier filled it (the
// registry refuses two definitions under one name).
const { fdspMediaLoss } = require('../qoe/fdsp-media-loss');

const transportTotals = (r) => (r.summary && r.summary.transport) || null;
const percent = (v, digits) => `${(100 * v).toFixed(digits)} %`;

// What went which way, and what was lost, per media segment.
// Fragmented content adds: its fragments, how many went on their own deadline (the rest went
// with the whole), and chunks that came after their fragment went (in lostChunks too).
// originSkipped: chunks the origin skipped at their deadline (in lostChunks too; from its END).
// lateChunks: chunks that came after the segment was handed over (in lostChunks too; counted on
// after the segment is logged, so the recorder reads it again).
const segmentFields = ['bp', 'reliableBytes', 'unreliableBytes', 'packets', 'unreliableChunks', 'lostChunks', 'lateChunks', 'plr', 'stoppedAtDeadline', 'finishedBy', 'reliableDoneAt', 'fragments', 'fragmentsOnDeadline', 'lateAfterFragment', 'originSkipped', 'prefetched'];

const segmentNote = (s) => (s.plr !== undefined ? ` (BP ${s.bp}, PLR ${percent(s.plr, 1)})` : '');

function summaryRows(q) {
  const t = q.summary.transport;
  if (!t || t.plr === undefined) return [];
  const m = fdspMediaLoss(q.segments);
  return [
    ['FDSP: BP now', `${t.bp} %${t.autoBp ? ` (dynamic, ${t.autoBp.minBp}-${t.autoBp.maxBp})` : ''}`],
    ['FDSP: PLR (lost / all packets)', `${percent(t.plr, 2)} (${t.lostChunks} / ${t.packets})`],
    ['FDSP: unreliable chunks lost', `${percent(t.unreliableLossRatio, 2)} (${t.lostChunks} / ${t.unreliableChunks})`],
    ['FDSP: late chunks / deadline stops', `${t.lateChunks} / ${t.deadlineStops}`],
    ['FDSP: PLR of segments waited for in full (the network\'s part)', m && m.networkPlr !== null ? `${percent(m.networkPlr, 2)} (${m.networkLostChunks} / ${m.networkPackets})` : '-'],
    ['FDSP: reliable share of bytes', t.reliableShare === null ? '-' : percent(t.reliableShare, 1)],
    ...(t.fragmentsReleased || t.lateChunksAfterRelease ? [['FDSP: fragments on their own deadline / chunks after their fragment went', `${t.fragmentsReleased} / ${t.lateChunksAfterRelease}`]] : []),
  ];
}

function progressNote(summary) {
  const t = summary && summary.transport;
  return t && t.plr !== undefined && t.unreliableChunks > 0 ? `PLR ${percent(t.plr, 2)}` : null;
}

const resultColumns = [
  // Media packets lost / all media packets, as the player counted them: a packet that came after
  // its segment's playout deadline is lost too, as paper 000 counts PLR.
  {
    name: 'mediaPlr',
    get: (r) => { const t = transportTotals(r); return t && t.plr !== undefined ? t.plr : null; },
    metric: { label: 'Media packet loss ratio, paper 000\'s definition (FDSP: lost or past the playout deadline / all media packets)', unit: '%', scale: 100, digits: 3, bar: true },
  },
  // The same split by cause (player/qoe/fdsp-media-loss.js): segments waited for in full show
  // what the network took; deadline stops (counted by the transport), chunks after their
  // fragment went and chunks the origin skipped at their deadline are the rest.
  {
    name: 'networkMediaPlr',
    get: (r) => { const m = r.qoe ? fdspMediaLoss(r.qoe.segments) : null; return m ? m.networkPlr : null; },
    metric: { label: 'Media packet loss ratio in segments waited for in full (FDSP: the network\'s part; deadline stops, late chunks and the origin\'s deadline skips left out)', unit: '%', scale: 100, digits: 3 },
  },
  {
    name: 'deadlineStops',
    get: (r) => { const t = transportTotals(r); return t ? t.deadlineStops ?? null : null; },
    metric: { label: 'Segments stopped at their playout deadline (FDSP)', unit: '', scale: 1, digits: 1 },
  },
  { name: 'lateChunks', get: (r) => { const t = transportTotals(r); return t ? t.lateChunks ?? null : null; } },
  {
    name: 'reliableShare',
    get: (r) => { const t = transportTotals(r); return t ? t.reliableShare ?? null : null; },
    metric: { label: 'Share of bytes sent reliably (FDSP)', unit: '%', scale: 100, digits: 1 },
  },
];

// The FDSP responder serves the on-demand files under /content/; the live broadcast is a route of
// the HTTP listeners (origin/live/) it does not know.
const liveRefusal = 'FDSP carriers fetch the on-demand files only (the origin\'s FDSP responder has no live broadcast)';

module.exports = { segmentFields, segmentNote, summaryRows, progressNote, resultColumns, liveRefusal };
