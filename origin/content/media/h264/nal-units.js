'use strict';
// Splits an AVCC sample (NAL units each preceded by a big-endian length of 1, 2 or 4 bytes, as
// avcC's lengthSizeMinusOne says) into its NAL units.
const { BitstreamError } = require('./bit-reader');

const NAL_TYPE_NAMES = {
  1: 'slice', 5: 'idrSlice', 6: 'sei', 7: 'sps', 8: 'pps', 9: 'aud', 10: 'endOfSequence',
  11: 'endOfStream', 12: 'filler',
};

/**
 * @param {Uint8Array} bytes       the whole buffer (segment)
 * @param {number} offset, size    the sample's place in it
 * @param {number} lengthSize      NAL length field size in bytes
 * @returns {{lengthStart: number, start: number, end: number, type: number, refIdc: number, name: string}[]}
 *   start/end: the NAL unit itself (header byte first), absolute offsets into bytes
 */
function splitAvccSample(bytes, offset, size, lengthSize) {
  const end = offset + size;
  const units = [];
  let at = offset;
  while (at < end) {
    if (at + lengthSize > end) throw new BitstreamError(`NAL length field at ${at} runs past the sample end ${end}`);
    let len = 0;
    for (let i = 0; i < lengthSize; i++) len = len * 256 + bytes[at + i];
    const start = at + lengthSize;
    if (len === 0 || start + len > end) throw new BitstreamError(`NAL unit at ${start} has length ${len}, sample ends at ${end}`);
    const header = bytes[start];
    if (header & 0x80) throw new BitstreamError(`NAL unit at ${start} has forbidden_zero_bit set`);
    const type = header & 0x1f;
    units.push({ lengthStart: at, start, end: start + len, type, refIdc: (header >> 5) & 3, name: NAL_TYPE_NAMES[type] || `type${type}` });
    at = start + len;
  }
  return units;
}

module.exports = { splitAvccSample, NAL_TYPE_NAMES };
