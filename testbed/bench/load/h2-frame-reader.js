'use strict';
// Splits the bytes an HTTP/2 server sends into frames ({type, flags, streamId, payload}), for
// the abusive clients that must answer SETTINGS and PING and notice GOAWAY.

function createFrameReader(onFrame) {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 9) {
      const length = pending.readUIntBE(0, 3);
      if (pending.length < 9 + length) break;
      onFrame({ type: pending[3], flags: pending[4], streamId: pending.readUInt32BE(5) & 0x7fffffff, payload: pending.subarray(9, 9 + length) });
      pending = pending.subarray(9 + length);
    }
  };
}

module.exports = { createFrameReader };
