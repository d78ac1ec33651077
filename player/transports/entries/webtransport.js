'use strict';
// FDSP over WebTransport (HTTP/3, the origin's QUIC server at urls.webtransport): the reliable
// part on a QUIC stream, the rest as datagrams; optionally split over two sessions with the
// datagrams under a fixed rate (paper 000's TCP + uncontrolled UDP). Its FDSP accounting is
// every FDSP carrier's (fdsp-entry-parts.js); it adds which carrier and congestion controllers
// carried each response.
const { WebTransportTransport } = require('../webtransport-transport');
const bp = require('../bp-option');
const mode = require('../fdsp-mode-option');
const pace = require('../pace-option');
const { carrier, cc, fixedMargin, FIXED_NOTE } = require('../webtransport-options');
const { describePlan } = require('../webtransport-carriers');
const fdsp = require('../fdsp-entry-parts');

/**
 * WebTransport exists only in secure contexts. The page comes from the origin's plain-HTTP
 * listeners, which is one on loopback but not on the emulator's 10.77.x.1: Chromium is told
 * to treat those origins as secure.
 */
function chromiumArgs(info) {
  const pageOrigins = Object.values(info.urls).filter((u) => /^http:\/\//.test(u)).map((u) => new URL(u).origin);
  return pageOrigins.length ? [`--unsafely-treat-insecure-origin-as-secure=${[...new Set(pageOrigins)].join(',')}`] : [];
}

module.exports = {
  name: 'webtransport',
  label: 'WebTransport (FDSP over QUIC: reliable stream, unreliable datagrams)',
  ipProtocol: 'udp',
  options: { bp, mode, pace, carrier, cc, fixedMargin },
  create: (url, options, context) => new WebTransportTransport({
    url, ...options, paceBps: pace.paceBps(options.pace, context.highestBandwidthBps), bufferLevel: context.bufferLevel, stallState: context.stallState, nextSegmentUrl: context.nextSegmentUrl, highestBandwidthBps: context.highestBandwidthBps, certSha256Hex: context.certSha256Hex,
  }),
  // paceBps: the datagrams' pace asked of the origin (bits/s, null: unpaced); a split carrier's
  // fixed-rate session holds fixedRateKbps as well.
  configFields: (t) => ({
    bp: t.bp, mode: t.mode, paceBps: t.paceBps, carrier: t.plan.carrier, reliableCc: t.plan.reliableCc, unreliableCc: t.plan.unreliableCc, fixedRateKbps: t.plan.fixedRateKbps, carriers: describePlan(t.plan),
  }),
  segmentFields: [...fdsp.segmentFields, 'carrier', 'reliableCc', 'unreliableCc'],
  segmentNote: (s) => `${fdsp.segmentNote(s)}${s.carrier ? ` [${s.carrier}: ${s.reliableCc}/${s.unreliableCc}]` : ''}`,
  summaryRows: (q) => [['WebTransport: carriers', (q.config && q.config.carriers) || '-'], ...fdsp.summaryRows(q)],
  progressNote: fdsp.progressNote,
  resultColumns: fdsp.resultColumns,
  liveRefusal: fdsp.liveRefusal,
  reportNote: (record) => {
    const c = record.qoe && record.qoe.config;
    return c && (c.reliableCc === 'fixed' || c.unreliableCc === 'fixed') ? `WebTransport playbacks with a fixed-rate session are ${FIXED_NOTE}.` : null;
  },
  chromiumArgs,
};
