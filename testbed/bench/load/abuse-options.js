'use strict';
// How much abuse the abuse phase mixes in: "--abuse nonreaders=20,slowloris=20,rapidreset=2"
// (connections held at once, each reconnecting when the origin ends it).

const DEFAULT_ABUSE = Object.freeze({
  // Half HTTP/1.1, half HTTP/2; each asks for 8 of the top rung's segments and reads nothing.
  nonreaders: 20,
  // Half on the HTTP/1.1 listener, half on the HTTP/1.0-style one; a header byte every 2 s.
  slowloris: 20,
  // HTTP/2 connections, each opening and resetting 100 streams every 10 ms (up to 10,000/s).
  rapidreset: 2,
});
const LIMITS = { nonreaders: 500, slowloris: 500, rapidreset: 16 };

function parseAbuse(text) {
  const out = { ...DEFAULT_ABUSE };
  for (const part of String(text).split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z]+)=(\d+)$/.exec(part);
    if (!m) throw new Error(`--abuse: "${part}" is not KIND=COUNT (e.g. nonreaders=20,slowloris=20,rapidreset=2)`);
    if (!(m[1] in LIMITS)) throw new Error(`--abuse: unknown kind "${m[1]}" (known: ${Object.keys(LIMITS).join(', ')})`);
    const n = Number(m[2]);
    if (n > LIMITS[m[1]]) throw new Error(`--abuse: ${m[1]} at most ${LIMITS[m[1]]}, got ${n}`);
    out[m[1]] = n;
  }
  return out;
}

module.exports = { DEFAULT_ABUSE, parseAbuse };
