'use strict';
// Keeps generated WebRTC signaling on loopback. A mutated ICE candidate or SDP can name any
// address, and libdatachannel would send connectivity checks there, or resolve a host name
// through DNS; fuzz traffic must not leave the machine. So every candidate's connection
// address (and related address) is made a loopback literal before it is sent; a candidate too
// broken to have an address field is refused by the parser before any lookup. Candidate
// lines lose any byte outside printable ASCII on the way (a tab or a no-break space would
// let the two sides disagree on which field is the address).

const LOOPBACK = ['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1'];

function isLoopbackLiteral(s) {
  if (s === '::1') return true;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  return Boolean(m) && m.slice(1).every((o) => Number(o) <= 255);
}

/**
 * One candidate attribute value ("candidate:1 1 UDP 2122 127.0.0.1 5000 typ host ...",
 * with or without the "a=" / "candidate:" prefix) with its addresses made loopback.
 */
function loopbackCandidate(candidate) {
  // Only printable ASCII and plain spaces, so this split and the C++ parser's (istream >>,
  // any whitespace) see the same fields.
  const tokens = candidate.replace(/[^\x21-\x7e]+/g, ' ').split(/( +)/);
  const words = [];
  tokens.forEach((t, i) => { if (!/^ +$/.test(t) && t !== '') words.push(i); });
  // Field 5 (index 4) is the connection address; "raddr" is followed by the related address.
  if (words.length >= 5 && !isLoopbackLiteral(tokens[words[4]])) tokens[words[4]] = '127.0.0.1';
  for (let k = 0; k < words.length - 1; k += 1) {
    if (/^raddr$/i.test(tokens[words[k]]) && !isLoopbackLiteral(tokens[words[k + 1]])) tokens[words[k + 1]] = '127.0.0.1';
  }
  return tokens.join('');
}

/** An SDP with every candidate line made loopback-only (other lines are left as they are). */
function loopbackSdp(sdp) {
  return sdp.split(/(\r?\n)/).map((line) => (/candidate/i.test(line) ? loopbackCandidate(line) : line)).join('');
}

module.exports = { loopbackCandidate, loopbackSdp, isLoopbackLiteral, LOOPBACK };
