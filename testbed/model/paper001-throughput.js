'use strict';
// Paper 001's throughput model (its §II-III, eqs. 1-4): upper bounds for the throughput of one
// TCP connection and of n_c request-response streams under random packet loss, so a run's
// measured in-order throughput can be set beside what the paper's model allows. Pure.
//
// Symbols (the paper's, in SI units here: bytes, seconds, bit/s):
//   MSS     maximum segment size, bytes (the paper uses 1460)
//   RTT     round-trip time, s (the link's configured RTT: queueing delay is not in the model)
//   p       random packet loss probability, 0 <= p < 1
//   n_c     number of concurrent request-response streams (persistent HTTP/1.1 connections)
//   l_d     data block (chunk) size per request, bytes
//   t_gap   inter-request gap: a stream waits this long after a response before its next request, s
//   n_d     packets per data block, l_d ~ n_d * MSS; here ceil(l_d / MSS), the packets a block of
//           l_d bytes really needs (20480 B / 1460 B = 14.03 -> 15)
//   n_p     packets per round of all streams, n_c * n_d
//   n_l     the most packets lost per round, eq. 3
//
//   eq. 1   r_max    = (MSS / RTT) / sqrt(p)                       one TCP connection; as the
//           paper prints it, without the sqrt(3/2) of Mathis et al. (the lab's bench:netem
//           uses that constant); infinite at p = 0
//   eq. 2   r_rr     = n_c * l_d / (RTT + t_gap)                    the streams without loss
//   eq. 3   n_l      = ceil(n_p / (1 + 1/p))                        0 at p = 0
//   eq. 4   r_rrmax  = (n_c - n_l) * l_d / (RTT + t_gap) + n_l * l_d / (2 RTT + t_gap)
//           valid while n_l <= n_c (at most one loss per stream and block: a lost packet costs
//           its block one more RTT); past that, n_l is taken as n_c and `assumptionHolds` is false
//
// Neither bound knows the link's rate; `capped` is the bound limited by it (the rate the
// emulator serialises IP packets at, so even that is above what TCP's payload can reach).
// The paper's request overhead: about 600 bytes of HTTP request and response headers (and
// their TCP/IP packets) per request-response, 2.9 % of a 20480-byte chunk (its §V).

const PAPER_MSS_BYTES = 1460;
const PAPER_REQUEST_OVERHEAD_BYTES = 600;

function check(name, value, ok) {
  if (!(typeof value === 'number' && Number.isFinite(value) && ok(value))) throw new RangeError(`paper001 model: ${name} out of range, got ${value}`);
}

/** eq. 1: one TCP connection's bound in bit/s (Infinity without loss). */
function singleTcpBound({ mssBytes = PAPER_MSS_BYTES, rttSeconds, lossRate }) {
  check('mssBytes', mssBytes, (v) => v > 0);
  check('rttSeconds', rttSeconds, (v) => v > 0);
  check('lossRate', lossRate, (v) => v >= 0 && v < 1);
  if (lossRate === 0) return Infinity;
  return ((8 * mssBytes) / rttSeconds) / Math.sqrt(lossRate);
}

/** n_d: packets a data block of l_d bytes takes. */
function packetsPerBlock(chunkBytes, mssBytes = PAPER_MSS_BYTES) {
  return Math.ceil(chunkBytes / mssBytes);
}

/** eq. 3: the most packets lost per round of n_p packets. */
function lostPacketsPerRound(packetsPerRound, lossRate) {
  if (lossRate === 0) return 0;
  // The epsilon keeps a value that is an integer on paper from rounding up past it in floats.
  return Math.ceil(packetsPerRound / (1 + 1 / lossRate) - 1e-9);
}

/**
 * eqs. 2-4 for n_c request-response streams, in bit/s.
 * @returns {{rRr: number, rRrMax: number, blockPackets: number, roundPackets: number,
 *   lostPackets: number, assumptionHolds: boolean}}
 */
function requestResponseBound({ mssBytes = PAPER_MSS_BYTES, rttSeconds, lossRate, streams, chunkBytes, gapSeconds }) {
  check('rttSeconds', rttSeconds, (v) => v > 0);
  check('lossRate', lossRate, (v) => v >= 0 && v < 1);
  check('streams', streams, (v) => Number.isInteger(v) && v >= 1);
  check('chunkBytes', chunkBytes, (v) => v > 0);
  check('gapSeconds', gapSeconds, (v) => v >= 0);
  const blockBits = 8 * chunkBytes;
  const blockPackets = packetsPerBlock(chunkBytes, mssBytes);
  const roundPackets = streams * blockPackets;
  const lost = lostPacketsPerRound(roundPackets, lossRate);
  const lostStreams = Math.min(lost, streams);
  const clean = blockBits / (rttSeconds + gapSeconds);
  const hit = blockBits / (2 * rttSeconds + gapSeconds);
  return {
    rRr: streams * clean,
    rRrMax: (streams - lostStreams) * clean + lostStreams * hit,
    blockPackets,
    roundPackets,
    lostPackets: lost,
    assumptionHolds: lost <= streams,
  };
}

/** The paper's request overhead as a share of one chunk's payload (5.8 / 2.9 / 1.5 % for 10/20/40 KiB). */
function requestOverheadRatio(chunkBytes, overheadBytes = PAPER_REQUEST_OVERHEAD_BYTES) {
  return overheadBytes / chunkBytes;
}

/**
 * The bound that applies to one run: eq. 4 for request-response streams (given streams,
 * chunkBytes and gapMs), else eq. 1 (one connection), and both limited by the link's rate.
 * @param {object} o
 * @param {number} o.rttMs, o.lossPercent  the network profile's
 * @param {number|null} [o.rateBps]        the link's (peak) rate; null: unlimited
 * @param {{streams: number, chunkBytes: number, gapMs: number}|null} [o.streams]  the parallel
 *   transport's parameters; null for a single connection
 * @param {number} [o.mssBytes]
 * @returns {{equation: 'eq1'|'eq4', bound: number, capped: number|null, assumptionHolds: boolean,
 *   lostPackets?: number, rRr?: number}}  bound may be Infinity (eq. 1 without loss); capped is
 *   null only when both the bound and the rate are unlimited
 */
function boundForRun({ rttMs, lossPercent = 0, rateBps = null, streams = null, mssBytes = PAPER_MSS_BYTES }) {
  const rttSeconds = rttMs / 1000;
  const lossRate = lossPercent / 100;
  let out;
  if (streams) {
    const r = requestResponseBound({ mssBytes, rttSeconds, lossRate, streams: streams.streams, chunkBytes: streams.chunkBytes, gapSeconds: streams.gapMs / 1000 });
    out = { equation: 'eq4', bound: r.rRrMax, assumptionHolds: r.assumptionHolds, lostPackets: r.lostPackets, rRr: r.rRr };
  } else {
    out = { equation: 'eq1', bound: singleTcpBound({ mssBytes, rttSeconds, lossRate }), assumptionHolds: true };
  }
  const limit = rateBps && rateBps > 0 ? rateBps : Infinity;
  const capped = Math.min(out.bound, limit);
  return { ...out, capped: Number.isFinite(capped) ? capped : null };
}

module.exports = {
  singleTcpBound,
  requestResponseBound,
  packetsPerBlock,
  lostPacketsPerRound,
  requestOverheadRatio,
  boundForRun,
  PAPER_MSS_BYTES,
  PAPER_REQUEST_OVERHEAD_BYTES,
};
