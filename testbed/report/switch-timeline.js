'use strict';
// How a playback got going again after one network switch (scenario "switchSchedules"): when the
// player asked for its first segment after the switch, when the link took the server's first
// packet after the silence, when the first request reached the origin, when the segment's first
// and last bytes came. Lined up per transport it says where one transport loses time on the others
// (results/README.md, paper002-connswitch-live: HTTP/3's longer stall after the first switch).
// With the playback's packet capture (npm run qoe -- --capture), also exactly when the client
// first tried from its new address, how many packets it sent before anything came back (a SYN
// or QUIC Initial and their resends), and when the first answer came.
// Pure: a playback record (and, when kept, the origin's request log and the capture's packets)
// in, one entry out.
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
 * per ~200 ms): when the link took the old path's last bytes, then after the silence the bin
 * holding the server's first packet (its end, and its bytes: a SYN-ACK is 60, a QUIC server
 * Initial 68 or more than 1200) and the first bin carrying data. The emulator counts a packet
 * when it schedules its delivery, so these are when the link took the packets: the client gets
 * them the one-way delay (and any queueing) later. And the wire does not know addresses: the
 * first packet after the silence can be the server's resend to the client's old address (seen
 * in captures: two 1228-byte QUIC packets 0.4 s before the first answer to the new one). A
 * capture tells both apart (captureAroundSwitch). Null fields when no silence follows.
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
 * The new address's first packets after the switch, from a capture (pcap-packets.js readPcap;
 * t on the capture's clock, which record.capture.linkStartEpochSeconds ties to the link's).
 * Null fields when the client sent nothing from it before the next switch.
 */
function captureAroundSwitch(packets, { clientIp, atEpochSeconds, untilEpochSeconds = Infinity }) {
  const inPeriod = packets.filter((p) => p.t >= atEpochSeconds && p.t < untilEpochSeconds);
  const sent = inPeriod.filter((p) => p.src === clientIp);
  const answer = inPeriod.find((p) => p.dst === clientIp);
  const after = (t) => Math.round((t - atEpochSeconds) * 1000) / 1000;
  return {
    firstAttemptSeconds: sent.length ? after(sent[0].t) : null,
    attemptsBeforeAnswer: sent.length ? sent.filter((p) => !answer || p.t < answer.t).length : null,
    firstAnswerSeconds: answer ? after(answer.t) : null,
    firstAnswerBytes: answer ? answer.length : null,
  };
}

/**
 * @param {object} record  a playback record (playback-record.js) with a switchLog
 * @param {object} [o]
 * @param {number} [o.switchIndex]  which switch, from 0
 * @param {object[]|null} [o.requestLog]  the origin's request log of the playback, when kept
 * @param {object[]|null} [o.packets]  its capture's packets (readPcap), when captured
 * @returns {null|{id, transport, abr, network, atSeconds, segment: null|{index, bytes, requestSeconds, firstByteSeconds,
 *   lastByteSeconds}, oldPathLastSeconds, firstReplySeconds, firstReplyBytes, firstDataSeconds,
 *   originRequestSeconds: number|null, originOutcome: string|null, capture: null|{firstAttemptSeconds,
 *   attemptsBeforeAnswer, firstAnswerSeconds, firstAnswerBytes}}}
 *   null when the playback has no such switch; segment: the first the player asked for after the
 *   switch (its one request that completed: an attempt given up on is not in the record);
 *   originRequestSeconds: when the first request from the new address reached the origin
 */
function switchTimeline(record, { switchIndex = 0, requestLog = null, packets = null } = {}) {
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
    capture: packets && record.capture ? captureAroundSwitch(packets, {
      clientIp: sw.clientIp,
      atEpochSeconds: record.capture.linkStartEpochSeconds + sw.atSeconds,
      untilEpochSeconds: record.switchLog[switchIndex + 1] ? record.capture.linkStartEpochSeconds + record.switchLog[switchIndex + 1].atSeconds : Infinity,
    }) : null,
  };
}

module.exports = { switchTimeline, wireAroundSwitch, captureAroundSwitch, DATA_BIN_BYTES };
