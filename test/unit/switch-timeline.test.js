'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { switchTimeline, wireAroundSwitch } = require('../../testbed/report/switch-timeline');
const { main } = require('../../testbed/cli/switch-timeline');
const { ipPacket, pcapFile } = require('../support/pcap-file');

// A switch at 60 s on the link's clock; the page's clock runs 700 ms ahead of it (pageToLinkMs -700).
const PAGE = 700;
const record = (over = {}) => ({
  id: 'h3.sara.wifi.wifi-3g.r1',
  status: 'ok',
  transport: 'h3',
  abr: 'sara',
  network: 'wifi',
  seekSchedule: 'none',
  switchSchedule: 'wifi-3g',
  repetition: 1,
  pageToLinkMs: -PAGE,
  switchLog: [{ atSeconds: 60, at: '2026-12-06T10:00:00.000Z', mono: 1000000, network: '3g', clientIp: '10.77.0.3' }],
  // Downlink bytes so far every 200 ms (page clock): flowing until 60.1 s, silent until the
  // server's first 68 bytes by 62.5 s, a 1302-byte handshake flight, then data.
  wireSeries: [[59700, 1000], [59900, 2000], [60100, 3000], [60300, 3000], [62300, 3000],
    [62500, 3068], [62700, 4370], [62900, 15884], [63100, 40000]].map(([t, b]) => [t + PAGE, b]),
  qoe: {
    segments: [
      // Finished before the switch: not the one asked for after it.
      { index: 33, bytes: 500, requestStart: 57000 + PAGE, firstByte: 57100 + PAGE, lastByte: 58000 + PAGE },
      { index: 35, bytes: 700, requestStart: 67000 + PAGE, firstByte: 67200 + PAGE, lastByte: 68000 + PAGE },
      { index: 34, bytes: 888066, requestStart: 61020 + PAGE, firstByte: 63040 + PAGE, lastByte: 67250 + PAGE },
    ],
  },
  switchConnections: [{ outcome: 'new connection', requestAfterSeconds: 2.84 }],
  ...over,
});

test('the first segment asked for after the switch, the wire around it and the origin, in seconds after the switch', () => {
  expect(switchTimeline(record())).toEqual({
    id: 'h3.sara.wifi.wifi-3g.r1',
    transport: 'h3',
    abr: 'sara',
    network: '3g',
    atSeconds: 60,
    segment: { index: 34, bytes: 888066, requestSeconds: 1.02, firstByteSeconds: 3.04, lastByteSeconds: 7.25 },
    oldPathLastSeconds: 0.1,
    firstReplySeconds: 2.5,
    firstReplyBytes: 68,
    firstDataSeconds: 2.9,
    originRequestSeconds: 2.84,
    originOutcome: 'new connection',
    capture: null,
  });
});

test('with a capture: the client\'s first packet from its new address, how many it sent before the first answer, and that answer', () => {
  // The link's time 0 at 1000 s on the capture's clock; the switch at 60 s is 1060 there.
  const at = 1060;
  const pkt = (dt, src, dst, length) => ({ t: at + dt, src, dst, protocol: 'udp', length, srcPort: 1, dstPort: 2, flags: null });
  const packets = [
    pkt(-0.5, '10.77.0.2', '10.77.0.1', 1278), // before the switch, from the old address
    pkt(1.02, '10.77.0.3', '10.77.0.1', 1278), // the Initial's two datagrams, lost in the outage
    pkt(1.02, '10.77.0.3', '10.77.0.1', 1278),
    pkt(1.48, '10.77.0.3', '10.77.0.1', 1278), // resent
    pkt(2.25, '10.77.0.1', '10.77.0.2', 1256), // the server's resend to the old address: not an answer
    pkt(2.40, '10.77.0.3', '10.77.0.1', 1278), // resent, through
    pkt(2.63, '10.77.0.1', '10.77.0.3', 68), // the first answer
    pkt(2.63, '10.77.0.3', '10.77.0.1', 1278),
  ];
  const r = record({ capture: { file: 'captures/x.pcap', linkStartEpochSeconds: 1000 } });
  expect(switchTimeline(r, { packets }).capture).toEqual({ firstAttemptSeconds: 1.02, attemptsBeforeAnswer: 4, firstAnswerSeconds: 2.63, firstAnswerBytes: 68 });
  // Packets but a record without a capture (or a capture but no packets): nothing from them.
  expect(switchTimeline(record(), { packets }).capture).toBeNull();
  expect(switchTimeline(r).capture).toBeNull();
  // Only up to the next switch: a later period's packets are not this switch's.
  const two = record({
    capture: { file: 'captures/x.pcap', linkStartEpochSeconds: 1000 },
    switchLog: [...record().switchLog, { atSeconds: 62, network: 'wifi', clientIp: '10.77.0.2' }],
  });
  expect(switchTimeline(two, { packets }).capture).toEqual({ firstAttemptSeconds: 1.02, attemptsBeforeAnswer: 3, firstAnswerSeconds: null, firstAnswerBytes: null });
});

test('a request log, when given, is read instead of what the record kept (records before requestAfterSeconds have none)', () => {
  const requestLog = [
    { time: '2026-12-06T09:59:59.000Z', mono: 999000, listener: 'h3', connectionId: 'h3-1', peer: '10.77.0.2:5000' },
    { time: '2026-12-06T10:00:02.600Z', mono: 1002617.6, listener: 'h3', connectionId: 'h3-2', peer: '10.77.0.3:6000' },
  ];
  const old = record({ switchConnections: [{ outcome: 'new connection' }] });
  expect(switchTimeline(old).originRequestSeconds).toBeNull();
  expect(switchTimeline(old, { requestLog })).toMatchObject({ originRequestSeconds: 2.618, originOutcome: 'new connection' });
});

test('no such switch: null; no silence on the wire (no outage): no wire figures', () => {
  expect(switchTimeline(record(), { switchIndex: 1 })).toBeNull();
  expect(wireAroundSwitch([[0, 0], [200, 10], [400, 20], [600, 30]], 100)).toEqual({
    oldPathLastSeconds: null, firstReplySeconds: null, firstReplyBytes: null, firstDataSeconds: null,
  });
  // Silent to the end: the old path's last bytes only.
  expect(wireAroundSwitch([[0, 0], [200, 10], [400, 10], [600, 10]], 100)).toMatchObject({ oldPathLastSeconds: 0.1, firstReplySeconds: null });
});

describe('npm run switch-timeline', () => {
  let dir;
  let out;
  let err;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switch-timeline-'));
    fs.mkdirSync(path.join(dir, 'playbacks'));
    out = '';
    err = '';
    jest.spyOn(process.stdout, 'write').mockImplementation((s) => { out += s; return true; });
    jest.spyOn(process.stderr, 'write').mockImplementation((s) => { err += s; return true; });
  });
  afterEach(() => {
    jest.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const write = (r) => fs.writeFileSync(path.join(dir, 'playbacks', `${r.id}.json`), JSON.stringify(r));

  test('one line per ok playback matching --only and a summary per transport', () => {
    write(record());
    write(record({ id: 'h3.sara.wifi.wifi-3g.r2', repetition: 2, switchConnections: [{ outcome: 'new connection', requestAfterSeconds: 2.94 }] }));
    write(record({ id: 'http11.sara.wifi.wifi-3g.r1', transport: 'http11' }));
    write(record({ id: 'h3.sara.wifi.wifi-3g.r3', repetition: 3, status: 'failed' }));
    expect(main([dir, '--only', 'transport=h3'])).toBe(0);
    const lines = out.trim().split('\n');
    // no capture: "-" for try1 and answer
    expect(lines.filter((l) => l.startsWith('h3.sara')).map((l) => l.split(/\s+/).slice(0, 10))).toEqual([
      ['h3.sara.wifi.wifi-3g.r1', '1.02', '0.10', '-', '2.50', '-', '2.84', '2.90', '3.04', '7.25'],
      ['h3.sara.wifi.wifi-3g.r2', '1.02', '0.10', '-', '2.50', '-', '2.94', '2.90', '3.04', '7.25'],
    ]);
    expect(out).toContain('h3 (n = 2): req 1.02 (1.02-1.02), old 0.10 (0.10-0.10), try1 -, reply 2.50 (2.50-2.50), answer -, origin 2.89 (2.84-2.94)');
    expect(out).not.toContain('http11');
  });

  test('a playback\'s capture in the run directory adds try1, answer, the tries and the answer\'s bytes', () => {
    // The link's time 0 at 1000 s on the capture's clock: the switch at 60 s is at 1060 s.
    const udp = (sec, frac, src, dst, totalLength) => ({ sec, frac, cut: 0, bytes: ipPacket({ src, dst, protocol: 17, totalLength, srcPort: 5000, dstPort: 8444 }) });
    fs.mkdirSync(path.join(dir, 'captures'));
    fs.writeFileSync(path.join(dir, 'captures', 'h3.sara.wifi.wifi-3g.r1.pcap'), pcapFile({
      linkType: 276,
      linkBytes: 20,
      packets: [udp(1061, 20000, '10.77.0.3', '10.77.0.1', 1278), udp(1061, 480000, '10.77.0.3', '10.77.0.1', 1278), udp(1062, 630000, '10.77.0.1', '10.77.0.3', 68)],
    }));
    write(record({ capture: { file: 'captures/h3.sara.wifi.wifi-3g.r1.pcap', linkStartEpochSeconds: 1000 } }));
    expect(main([dir])).toBe(0);
    const line = out.split('\n').find((l) => l.startsWith('h3.sara.wifi.wifi-3g.r1'));
    expect(line.split(/\s+/).slice(0, 10)).toEqual(['h3.sara.wifi.wifi-3g.r1', '1.02', '0.10', '1.02', '2.50', '2.63', '2.84', '2.90', '3.04', '7.25']);
    expect(line).toContain('capture: 2 tries, 68 B');
  });

  test('bad arguments and an empty selection: a clear error and a non-zero exit', () => {
    write(record());
    expect(main([])).toBe(2);
    expect(err).toContain('give exactly one run directory');
    expect(main([dir, '--switch', '0'])).toBe(2);
    expect(err).toContain('--switch takes a whole number from 1');
    expect(main([dir, '--switch', '2'])).toBe(1);
    expect(err).toContain('has a switch 2');
    expect(main([dir, '--only', 'colour=red'])).toBe(1);
    expect(err).toContain('is not KEY=VALUE');
    expect(main([path.join(dir, 'nowhere')])).toBe(1);
    expect(err).toContain('is not a run directory');
  });
});
