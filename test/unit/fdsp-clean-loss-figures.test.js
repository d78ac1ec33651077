'use strict';
// bench:datachannel --clean and bench:quic --clean count each playback's lost chunks and say which
// were the network's (segments the player waited for in full) and which came after their playout
// deadline; a row shows the transport options it played with.
const { addPlayback, emptyRow, cleanLossTable } = require('../../testbed/bench/fdsp-clean-loss');

// A QoE JSON cut to what the bench reads: the transport's totals and the per-segment log.
function qoe(segments) {
  const sum = (k) => segments.reduce((a, s) => a + (s[k] || 0), 0);
  return { summary: { transport: { lostChunks: sum('lostChunks'), unreliableChunks: sum('unreliableChunks') } }, segments };
}

test('a lost chunk in a segment waited for in full is the network\'s; one in a segment stopped at its deadline is late', () => {
  const row = emptyRow('loopback', { pace: 1.5 });
  const p = addPlayback(row, qoe([
    { packets: 1000, unreliableChunks: 900, lostChunks: 3, stoppedAtDeadline: false },
    { packets: 1000, unreliableChunks: 900, lostChunks: 8, stoppedAtDeadline: true },
    // Finished in full, but 2 chunks came after their fragment went and the origin skipped 1.
    { packets: 1000, unreliableChunks: 900, lostChunks: 4, stoppedAtDeadline: false, lateAfterFragment: 2, originSkipped: 1 },
  ]));
  expect(p).toEqual({ lost: 15, chunks: 2700, network: 4, late: 11, rcvbuf: 0 });
  expect(row).toMatchObject({ playbacks: 1, zeroLoss: 0, lost: 15, network: 4, late: 11, chunks: 2700, worst: 15 });
});

test('rows add up over playbacks and the table shows both parts', () => {
  const row = emptyRow('emulated 20 Mbit/s, 50 ms', { pace: 'off', window: 'off', receiveBuffer: 'video' });
  addPlayback(row, qoe([{ packets: 500, unreliableChunks: 400, lostChunks: 0, stoppedAtDeadline: false }]));
  addPlayback(row, qoe([{ packets: 500, unreliableChunks: 400, lostChunks: 6, stoppedAtDeadline: true }]), 9);
  expect(row).toMatchObject({ playbacks: 2, zeroLoss: 1, lost: 6, network: 0, late: 6, rcvbuf: 9, chunks: 800, worst: 6 });
  const table = cleanLossTable([row]).split('\n');
  expect(table[0]).toMatch(/\| receive buffer \| largest socket rb \(bytes\) \|.*of which network \| of which past deadline \| receive-buffer drops/);
  expect(table[2]).toMatch(/\| off +\| video +\| \? +\| 2 +\|/);
  expect(table[2]).toMatch(/\| 1 \/ 2 +\| 6 \/ 800 \(0\.750 %\) \| 0 +\| 6 +\| 9 +\| 6 +\| 0 +\|/);
});

test('a row names its receive buffer option and the largest socket buffer Chromium had', () => {
  const row = emptyRow('loopback', { pace: 1.5, window: 'off', receiveBuffer: 'video' });
  row.socketBytes = 2097152;
  addPlayback(row, qoe([{ packets: 500, unreliableChunks: 400, lostChunks: 0, stoppedAtDeadline: false }]));
  expect(cleanLossTable([row]).split('\n')[2]).toMatch(/\| loopback \| 1\.5 +\| off +\| video +\| 2097152 +\| 1 +\| 1 \/ 1 /);
});

test('--where picks settings by key in the bench\'s order and names what it does not know', () => {
  const { pickSettings } = require('../../testbed/bench/fdsp-clean-loss');
  const problems = [];
  expect(pickSettings('100,loopback', problems).map((s) => s.key)).toEqual(['loopback', '100']);
  expect(problems).toEqual([]);
  expect(pickSettings('loopback,30', problems).map((s) => s.key)).toEqual(['loopback']);
  expect(problems).toEqual(['--where: "30" is not a setting (loopback, 20, 100)']);
});

test('variants are every combination of the options\' values, in the order given', () => {
  const { variantsOf } = require('../../testbed/bench/fdsp-clean-loss');
  expect(variantsOf({ carrier: ['single', 'split'], pace: [1.5, 'off'] })).toEqual([
    { carrier: 'single', pace: 1.5 }, { carrier: 'single', pace: 'off' }, { carrier: 'split', pace: 1.5 }, { carrier: 'split', pace: 'off' },
  ]);
  expect(variantsOf({})).toEqual([{}]);
});

test('a WebTransport row has a column per option it set: carrier and pace', () => {
  const row = emptyRow('emulated 100 Mbit/s, 50 ms', { carrier: 'single', pace: 1.5 });
  addPlayback(row, qoe([{ packets: 500, unreliableChunks: 400, lostChunks: 0, stoppedAtDeadline: false }]));
  const table = cleanLossTable([row]).split('\n');
  expect(table[0]).toMatch(/^\| setting +\| carrier \| pace \| largest socket rb \(bytes\) \|/);
  expect(table[2]).toMatch(/^\| emulated 100 Mbit\/s, 50 ms \| single +\| 1\.5 +\| \? +\| 1 +\| 1 \/ 1 /);
});
