'use strict';
// The TCP congestion controls a scenario can give the origin's sender: the only list of their
// names. `kernel` ones are built into this kernel; `bpf` ones are the lab's own programs in
// bpf/ (built by npm run setup), registered with the kernel only while a run uses them
// (bpf-loader.js). Paper 004 compares Cubic, Compound, CCP and LIA:
//   - Compound (Windows) has no Linux implementation: not offered;
//   - CCP (paper 004 eq. 4) needs a gain Kp and a virtual buffer B the paper does not give, so
//     Vegas, the classic delay-based control, stands in for it (docs/congestion-controls.md);
//   - LIA is coupled across the subflows of a Multipath TCP connection (RFC 6356).

const CONGESTION_CONTROLS = [
  { name: 'reno', kernelName: 'reno', source: 'kernel', description: 'NewReno: halves on loss, one segment per RTT' },
  { name: 'cubic', kernelName: 'cubic', source: 'kernel', description: 'CUBIC, Linux\'s default loss-based control' },
  { name: 'bbr', kernelName: 'bbr', source: 'kernel', description: 'BBR v1: paces at the measured bottleneck rate' },
  {
    name: 'vegas', kernelName: 'lab_vegas', source: 'bpf', object: 'lab_vegas.bpf.o',
    description: 'Vegas, delay-based (BPF): the stand-in for paper 004\'s CCP',
  },
  {
    name: 'lia', kernelName: 'lab_lia', source: 'bpf', object: 'lab_lia.bpf.o',
    description: 'LIA (RFC 6356, BPF): window increase coupled across MPTCP subflows; Reno on one path',
  },
];

const byName = new Map(CONGESTION_CONTROLS.map((c) => [c.name, c]));

function names() {
  return CONGESTION_CONTROLS.map((c) => c.name);
}

/** The entry of a name; throws with the list of names when it is not one. */
function get(name) {
  const c = byName.get(name);
  if (!c) throw new RangeError(`unknown TCP congestion control "${name}" (one of ${names().join(', ')})`);
  return c;
}

module.exports = { list: () => CONGESTION_CONTROLS.slice(), names, get, has: (n) => byName.has(n) };
