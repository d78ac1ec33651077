'use strict';
// FDSP over a WebRTC DataChannel pair (paper 000): critical data reliable, the rest unreliable.
// Its signaling goes to the origin's HTTP/1.x listener at /fdsp (GET /api/info urls.fdsp).
const { DataChannelTransport } = require('../datachannel-transport');
const bp = require('../bp-option');
const { fdspMediaLoss } = require('../../qoe/fdsp-media-loss');

const transportTotals = (r) => (r.summary && r.summary.transport) || null;
const percent = (v, digits) => `${(100 * v).toFixed(digits)} %`;

module.exports = {
  name: 'datachannel',
  label: 'DataChannel (FDSP: critical data reliable, the rest unreliable)',
  urlKey: 'fdsp',
  options: { bp },
  create: (url, options, context) => new DataChannelTransport({ signalingUrl: url, bp: options.bp, bufferLevel: context.bufferLevel }),
  // The BP in force when the playback started (the middle of the range for dynamic BP).
  configFields: (transport) => ({ bp: transport.bp }),
  // What went which way, and what was lost, per media segment.
  segmentFields: ['bp', 'reliableBytes', 'unreliableBytes', 'packets', 'unreliableChunks', 'lostChunks', 'plr', 'stoppedAtDeadline', 'finishedBy'],
  segmentNote: (s) => (s.plr !== undefined ? ` (BP ${s.bp}, PLR ${percent(s.plr, 1)})` : ''),
  summaryRows(q) {
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
    ];
  },
  progressNote: (summary) => {
    const t = summary && summary.transport;
    return t && t.plr !== undefined && t.unreliableChunks > 0 ? `PLR ${percent(t.plr, 2)}` : null;
  },
  resultColumns: [
    // Media packets lost / all media packets, as the player counted them.
    {
      name: 'mediaPlr',
      get: (r) => { const t = transportTotals(r); return t && t.plr !== undefined ? t.plr : null; },
      metric: { label: 'Media packet loss ratio (DataChannel FDSP, lost / all media packets)', unit: '%', scale: 100, digits: 3, bar: true },
    },
    // The same split by cause (player/qoe/fdsp-media-loss.js): segments waited for in full show
    // what the network took; deadline stops (counted by the transport) cut the rest.
    {
      name: 'networkMediaPlr',
      get: (r) => { const m = r.qoe ? fdspMediaLoss(r.qoe.segments) : null; return m ? m.networkPlr : null; },
      metric: { label: 'Media packet loss ratio in segments waited for in full (DataChannel FDSP: the network\'s part, deadline stops left out)', unit: '%', scale: 100, digits: 3 },
    },
    {
      name: 'deadlineStops',
      get: (r) => { const t = transportTotals(r); return t ? t.deadlineStops ?? null : null; },
      metric: { label: 'Segments stopped at their playout deadline (DataChannel FDSP)', unit: '', scale: 1, digits: 1 },
    },
    { name: 'lateChunks', get: (r) => { const t = transportTotals(r); return t ? t.lateChunks ?? null : null; } },
    {
      name: 'reliableShare',
      get: (r) => { const t = transportTotals(r); return t ? t.reliableShare ?? null : null; },
      metric: { label: 'Share of bytes sent reliably (DataChannel FDSP)', unit: '%', scale: 100, digits: 1 },
    },
  ],
};
