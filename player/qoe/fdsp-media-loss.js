'use strict';
// Where an FDSP playback's media packet loss came from. Paper 000's PLR counts a packet as
// lost whether the network dropped it or it arrived after the segment's playout deadline, and
// the player's PLR does the same. The two have different cures (BP moves the first; the
// congestion control and the deadline move the second), and one deadline stop can cut dozens
// of chunks at once, so a single PLR mixes a smooth quantity with a jumpy one. Split here
// from the per-segment log: segments the player waited for in full show what the network
// took; segments it stopped at their deadline, and chunks that came after their movie fragment
// went to the decoder (fragmented content), chunks the origin skipped at their deadline
// (playbacks recorded before the segment log carried originSkipped count those as the network's),
// and chunks that came after END's grace (the segment log's lateChunks; before it carried them,
// a one-session WebTransport playback blamed the network for 1,431 chunks its QUIC sender had
// only held back), carry the rest.

/**
 * @param {Array<{packets?: number, unreliableChunks?: number, lostChunks?: number, stoppedAtDeadline?: boolean}>} segments
 *   the QoE JSON's segment log; entries without `packets` (HTTP transports) are ignored
 * @returns {null | {packets, unreliableChunks, lostChunks, plr, exposure, networkPackets,
 *   networkUnreliableChunks, networkLostChunks, networkPlr, networkChunkLoss, deadlineStops, deadlineLostChunks,
 *   originSkippedChunks}}
 *   null when no segment came over the DataChannel. exposure: the share of packets sent
 *   unreliably (what BP lowers). networkPlr: lost / all packets in segments waited for in
 *   full; networkChunkLoss: lost / unreliable chunks there (the network's loss as the
 *   unreliable channel met it, whatever the BP); both null when every segment was stopped.
 */
function fdspMediaLoss(segments) {
  const out = { packets: 0, unreliableChunks: 0, lostChunks: 0, networkPackets: 0, networkUnreliableChunks: 0, networkLostChunks: 0, deadlineStops: 0, deadlineLostChunks: 0, originSkippedChunks: 0 };
  let seen = 0;
  for (const s of segments || []) {
    if (!s || !Number.isFinite(s.packets) || !Number.isFinite(s.lostChunks)) continue;
    seen += 1;
    const unreliable = Number.isFinite(s.unreliableChunks) ? s.unreliableChunks : 0;
    out.packets += s.packets;
    out.unreliableChunks += unreliable;
    out.lostChunks += s.lostChunks;
    // Chunks that came after their fragment went to the decoder (fragmented content), and
    // chunks the origin never sent because their turn came after their deadline (its END says
    // how many), are in lostChunks, but the network did not take them: the deadline's part.
    const lateAfterFragment = Number.isFinite(s.lateAfterFragment) ? s.lateAfterFragment : 0;
    const originSkipped = Number.isFinite(s.originSkipped) ? s.originSkipped : 0;
    // Came after all, once the segment had gone: late, not taken by the network.
    const lateAfterHandover = Number.isFinite(s.lateChunks) ? s.lateChunks : 0;
    out.originSkippedChunks += originSkipped;
    if (s.stoppedAtDeadline) {
      out.deadlineStops += 1;
      out.deadlineLostChunks += s.lostChunks;
    } else {
      out.networkPackets += s.packets;
      out.networkUnreliableChunks += unreliable;
      out.networkLostChunks += s.lostChunks - lateAfterFragment - originSkipped - lateAfterHandover;
      out.deadlineLostChunks += lateAfterFragment + originSkipped + lateAfterHandover;
    }
  }
  if (!seen) return null;
  return {
    ...out,
    plr: out.packets ? out.lostChunks / out.packets : 0,
    exposure: out.packets ? out.unreliableChunks / out.packets : 0,
    networkPlr: out.networkPackets ? out.networkLostChunks / out.networkPackets : null,
    networkChunkLoss: out.networkUnreliableChunks ? out.networkLostChunks / out.networkUnreliableChunks : null,
  };
}

module.exports = { fdspMediaLoss };
