'use strict';
// How a playback got going again after one network switch (scenario "switchSchedules"): when the
// player asked for its first segment after the switch, when the server's first packet on the new
// path reached the client, when the first request reached the origin, when the segment's first
// and last bytes came. Lined up per transport it says where one transport loses time on the others
// (results/README.md, paper002-connswitch-live: HTTP/3's longer stall after the first switch).
// Pure: a playback record (and, when kept, the origin's request log) in, one entry out.
//
// Clocks: every time out is in seconds after the switch on the link's clock. The player's times
// and wireSeries are on the page's clock (record.pageToLinkMs converts); the origin's request log
// is matched to the switch on the machine's monotonic clock (switch-connections.js).

const { connectionsAcrossSwitches } = require('../runner/switch-connections');

/** A 200 ms wire bin with more downlink bytes than this carries data, not only a handshake reply. */
const DATA_BIN_BYTES = 5000;

const seconds = (ms) => Math.round(ms) / 1000;

/**
 * The downlink around the switch, from wireSeries ([page ms, downlink bytes so far], one sample
 * per ~200 ms): when the old path's last bytes came, then after the silence the bin holding the
 * server's first packet on the new path (its end, and its bytes: a SYN-ACK is 60, a QUIC server
 * Initial more than 1200) and the first bin carrying data. Null fields when no silence follows.
 */
function wireAroundSwitch(series, atMs) {
  const none = { oldPathLastSeconds: null, firstReplySeconds: null, firstReplyBytes: null, firstDataSeconds: null };
  const i = series.findIndex(([t]) => t > atMs);
  if (i < 1) return none;
  const grew = (k) => series[k][1] > series[k - 1][1];
  let silent = i;
  while (silent < series.length && grew(silent)) silent += 1;
  if (silent >= series.length) return none;
  let reply = silent;
  while (reply < series.length && !grew(reply)) reply += 1;
  if (reply >= series.length) return { ...none, oldPathLastSeconds: seconds(series[silent - 1][0] - atMs) };
  let data = reply;
  while (data < series.length && series[data][1] - series[data - 1][1] <= DATA_BIN_BYTES) data += 1;
  return {
    oldPathLastSeconds: seconds(series[silent - 1][0] - atMs),
    firstReplySeconds: seconds(series[reply][0] - atMs),
    firstReplyBytes: series[reply][1] - series[reply - 1][1],
    firstDataSeconds: data < series.length ? seconds(series[data][0] - atMs) : null,
  };
}

/**
 * @param {object} record  a playback record (playback-record.js) with a switchLog
 * @param {object} [o]
 * @param {number} [o.switchIndex]  which switch, from 0
 * @param {object[]|null} [o.requestLog]  the origin's request log of the playback, when kept
 * @returns {null|{id, transport, abr, network, atSeconds, segment: null|{index, bytes, requestSeconds, firstByteSeconds,
 *   lastByteSeconds}, oldPathLastSeconds, firstReplySeconds, firstReplyBytes, firstDataSeconds,
 *   originRequestSeconds: number|null, originOutcome: string|null}}
 *   null when the playback has no such switch; segment: the first the player asked for after the
 *   switch (its one request that completed: an attempt given up on is not in the record);
 *   originRequestSeconds: when the first request from the new address reached the origin
 */
function switchTimeline(record, { switchIndex = 0, requestLog = null } = {}) {
  const sw = (record.switchLog || [])[switchIndex];
  if (!sw) return null;
  const atMs = sw.atSeconds * 1000;
  const toLinkMs = (pageMs) => pageMs + (record.pageToLinkMs || 0);
  const segments = ((record.qoe && record.qoe.segments) || [])
    .filter((g) => toLinkMs(g.requestStart) > atMs)
    .sort((a, b) => a.requestStart - b.requestStart);
  const g = segments[0];
  const segment = g ? {
    index: g.index,
    bytes: g.bytes,
    requestSeconds: seconds(toLinkMs(g.requestStart) - atMs),
    firstByteSeconds: seconds(toLinkMs(g.firstByte) - atMs),
    lastByteSeconds: seconds(toLinkMs(g.lastByte) - atMs),
  } : null;
  const wire = wireAroundSwitch((record.wireSeries || []).map(([t, b]) => [toLinkMs(t), b]), atMs);
  // The origin's view: from its request log when given, else what the record kept of it.
  const origin = requestLog
    ? connectionsAcrossSwitches(record.switchLog, requestLog)[switchIndex]
    : (record.switchConnections || [])[switchIndex];
  return {
    id: record.id,
    transport: record.transport,
    abr: record.abr,
    network: sw.network,
    atSeconds: sw.atSeconds,
    segment,
    ...wire,
    originRequestSeconds: origin && typeof origin.requestAfterSeconds === 'number' ? origin.requestAfterSeconds : null,
    originOutcome: origin ? origin.outcome : null,
  };
}

module.exports = { switchTimeline, wireAroundSwitch, DATA_BIN_BYTES };
