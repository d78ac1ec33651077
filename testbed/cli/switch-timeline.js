#!/usr/bin/env node
'use strict';
// npm run switch-timeline -- RUN_DIR [--switch N] [--only FILTER]: how each playback of a run got
// going again after a network switch, one line per playback and a summary per transport.
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { readRecords } = require('../runner/run-directory');
const { parseOnly } = require('../runner/run-plan');
const { readRequestLog } = require('../runner/origin-log-summary');
const { switchTimeline, DATA_BIN_BYTES } = require('../report/switch-timeline');
const { describe } = require('../report/aggregate');
const { readPcap } = require('../report/pcap-packets');

const USAGE = `Usage: npm run switch-timeline -- RUN_DIR [--switch N] [--only FILTER]

For each ok playback of RUN_DIR with a switch schedule: how it got going again after switch N
(1 = the first), in seconds after the switch on the link's clock:
  req      the player asked for its first segment after the switch (the request that completed;
           one given up on is not in the record)
  old      the link took the old path's last downlink bytes (200 ms wire samples; the
           emulator counts a packet when it schedules its delivery, the one-way delay before
           the client gets it)
  reply    the link took the server's first packet after the silence, by the end of its 200 ms
           sample, with that sample's bytes (a SYN-ACK is 60); the client gets it the one-way
           delay later, and it may be a resend to the old address (a capture tells: answer)
  origin   the first request from the new address reached the origin (from RUN_DIR/logs/, else
           the record's switchConnections; "-" when neither has it)
  data     the first 200 ms sample with more than ${DATA_BIN_BYTES} bytes
  fb, last that segment's first and last bytes reached the player
With a capture (npm run qoe -- --capture; else "-"), exactly, from the client's packets:
  try1     the client's first packet from its new address (a SYN, a QUIC Initial)
  answer   the first packet to that address, with its bytes; "tries" in the text after the
           columns: how many packets the client had sent from it by then (resends included)
Then per transport: mean, min and max of each.

Options:
  --switch N       which switch (default 1)
  --only FILTER    KEY=VALUE[,KEY=VALUE...] as for npm run qoe (transport, abr, network, seek,
                   switch, repetition, id)
  -h, --help       this text
`;

const COLUMNS = [
  ['req', (t) => t.segment && t.segment.requestSeconds],
  ['old', (t) => t.oldPathLastSeconds],
  ['try1', (t) => t.capture && t.capture.firstAttemptSeconds],
  ['reply', (t) => t.firstReplySeconds],
  ['answer', (t) => t.capture && t.capture.firstAnswerSeconds],
  ['origin', (t) => t.originRequestSeconds],
  ['data', (t) => t.firstDataSeconds],
  ['fb', (t) => t.segment && t.segment.firstByteSeconds],
  ['last', (t) => t.segment && t.segment.lastByteSeconds],
];

const num = (v) => (typeof v === 'number' ? v.toFixed(2) : '-');

function summaryLine(transport, timelines) {
  const parts = COLUMNS.map(([name, get]) => {
    const d = describe(timelines.map(get));
    if (!d.n) return `${name} -`;
    return `${name} ${d.mean.toFixed(2)} (${d.min.toFixed(2)}-${d.max.toFixed(2)})`;
  });
  return `${transport} (n = ${timelines.length}): ${parts.join(', ')}`;
}

function main(argv) {
  let args;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: { switch: { type: 'string' }, only: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    process.stderr.write(`switch-timeline: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    process.stderr.write(`switch-timeline: give exactly one run directory\n\n${USAGE}`);
    return 2;
  }
  const n = values.switch === undefined ? 1 : Number(values.switch);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`switch-timeline: --switch takes a whole number from 1, got "${values.switch}"\n`);
    return 2;
  }
  try {
    const runDir = path.resolve(positionals[0]);
    const wanted = parseOnly(values.only);
    const records = readRecords(runDir).filter((r) => r.status === 'ok' && wanted({
      transport: r.transport, abr: { label: r.abr }, network: r.network, seekSchedule: r.seekSchedule,
      switchSchedule: r.switchSchedule, repetition: r.repetition, id: r.id,
    }));
    const timelines = [];
    for (const r of records) {
      const logFile = typeof r.requestLog === 'string' ? path.join(runDir, r.requestLog) : null;
      const requestLog = logFile && fs.existsSync(logFile) ? readRequestLog(logFile) : null;
      const captureFile = r.capture && typeof r.capture.file === 'string' ? path.join(runDir, r.capture.file) : null;
      let packets = null;
      if (captureFile && fs.existsSync(captureFile)) {
        try {
          packets = readPcap(fs.readFileSync(captureFile));
        } catch (err) {
          throw new Error(`${captureFile}: ${err.message}`);
        }
      }
      const t = switchTimeline(r, { switchIndex: n - 1, requestLog, packets });
      if (t) timelines.push(t);
    }
    if (!timelines.length) {
      process.stderr.write(`switch-timeline: no ok playback in ${runDir}${values.only ? ` matching --only ${values.only}` : ''} has a switch ${n}\n`);
      return 1;
    }
    const width = Math.max(...timelines.map((t) => t.id.length));
    process.stdout.write(`switch ${n}, seconds after it (link clock)\n`);
    process.stdout.write(`${'playback'.padEnd(width)}  ${COLUMNS.map(([c]) => c.padStart(6)).join(' ')}  reply bytes, segment[, capture: tries, answer bytes]\n`);
    for (const t of timelines) {
      const seg = t.segment ? `#${t.segment.index}, ${t.segment.bytes} B` : 'none requested';
      const cap = t.capture ? `, capture: ${t.capture.attemptsBeforeAnswer ?? '-'} tries, ${t.capture.firstAnswerBytes ?? '-'} B` : '';
      process.stdout.write(`${t.id.padEnd(width)}  ${COLUMNS.map(([, get]) => num(get(t)).padStart(6)).join(' ')}  ${t.firstReplyBytes ?? '-'}, ${seg}${cap}\n`);
    }
    process.stdout.write('\n');
    const byTransport = new Map();
    for (const t of timelines) byTransport.set(t.transport, [...(byTransport.get(t.transport) || []), t]);
    for (const [transport, ts] of byTransport) process.stdout.write(`${summaryLine(transport, ts)}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`switch-timeline: ${err.message}\n`);
    return 1;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { main };
