'use strict';
// A cheap content fingerprint for segments, the same in the page and in Node: the QoE JSON
// records one per media segment, so a run can prove that what a transport handed to the
// player is byte for byte what the origin has on disk (e.g. FDSP on a clean link). FNV-1a
// because it needs no secure context (crypto.subtle is missing on the testbed's 10.77.x.x
// pages) and runs at memory speed; it is not meant to resist tampering.

/**
 * @param {ArrayBuffer|ArrayBufferView} data
 * @returns {string} 8 lowercase hex digits
 */
function fnv1a32(data) {
  const bytes = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i += 1) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

module.exports = { fnv1a32 };
