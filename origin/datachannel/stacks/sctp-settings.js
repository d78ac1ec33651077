'use strict';
// The SCTP settings of the node-datachannel stack, read from the origin's environment
// (LAB_SCTP="KEY=VALUE,..."), so a benchmark can measure which one limits the DataChannel's
// goodput without a code change. The keys are libdatachannel's rtcSctpSettings that
// node-datachannel exposes, plus `mtu` (the peer connection's, which sets the SCTP packet
// size this side sends: libdatachannel's default is 1280 bytes).

const KEYS = ['recvBufferSize', 'sendBufferSize', 'maxChunksOnQueue', 'initialCongestionWindow', 'congestionControlModule', 'delayedSackTime', 'mtu'];

/**
 * @param {string|undefined} text  "KEY=VALUE,KEY=VALUE" (empty or undefined: none)
 * @returns {{[key: string]: number}} only the keys given
 * @throws {RangeError} on an unknown key or a value that is not a whole number >= 0
 */
function parseSctpSettings(text) {
  const out = {};
  if (text === undefined || text.trim() === '') return out;
  for (const part of text.split(',')) {
    const m = /^\s*([A-Za-z]+)\s*=\s*(\d+)\s*$/.exec(part);
    if (!m) throw new RangeError(`SCTP setting "${part.trim()}": expected KEY=NUMBER with KEY one of ${KEYS.join(', ')}`);
    if (!KEYS.includes(m[1])) throw new RangeError(`unknown SCTP setting "${m[1]}": one of ${KEYS.join(', ')}`);
    out[m[1]] = Number(m[2]);
  }
  if (out.mtu !== undefined && (out.mtu < 576 || out.mtu > 9000)) throw new RangeError(`SCTP setting mtu=${out.mtu}: between 576 and 9000 bytes`);
  return out;
}

/** The same settings written back as LAB_SCTP text (for a child process's environment and for tables). */
const formatSctpSettings = (settings) => Object.entries(settings).map(([k, v]) => `${k}=${v}`).join(',');

module.exports = { parseSctpSettings, formatSctpSettings, SCTP_SETTING_KEYS: KEYS };
