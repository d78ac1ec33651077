'use strict';
// The report's table of what BP sends reliably in the run's content (content-shares.json, written
// by FDSP runs): per rung its I-slice share, I-frames per 30 s, and per BP the reliable share of
// bytes / of 1100-byte packets. It says how much BP could change in this content: only the
// I-slice data moves (paper 000's clips had 37 and 5 I-frames in 30 s).
const fs = require('node:fs');
const path = require('node:path');

const CAPTION = 'What FDSP sends reliably at each BP in this content: the share of its bytes / of its 1100-byte packets (reliable bytes packed together, unreliable cut per range, as the sender does). BP moves only the I-slice data; the rest of the reliable part is container, parameter sets, SEI and slice headers.';

function readContentShares(runDir) {
  const file = path.join(runDir, 'content-shares.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
}

const pct = (x) => `${(100 * x).toFixed(1)} %`;

function rows(shares) {
  const bps = shares.representations[0].byBp.map((b) => b.bp);
  const header = ['rung', 'I-slice data', 'I-frames / 30 s', ...bps.map((bp) => `BP ${bp}`)];
  const body = shares.representations.map((r) => [
    `${Math.round(r.bandwidth / 1000)} kbit/s ${r.height}p`, pct(r.iSliceBytesShare), r.iFramesPer30Seconds.toFixed(1),
    ...r.byBp.map((b) => `${pct(b.bytesShare)} / ${pct(b.packetsShare)}`),
  ]);
  return { header, body };
}

/** Markdown lines, or [] without shares. */
function contentSharesMarkdown(shares) {
  if (!shares || !shares.representations.length) return [];
  const { header, body } = rows(shares);
  return [`## Reliable share per BP (content ${shares.content})`, '', CAPTION, '',
    `| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...body.map((r) => `| ${r.join(' | ')} |`), ''];
}

/** An HTML section, or '' without shares. `esc` escapes text. */
function contentSharesHtml(shares, esc) {
  if (!shares || !shares.representations.length) return '';
  const { header, body } = rows(shares);
  return `<h2>Reliable share per BP (content ${esc(shares.content)})</h2>
<p class="note">${esc(CAPTION)}</p>
<table><tr>${header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${body.map((r) => `<tr><th>${esc(r[0])}</th>${r.slice(1).map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</table>`;
}

module.exports = { readContentShares, contentSharesMarkdown, contentSharesHtml };
