'use strict';
// CoDel (RFC 8289) in the emulated link's bottleneck, against drop times worked out by hand.
//
// The link: 1.2 Mbit/s, so a 1500-byte packet takes exactly 10 ms; no delay. CoDel with
// target 5 ms, interval 100 ms; MAXPACKET = 1500 bytes. A burst of 40 packets arrives at once;
// the link takes one every 10 ms and a dropped packet takes no link time, so the k-th packet
// the link SENDS starts at 10k ms after the burst, and a packet's sojourn time is the moment
// the link takes it minus its arrival.
const { LinkDirection } = require('../../testbed/netem/link-direction');

const MS_PER_PACKET = 10;
const codel = { rate: 1.2e6, queueDiscipline: 'codel', codelTargetMs: 5, codelIntervalMs: 100 };

/** A link that records every decision: [name, 'sent' | cause, when the link took it]. */
function recordingLink(settings) {
  const link = new LinkDirection(settings);
  const log = [];
  const record = (name, verdict, at) => log.push([name, verdict.dropped || 'sent', verdict.dropped ? at : verdict.deliveries[0].atMs - MS_PER_PACKET]);
  link.onQueuedVerdict = record;
  const burst = (t, prefix, n) => {
    for (let k = 0; k < n; k += 1) {
      const v = link.send(t, 1500, `${prefix}${k}`);
      if (v) record(`${prefix}${k}`, v, t);
    }
  };
  return { link, log, burst };
}

const sentStarts = (log) => log.filter((e) => e[1] === 'sent').map((e) => e[2]);
const drops = (log) => log.filter((e) => e[1] !== 'sent').map((e) => [e[0], e[1], +e[2].toFixed(3)]);
const everyTenMs = (from, n) => Array.from({ length: n }, (_, k) => from + MS_PER_PACKET * k);

test('two bursts: first drops at interval/sqrt(count), and the count resumes when dropping starts again soon', () => {
  const { link, log, burst } = recordingLink(codel);
  // Burst 1, packets p0-p39 at t = 0 (sojourn = the time the link takes it):
  //   p0 at 0: sojourn 0 < 5.                               firstAboveTime stays 0
  //   p1 at 10: sojourn 10 >= 5, 38 packets behind (> 1500 B): firstAboveTime = 10 + 100 = 110
  //   p2-p10 at 20-100: above target, but before 110:       sent
  //   p11 at 110: above target for a whole interval: DROP p11 at 110; the link takes p12 at
  //       110 and enters dropping state: count = 1 (count - lastCount = 0), dropNext =
  //       110 + 100/sqrt(1) = 210, lastCount = 1
  //   p13-p21 at 120-200: before dropNext:                  sent
  //   p22 at 210 >= 210: DROP p22, count 2; p23 taken at 210; dropNext = 210 + 100/sqrt(2) = 280.711
  //   p24-p30 at 220-280:                                   sent
  //   p31 at 290 >= 280.711: DROP p31, count 3; p32 at 290; dropNext = 280.711 + 100/sqrt(3) = 338.446
  //   p33-p36 at 300-330:                                   sent
  //   p37 at 340 >= 338.446: DROP p37, count 4; p38 taken at 340 leaves only p39 (1500 B <=
  //       MAXPACKET) behind it: not above target, dropping state ends (count 4, lastCount 1)
  //   p39 at 350: sent; the link is free at 360.
  burst(0, 'p', 40);
  link.departUntil(399);
  expect(drops(log)).toEqual([['p11', 'codel', 110], ['p22', 'codel', 210], ['p31', 'codel', 290], ['p37', 'codel', 340]]);
  expect(sentStarts(log)).toEqual(everyTenMs(0, 36));
  expect(link.counters.queueDelayMsMax).toBe(350); // p39's sojourn

  // Burst 2, q0-q39 at t = 400 (the link found the queue empty at 360: not dropping).
  //   q1 at 410: sojourn 10: firstAboveTime = 510
  //   q11 at 510: DROP q11, q12 taken at 510. Dropping starts again 171.6 ms after the last
  //       dropNext (338.446), within 16 intervals, and count - lastCount = 4 - 1 = 3 > 1: so
  //       count = 3 (not 1), dropNext = 510 + 100/sqrt(3) = 567.735, lastCount = 3
  //   q13-q17 at 520-560:                                   sent
  //   q18 at 570 >= 567.735: DROP, count 4; q19 at 570; dropNext = 567.735 + 100/sqrt(4) = 617.735
  //   q20-q23 at 580-610;  q24 at 620: DROP, count 5; q25 at 620; dropNext = 617.735 + 44.721 = 662.456
  //   q26-q29 at 630-660;  q30 at 670: DROP, count 6; q31 at 670; dropNext = 662.456 + 40.825 = 703.281
  //   q32-q34 at 680-700;  q35 at 710: DROP, count 7; q36 at 710 (3 packets behind it, still
  //       above target); dropNext = 741.077
  //   q37 at 720 sent; q38 at 730 leaves one packet behind it: dropping ends; q39 at 740.
  burst(400, 'q', 40);
  link.departUntil(10000);
  expect(drops(log).slice(4)).toEqual([['q11', 'codel', 510], ['q18', 'codel', 570], ['q24', 'codel', 620], ['q30', 'codel', 670], ['q35', 'codel', 710]]);
  expect(sentStarts(log).slice(36)).toEqual(everyTenMs(400, 35));
  expect(link.counters.drops).toMatchObject({ codel: 9, queue: 0 });
  expect(link.counters).toMatchObject({ packetsIn: 80, packetsOut: 71 });
  expect(link.nextDecisionMs).toBe(Infinity);
});

test('drop-tail with the same burst drops nothing and lets the last packet wait 390 ms', () => {
  const { link, log, burst } = recordingLink({ ...codel, queueDiscipline: 'droptail' });
  burst(0, 'p', 40);
  expect(drops(log)).toEqual([]);
  expect(sentStarts(log)).toEqual(everyTenMs(0, 40));
  expect(link.counters.queueDelayMsMax).toBe(390);
});

test('a packet that waits less than target is never dropped, however long the queue stays busy', () => {
  // One packet every 10 ms on a link that takes 10 ms per packet: sojourn 0 for every one.
  const { link, log } = recordingLink(codel);
  link.onQueuedVerdict = (name, v, at) => log.push([name, v.dropped || 'sent', at]);
  for (let k = 0; k < 100; k += 1) link.send(10 * k, 1500, k);
  link.departUntil(2000);
  expect(log.filter((e) => e[1] !== 'sent')).toEqual([]);
  expect(log).toHaveLength(100);
});

test('one packet waiting behind the one sent is no standing queue: 15 ms sojourns, never a drop', () => {
  // p0 and p1 at 0, then p(k+1) at 10k - 5: when the link takes p(k) at 10k it waited 15 ms
  // (>= target), but only p(k+1) (1500 B <= MAXPACKET) waits behind it, so firstAboveTime is
  // reset every time and nothing is dropped. (Counting sojourn alone would drop from 120 ms.)
  const { link, log } = recordingLink(codel);
  link.send(0, 1500, 0);
  link.send(0, 1500, 1);
  for (let k = 1; k < 200; k += 1) link.send(10 * k - 5, 1500, k + 1);
  link.departUntil(5000);
  expect(drops(log)).toEqual([]);
  expect(log).toHaveLength(201);
  expect(link.counters.queueDelayMsMax).toBe(15);
});

test('the queue size limit still drops arrivals (cause queue); a decision comes only when due', () => {
  const { link, log, burst } = recordingLink({ ...codel, queueLimitPackets: 5 });
  burst(0, 'p', 8); // p0 taken at once, p1-p4 wait: the queue holds 5, p5-p7 find it full
  expect(drops(log)).toEqual([['p5', 'queue', 0], ['p6', 'queue', 0], ['p7', 'queue', 0]]);
  expect(link.nextDecisionMs).toBe(10); // p1, when p0's last bit has left
  link.departUntil(9.999);
  expect(sentStarts(log)).toEqual([0]);
  link.departUntil(40);
  expect(sentStarts(log)).toEqual(everyTenMs(0, 5));
});

test('switching to drop-tail while packets wait sends them in order, then decides at arrival again', () => {
  const { link, log, burst } = recordingLink(codel);
  burst(0, 'p', 5);
  link.configure({ queueDiscipline: 'droptail' });
  link.departUntil(100);
  expect(sentStarts(log)).toEqual(everyTenMs(0, 5));
  expect(link.send(200, 1500, 'x')).toMatchObject({ dropped: null, deliveries: [{ atMs: 210 }] });
});

test('a verdict after send() needs somewhere to go; bad settings are refused with the reason', () => {
  // Even a packet the idle link takes at once is decided by the discipline, after it queued.
  expect(() => new LinkDirection(codel).send(0, 1500, 'a')).toThrow(/set onQueuedVerdict/);
  expect(() => new LinkDirection({ queueDiscipline: 'red' })).toThrow(/queueDiscipline must be one of droptail, codel, got "red"/);
  expect(() => new LinkDirection({ ...codel, codelTargetMs: 0 })).toThrow(/codelTargetMs must be > 0 ms/);
});
