'use strict';
// Paper 001's parallel request-response streams: n_c persistent HTTP/1.1 connections to the
// origin's HTTP/1.1 pool (urls.http11pool, several ports), l_d-byte range requests in playback
// order from one queue, t_gap between a stream's requests, a dynamic chunk timeout and
// re-requests of late chunks (parallel-transport.js). Its accounting per segment: chunks,
// requests, re-requests, timeouts, duplicates discarded, request overhead, in-order throughput.
const { ParallelTransport } = require('../parallel-transport');
const { streams, chunkBytes, gapMs, timeoutMinMs, timeoutMaxMs, losingCopy } = require('../parallel-options');

// A playback's totals are in its QoE summary; a throughput run (paper 001's scenarios) plays
// nothing and keeps them beside its in-order throughput.
const totals = (r) => (r.summary && r.summary.transport) || (r.throughput && r.throughput.transportStats) || null;
const total = (key) => (r) => { const t = totals(r); return t && t.streams !== undefined && t[key] !== undefined ? t[key] : null; };
const percent = (v, digits) => `${(100 * v).toFixed(digits)} %`;

function summaryRows(q) {
  const t = q.summary.transport;
  if (!t || t.streams === undefined) return [];
  return [
    ['Parallel: streams x chunk, gap', `${t.streams} x ${t.chunkBytes} B, ${t.gapMs} ms (${t.streamsPerPort.join(' + ')} over ${t.poolPorts} ports)`],
    ['Parallel: chunk requests (re-requests, timeouts)', `${t.requests} (${t.reRequests}, ${t.timeouts})`],
    ['Parallel: duplicates discarded', `${t.duplicates} (${t.duplicateBytes} B arrived twice; losing copies ${t.losingCopy === 'finish' ? 'received to the end' : 'aborted'})`],
    ['Parallel: request overhead (600 B per request)', `${t.overheadBytes} B${t.payloadBytes ? ` (${percent(t.overheadBytes / t.payloadBytes, 1)} of payload)` : ''}`],
    ['Parallel: chunk timeout now', `${Math.round(t.timeoutMs)} ms (${t.timeoutMinMs}-${t.timeoutMaxMs})`],
  ];
}

module.exports = {
  name: 'parallel',
  label: 'Parallel HTTP/1.1 streams (paper 001: n_c connections, l_d-byte chunks)',
  urlKey: 'http11pool',
  options: { streams, chunkBytes, gapMs, timeoutMinMs, timeoutMaxMs, losingCopy },
  create: (url, options) => new ParallelTransport({ url, ...options }),
  configFields: (t) => ({ streams: t.streams, chunkBytes: t.chunkBytes, gapMs: t.gapMs, timeoutMinMs: t.timeoutMinMs, timeoutMaxMs: t.timeoutMaxMs, losingCopy: t.losingCopy, poolPorts: t.baseUrls.length }),
  segmentFields: ['chunks', 'requests', 'reRequests', 'timeouts', 'duplicates', 'overheadBytes', 'inOrderThroughput', 'timeoutMs'],
  segmentNote: (s) => (s.chunks !== undefined ? ` (${s.chunks} chunks${s.reRequests ? `, ${s.reRequests} re-requested` : ''})` : ''),
  summaryRows,
  progressNote: (summary) => {
    const t = summary && summary.transport;
    return t && t.streams !== undefined && t.reRequests > 0 ? `${t.reRequests} re-requests` : null;
  },
  resultColumns: [
    { name: 'chunkRequests', get: total('requests') },
    {
      name: 'reRequests',
      get: total('reRequests'),
      metric: { label: 'Chunks re-requested after a timeout or a broken connection (parallel)', unit: '', scale: 1, digits: 1, bar: true },
    },
    { name: 'chunkTimeouts', get: total('timeouts') },
    { name: 'duplicateChunks', get: total('duplicates') },
    {
      name: 'requestOverheadRatio',
      get: (r) => { const t = totals(r); return t && t.streams !== undefined && t.payloadBytes > 0 ? t.overheadBytes / t.payloadBytes : null; },
      metric: { label: 'Request overhead / payload (parallel, 600 B per request-response)', unit: '%', scale: 100, digits: 2 },
    },
  ],
};
