'use strict';
// What the transport did at each network switch of a playback (scenario "switchSchedules"), read
// from the origin's request log: did the first request after the switch come on a connection
// opened before it (a QUIC connection that migrated to the client's new address: the log's
// `peer` changed under the same connection id) or on a new one (a new TCP or QUIC handshake)?
// Paper 002 credits QUIC's behaviour here; this is where a run shows what Chromium's QUIC did.
// Pure: the switch log and the request log in, one entry per switch out.

const ipOf = (peer) => (typeof peer === 'string' ? peer.replace(/:\d+$/, '').replace(/^\[|\]$/g, '') : null);

/**
 * Times to compare switches and requests by: the machine's monotonic clock when both logs carry
 * it (mono), since the wall clock steps when a VM is resumed from a snapshot; else (records from
 * before the origin stamped it) the wall clock of both.
 */
function commonClock(switchLog, requestLog) {
  const mono = switchLog.every((s) => typeof s.mono === 'number') && requestLog.every((e) => typeof e.mono === 'number');
  return mono
    ? { name: 'mono', ofSwitch: (s) => s.mono, ofRequest: (e) => e.mono }
    : { name: 'wall', ofSwitch: (s) => Date.parse(s.at), ofRequest: (e) => Date.parse(e.time) };
}

/**
 * @param {Array<{atSeconds: number, at: string, mono?: number, network: string, clientIp: string|null}>} switchLog
 * @param {Array<{time: string, mono?: number, listener: string, connectionId: string, aborted: boolean, peer?: string}>} requestLog
 * @returns {Array<{atSeconds: number, network: string, clientIp: string|null, clock: 'mono'|'wall', connectionId: string|null,
 *   outcome: 'migrated'|'same connection'|'new connection'|'no request', peerBefore: string|null, peerAfter: string|null,
 *   requestAfterSeconds: number|null}>}
 *   migrated: a connection used before the switch carried the first request after it, from the
 *   new address; new connection: that request opened one (0-RTT or not is not in the log);
 *   same connection: an old connection from the same address carried it -- over TCP, a switch
 *   back to an address the client had before lets a connection opened there carry on;
 *   requestAfterSeconds: when that request reached the origin, in seconds after the switch (how
 *   long the transport took to carry on: a handshake's lost packets and round trips are in it)
 */
function connectionsAcrossSwitches(switchLog, requestLog) {
  const timed = requestLog.filter((e) => e.connectionId && e.time);
  const clock = commonClock(switchLog, timed);
  const requests = timed
    .map((e) => ({ ...e, key: `${e.listener}:${e.connectionId}`, ms: clock.ofRequest(e) }))
    .sort((a, b) => a.ms - b.ms);
  const switches = switchLog.map((s) => ({ ...s, ms: clock.ofSwitch(s) })).sort((a, b) => a.ms - b.ms);
  return switches.map((s, i) => {
    const at = s.ms;
    const until = i + 1 < switches.length ? switches[i + 1].ms : Infinity;
    const before = requests.filter((r) => r.ms < at);
    // The first request after the switch that was answered and came from the new address: one
    // the player sent on an old connection just before it noticed the switch fails (aborted), and
    // one still in flight from the old address when the switch came reaches the origin after it
    // (logged as answered: the origin's socket took the response) -- neither says where the
    // transport carried on. Without a logged peer the address cannot be checked.
    const fromNewAddress = (r) => !s.clientIp || ipOf(r.peer) === null || ipOf(r.peer) === s.clientIp;
    // One with a logged peer first: a request logged without one (seen once in a CI run) says
    // nothing of the address, and only stands in when no other came.
    const after = (r) => r.ms >= at && r.ms < until && !r.aborted && fromNewAddress(r);
    const first = requests.find((r) => after(r) && ipOf(r.peer) !== null) || requests.find(after);
    // Which clock matched them, so a record says when a wall-clock step could have misled it.
    const base = { atSeconds: s.atSeconds, network: s.network, clientIp: s.clientIp || null, clock: clock.name };
    if (!first) return { ...base, connectionId: null, outcome: 'no request', peerBefore: null, peerAfter: null, requestAfterSeconds: null };
    const requestAfterSeconds = Math.round(first.ms - at) / 1000;
    const earlier = [...before].reverse().find((r) => r.key === first.key);
    if (!earlier) return { ...base, connectionId: first.connectionId, outcome: 'new connection', peerBefore: null, peerAfter: first.peer || null, requestAfterSeconds };
    const moved = ipOf(earlier.peer) !== null && ipOf(first.peer) !== null && ipOf(earlier.peer) !== ipOf(first.peer);
    return { ...base, connectionId: first.connectionId, outcome: moved ? 'migrated' : 'same connection', peerBefore: earlier.peer || null, peerAfter: first.peer || null, requestAfterSeconds };
  });
}

/** Counts per outcome, for a table: {migrated: n, 'new connection': n, ...}. */
function countOutcomes(entries) {
  const out = {};
  for (const e of entries) out[e.outcome] = (out[e.outcome] || 0) + 1;
  return out;
}

module.exports = { connectionsAcrossSwitches, countOutcomes };
