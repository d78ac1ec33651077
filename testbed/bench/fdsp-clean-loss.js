'use strict';
// bench:datachannel --clean N and bench:quic --clean N: does an FDSP carrier (the DataChannel,
// WebTransport) lose anything on a clean link, as a user meets it? N playbacks of the sample in
// Chromium per setting (plain loopback; the emulator at 20 and at 100 Mbit/s, 50 ms RTT, no
// random loss) and per variant of the transport's options (e.g. pace 1.5 and off), one at a
// time, counting each playback's lost unreliable chunks. A benchmark, not a test: the figures go
// in the README, the machine's noise with them.
const fs = require('node:fs');
const { startOrigin } = require('../../origin/start-origin');
const { createEmulatedLink } = require('../netem/namespace-link');
const { startOriginInNamespace } = require('../runner/origin-in-namespace');
const { runPlayback } = require('../run-playback');
const { fdspMediaLoss } = require('../../player/qoe/fdsp-media-loss');
const { readNamespace } = require('../netem/endpoint-drops');
const { watchLargestReceiveBuffer } = require('../chromium-udp-sockets');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

// Column titles of the transport options a variant may set (others are shown by their name).
const OPTION_TITLES = { pace: 'pace', window: 'window KiB', receiveBuffer: 'receive buffer', carrier: 'carrier' };

// Datagrams the kernel dropped for a full UDP receive buffer in the client's namespace (on
// loopback: the host's, shared with everything else running): Chromium's socket, if it fell behind.
const rcvbufErrors = (netns) => readNamespace(netns, null).udp.RcvbufErrors;

// key: what --where names it by.
const SETTINGS = [
  { key: 'loopback', name: 'loopback', rateMbps: null },
  { key: '20', name: 'emulated 20 Mbit/s, 50 ms', rateMbps: 20, rttMs: 50 },
  { key: '100', name: 'emulated 100 Mbit/s, 50 ms', rateMbps: 100, rttMs: 50 },
];

/** --where LIST (e.g. "loopback,20"): the settings it names, in the bench's order; problems get a line each. */
function pickSettings(list, problems) {
  const keys = list.split(',').map((k) => k.trim());
  for (const k of keys) if (!SETTINGS.some((s) => s.key === k)) problems.push(`--where: "${k}" is not a setting (${SETTINGS.map((s) => s.key).join(', ')})`);
  return SETTINGS.filter((s) => keys.includes(s.key));
}

/**
 * Where the origin runs for one setting: loopback, or the server namespace of a clean emulated
 * link. Every listener on a port of its own (a user's `npm run origin` may hold the defaults);
 * the playback gets the origin's addresses and certificate, from which the transport registry
 * gives Chromium the flags its transport needs (none for the DataChannel).
 */
async function originFor(setting, { contentDir, dataDir, webrtcStack }) {
  if (setting.rateMbps === null) {
    const origin = await startOrigin({ http11Port: 0, http10Port: 0, h2Port: 0, h3Port: 0, contentDir, dataDir, webrtcStack, log: () => {} });
    return { pageBase: origin.urls.http11, netns: null, originInfo: origin, close: () => origin.close() };
  }
  const rate = setting.rateMbps * 1e6;
  // Twice the BDP plus room: a queue that a TCP flow fills without loss in steady state.
  const queueLimitBytes = Math.round((rate / 8) * (setting.rttMs / 1000) * 2 + 65536);
  const link = await createEmulatedLink({ index: 234, toClient: { delayMs: setting.rttMs / 2, rate, queueLimitBytes }, toServer: { delayMs: setting.rttMs / 2 } });
  let origin = null;
  try {
    origin = await startOriginInNamespace({ netns: link.serverNs, host: link.serverIp, contentDir, dataDir, logFile: '/dev/null', webrtcStack });
  } catch (err) {
    await link.close();
    throw err;
  }
  return {
    pageBase: origin.pageBase,
    netns: link.clientNs,
    originInfo: origin.info,
    close: async () => {
      await origin.close();
      await link.close();
    },
  };
}

/**
 * Every combination of the options' values, in order: {pace: [1.5, 'off'], carrier: ['single']}
 * gives [{pace: 1.5, carrier: 'single'}, {pace: 'off', carrier: 'single'}].
 * @param {Object<string, Array>} values
 * @returns {object[]}
 */
function variantsOf(values) {
  return Object.entries(values).reduce((acc, [key, list]) => acc.flatMap((v) => list.map((x) => ({ ...v, [key]: x }))), [{}]);
}

/**
 * @param {object} o
 * @param {string} [o.transport]  'datachannel' (default) or 'webtransport'
 * @param {object[]} o.variants   the transport options of each row, e.g. [{pace: 1.5}, {pace: 'off'}]
 *   (variantsOf); every variant names the same options
 * @param {number} o.playbacks    per setting and variant
 * @param {string} o.contentDir   holds the sample
 * @param {number} [o.stopAt]     seconds of each playback (default 30)
 * @param {(line: string) => void} [o.log]  progress
 * @param {string} [o.webrtcStack]  the origin's WebRTC stack
 * @returns {Promise<object[]>} one row per setting and variant
 */
async function cleanLinkLoss({ transport = 'datachannel', variants, playbacks, contentDir, stopAt = 30, settings = SETTINGS, webrtcStack, log = () => {} }) {
  const rows = [];
  const dataDir = makeLabTempDir('fdsp-clean');
  try {
    for (const setting of settings) {
      const where = await originFor(setting, { contentDir, dataDir, webrtcStack });
      try {
        for (const options of variants) {
          const row = emptyRow(setting.name, options);
          const label = `${setting.name}, ${Object.entries(options).map(([k, v]) => `${k} ${v}`).join(', ')}`;
          for (let i = 1; i <= playbacks; i++) {
            try {
              const dropsBefore = rcvbufErrors(where.netns);
              const socketWatch = watchLargestReceiveBuffer({ netns: where.netns });
              let qoe;
              let socket = { largest: null, error: null };
              try {
                ({ qoe } = await runPlayback({
                  pageBase: where.pageBase, netns: where.netns, originInfo: where.originInfo, timeoutMs: (stopAt + 90) * 1000, onPlaying: socketWatch.onPlaying,
                  config: { content: 'sample', transport, abr: 'bba2', stopAt, bp: 100, ...options },
                }));
              } finally {
                socket = await socketWatch.stop();
                row.socketBytes = Math.max(row.socketBytes ?? 0, socket.largest ?? 0) || null;
              }
              const p = addPlayback(row, qoe, rcvbufErrors(where.netns) - dropsBefore);
              log(`${label}, ${i}/${playbacks}: ${p.lost} of ${p.chunks} chunks lost (network ${p.network}, past their deadline ${p.late}); receive-buffer drops ${p.rcvbuf}; Chromium's socket buffer ${socket.largest === null ? `unknown (${socket.error})` : `${socket.largest} B`}`);
            } catch (err) {
              row.failed += 1;
              log(`${label}, ${i}/${playbacks}: failed: ${err.message}`);
            }
          }
          rows.push(row);
        }
      } finally {
        await where.close();
      }
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

/** A row before its playbacks: the setting's name and the variant's options (shown as given). */
const emptyRow = (setting, options) => ({ setting, options: Object.fromEntries(Object.entries(options).map(([k, v]) => [k, String(v)])), socketBytes: null, playbacks: 0, zeroLoss: 0, lost: 0, network: 0, late: 0, rcvbuf: 0, chunks: 0, worst: 0, failed: 0 });

/**
 * Counts one playback into its row. A lost chunk either never arrived in a segment the player
 * waited for in full (the network's or the receiver's loss: what pacing is for) or came after
 * its playout deadline (a deadline stop, a fragment gone to the decoder, an origin skip): on a
 * clean link both should be zero, and which one it was says where to look.
 * @param {number} [rcvbuf]  UDP datagrams the client's kernel dropped meanwhile for a full receive buffer
 * @returns {{lost: number, chunks: number, network: number, late: number, rcvbuf: number}} this playback's figures
 */
function addPlayback(row, qoe, rcvbuf = 0) {
  const t = qoe.summary.transport;
  const split = fdspMediaLoss(qoe.segments);
  // Losses in segments with no per-segment record (none expected) count as the network's.
  const late = split ? split.deadlineLostChunks : 0;
  const p = { lost: t.lostChunks, chunks: t.unreliableChunks, late, network: t.lostChunks - late, rcvbuf };
  row.playbacks += 1;
  row.lost += p.lost;
  row.network += p.network;
  row.late += p.late;
  row.rcvbuf += p.rcvbuf;
  row.chunks += p.chunks;
  row.worst = Math.max(row.worst, p.lost);
  if (p.lost === 0) row.zeroLoss += 1;
  return p;
}

/** The rows as a Markdown table: one column per option the variants set. */
function cleanLossTable(rows) {
  const keys = rows.length ? Object.keys(rows[0].options) : [];
  const header = ['setting', ...keys.map((k) => OPTION_TITLES[k] || k), 'largest socket rb (bytes)', 'playbacks', 'with no chunk lost', 'chunks lost', 'of which network', 'of which past deadline', 'receive-buffer drops', 'worst playback', 'failed'];
  const lines = rows.map((r) => [r.setting, ...keys.map((k) => r.options[k] ?? '-'), r.socketBytes ? String(r.socketBytes) : '?', String(r.playbacks), `${r.zeroLoss} / ${r.playbacks}`, `${r.lost} / ${r.chunks}${r.chunks ? ` (${((100 * r.lost) / r.chunks).toFixed(3)} %)` : ''}`, String(r.network), String(r.late), String(r.rcvbuf), String(r.worst), String(r.failed)]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return `${[fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...lines.map(fmt)].join('\n')}\n`;
}

module.exports = { cleanLinkLoss, cleanLossTable, addPlayback, emptyRow, variantsOf, pickSettings, SETTINGS };
