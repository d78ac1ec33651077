'use strict';
// What packet-capture.js decides without running tcpdump: the command, the --capture-bytes check,
// and reading tcpdump's closing counts (the text tcpdump 4.99 prints on SIGINT).
const { parseCaptureSummary, parseSnapBytes, tcpdumpArgs, CAPTURE_FILTER } = require('../../testbed/netem/packet-capture');

test('tcpdump captures every interface to stdout, numeric, each packet as it comes, the link\'s addresses only', () => {
  expect(tcpdumpArgs(128)).toEqual(['tcpdump', '-i', 'any', '-n', '--immediate-mode', '-U', '-s', '128', '-w', '-', CAPTURE_FILTER]);
  expect(CAPTURE_FILTER).toBe('net 10.0.0.0/8');
});

test('the closing counts, singular and plural; null where tcpdump printed none (killed)', () => {
  const said = 'tcpdump: listening on any, link-type LINUX_SLL2 (Linux cooked v2), snapshot length 128 bytes\n'
    + '1 packet captured\n12345 packets received by filter\n7 packets dropped by kernel\n';
  expect(parseCaptureSummary(said)).toEqual({ packets: 1, receivedByFilter: 12345, droppedByKernel: 7 });
  expect(parseCaptureSummary('tcpdump: listening on any\n')).toEqual({ packets: null, receivedByFilter: null, droppedByKernel: null });
});

test('--capture-bytes: whole numbers from 68 to 262144', () => {
  expect(parseSnapBytes('68')).toBe(68);
  expect(parseSnapBytes('262144')).toBe(262144);
  for (const bad of ['67', '262145', '100.5', 'all', '']) expect(() => parseSnapBytes(bad)).toThrow(/whole number of bytes per packet from 68 to 262144 \(got "/);
});
