'use strict';
// The player page. A run is defined by its URL (player/run-config.js): the form writes the
// URL, the URL starts the run, so a person and a script (Playwright) get the same playback.
// window.lab exposes the run: window.lab.qoe() is the QoE JSON, window.lab.done resolves with
// it when the run stops; window.qoe is the same JSON as a property.
const dashjs = require('dashjs');
const { startPlayback, fetchContentIndex } = require('./lab-player');
const { parseRunConfig, runConfigToSearch, parseSeekSchedule, formatSeekSchedule } = require('./run-config');
const { TRANSPORTS } = require('./transports');
const { ALGORITHMS } = require('./abr');
const { drawLineChart, formatValue } = require('./ui/line-chart');
const { fdspMediaLoss } = require('../shared/qoe/fdsp-media-loss');

const $ = (id) => document.getElementById(id);

function showError(message) {
  $('error').textContent = message;
  $('error').hidden = false;
  window.lab.errors.push(message);
}

function fillSelect(select, entries, value) {
  select.innerHTML = '';
  for (const [key, label] of entries) {
    const opt = document.createElement('option');
    opt.value = key;
    opt.textContent = label;
    select.appendChild(opt);
  }
  select.value = value;
}

function defaultsFor(abr) {
  return ALGORITHMS[abr] ? ALGORITHMS[abr].defaults : {};
}

function renderSummary(q) {
  const s = q.summary;
  const sec = (v) => (v === null || v === undefined ? '-' : `${v.toFixed(2)} s`);
  const rows = [
    ['state', s.state],
    ['startup delay', sec(s.startupDelaySeconds)],
    ['played', sec(s.playSeconds)],
    ['rebuffers', `${s.rebufferInstances} (${sec(s.rebufferSeconds)})`],
    ['rebuffer rate', `${(100 * s.rebufferRate).toFixed(2)} %`],
    ['seeks / mean wait', `${s.seeks.length} / ${sec(s.meanSeekWaitSeconds)}`],
    ['avg playback bitrate', s.averagePlaybackBitrate ? formatValue(s.averagePlaybackBitrate, 'bps') : '-'],
    ['avg downloaded bitrate', s.averageDownloadedBitrate ? formatValue(s.averageDownloadedBitrate, 'bps') : '-'],
    ['switches', `${s.switchCount} (mean ${formatValue(s.switchMagnitudeMean, 'bps')})`],
    ['frames decoded / dropped', `${s.decodedFrames ?? '-'} / ${s.droppedFrames ?? '-'}`],
    ['bytes per transport', Object.entries(s.bytesPerTransport).map(([k, v]) => `${k}: ${(v / 1e6).toFixed(2)} MB`).join(', ') || '-'],
    ['protocols (Resource Timing)', Object.keys(s.protocols).join(', ') || '-'],
    ['errors', String(s.errors)],
  ];
  const t = s.transport;
  if (t && t.plr !== undefined) {
    const m = fdspMediaLoss(q.segments);
    rows.push(
      ['FDSP: BP now', `${t.bp} %${t.autoBp ? ` (dynamic, ${t.autoBp.minBp}-${t.autoBp.maxBp})` : ''}`],
      ['FDSP: PLR (lost / all packets)', `${(100 * t.plr).toFixed(2)} % (${t.lostChunks} / ${t.packets})`],
      ['FDSP: unreliable chunks lost', `${(100 * t.unreliableLossRatio).toFixed(2)} % (${t.lostChunks} / ${t.unreliableChunks})`],
      ['FDSP: late chunks / deadline stops', `${t.lateChunks} / ${t.deadlineStops}`],
      ['FDSP: PLR of segments waited for in full (the network\'s part)', m && m.networkPlr !== null ? `${(100 * m.networkPlr).toFixed(2)} % (${m.networkLostChunks} / ${m.networkPackets})` : '-'],
      ['FDSP: reliable share of bytes', t.reliableShare === null ? '-' : `${(100 * t.reliableShare).toFixed(1)} %`],
    );
  }
  $('summary').tBodies[0].innerHTML = rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('');
}

function renderSegments(q) {
  const tail = q.segments.slice(-200).reverse();
  $('segments').tBodies[0].innerHTML = tail
    .map((s) => `<tr><td>${s.index ?? '-'}</td><td>${s.representationId ?? '-'}</td><td>${s.bandwidth ? Math.round(s.bandwidth / 1000) : '-'}</td><td>${s.bytes}</td>` +
      `<td>${(s.firstByte - s.requestStart).toFixed(0)}</td><td>${(s.lastByte - s.requestStart).toFixed(0)}</td>` +
      `<td>${s.throughput ? formatValue(s.throughput, 'bps') : '-'}</td><td>${s.bufferAfter.toFixed(1)} s</td>` +
      `<td>${s.protocol}${s.plr !== undefined ? ` (BP ${s.bp}, PLR ${(100 * s.plr).toFixed(1)} %)` : ''}</td></tr>`)
    .join('');
}

function render(q) {
  renderSummary(q);
  renderSegments(q);
  const t0 = q.timeline.length ? q.timeline[0].t : 0;
  const rel = (series) => series.map(([t, v]) => [(t - t0) / 1000, v]);
  const tMax = q.bufferSeries.length ? (q.bufferSeries[q.bufferSeries.length - 1][0] - t0) / 1000 : 1;
  drawLineChart($('buffer-chart'), rel(q.bufferSeries), { label: 'buffer level over time (s)', unit: 's', tMin: 0, tMax });
  drawLineChart($('bitrate-chart'), rel(q.bitrateSeries), { label: 'rendered bitrate over time', unit: 'bps', step: true, color: '#2e7d32', tMin: 0, tMax });
}

async function main() {
  window.lab = { state: 'idle', errors: [], run: null, qoe: () => null, done: null };
  Object.defineProperty(window, 'qoe', { get: () => window.lab.qoe(), configurable: true });

  let config;
  try {
    config = parseRunConfig(location.search);
  } catch (err) {
    showError(`bad URL parameter: ${err.message}`);
    config = parseRunConfig('');
  }
  const info = await (await fetch('/api/info', { cache: 'no-store' })).json();
  window.lab.info = info;
  const contentNames = info.content.map((c) => c.name);
  if (!contentNames.includes(config.content) && contentNames.length) contentNames.unshift(config.content);
  fillSelect($('content'), contentNames.map((n) => [n, n]), config.content);
  fillSelect($('transport'), Object.entries(TRANSPORTS).map(([k, t]) => [k, t.label]), config.transport);
  fillSelect($('abr'), [['dashjs', 'dash.js default (baseline)'], ...Object.entries(ALGORITHMS).map(([k, a]) => [k, a.label])], config.abr);
  $('params').value = JSON.stringify({ ...defaultsFor(config.abr), ...(config.abrParams || {}) });
  $('seeks').value = formatSeekSchedule(config.seeks);
  $('stop').value = config.stopAt || '';
  $('keep').checked = config.keepBitrateOnSeek;
  const autoBp = typeof config.bp === 'string';
  $('bp-auto').checked = autoBp;
  $('bp').value = String(autoBp ? 50 : config.bp ?? 100);
  const showBp = () => {
    $('bp-label').hidden = $('transport').value !== 'datachannel';
    $('bp-value').textContent = `${$('bp').value} %`;
  };
  showBp();
  $('transport').addEventListener('change', showBp);
  // BP changes live: the next segment requested uses it (no restart needed). Moving the
  // slider takes over from dynamic BP.
  $('bp').addEventListener('input', () => {
    showBp();
    const run = window.lab.run;
    if (run && run.transport && run.transport.setBp) {
      $('bp-auto').checked = false;
      run.transport.setAutoBp(null);
      run.transport.setBp(Number($('bp').value));
    }
  });
  $('bp-auto').addEventListener('change', () => {
    const run = window.lab.run;
    if (run && run.transport && run.transport.setAutoBp) run.transport.setAutoBp($('bp-auto').checked ? { minBp: 0, maxBp: 100 } : null);
  });
  $('abr').addEventListener('change', () => {
    $('params').value = JSON.stringify(defaultsFor($('abr').value));
  });

  $('config').addEventListener('submit', (e) => {
    e.preventDefault();
    try {
      const defaults = defaultsFor($('abr').value);
      const given = $('params').value.trim() ? JSON.parse($('params').value) : {};
      // Only what differs from the defaults goes into the URL, so the URL stays readable.
      const abrParams = Object.fromEntries(Object.entries(given).filter(([k, v]) => JSON.stringify(defaults[k]) !== JSON.stringify(v)));
      const next = {
        content: $('content').value,
        transport: $('transport').value,
        abr: $('abr').value,
        seeks: parseSeekSchedule($('seeks').value),
        stopAt: $('stop').value ? Number($('stop').value) : undefined,
        keepBitrateOnSeek: $('keep').checked,
        bp: $('transport').value !== 'datachannel' ? undefined : $('bp-auto').checked ? 'auto' : Number($('bp').value),
        abrParams,
        autostart: true,
      };
      location.search = runConfigToSearch(next);
    } catch (err) {
      showError(err.message);
    }
  });

  if (!config.autostart) {
    window.lab.state = 'ready';
    return;
  }
  let index;
  try {
    // Before the hold: a testbed run shapes the link when the page is held, and the index is the
    // lab's metadata, not streaming. Fetched after, it delayed the player's start and counted as
    // protocol overhead (277 KB took 22 s at paper 003's 100 kbit/s, 32 of a reported 37 %).
    index = await fetchContentIndex(config.content);
  } catch (err) {
    window.lab.state = 'error';
    showError(err.message);
    return;
  }
  if (config.hold) {
    window.lab.state = 'held';
    await new Promise((resolve) => { window.lab.go = resolve; });
  }
  window.lab.state = 'starting';
  try {
    const run = await startPlayback({
      dashjs,
      video: $('video'),
      urls: info.urls,
      index,
      ...config,
      onUpdate: (recorder) => {
        if (recorder.errors.length && $('error').hidden) showError(recorder.errors.map((x) => x.message).join('\n'));
      },
    });
    window.lab.run = run;
    window.lab.state = 'running';
    window.lab.qoe = () => run.qoe();
    window.lab.done = run.ended.then((q) => {
      window.lab.state = 'done';
      render(q);
      return q;
    });
    $('download').disabled = false;
    $('download').onclick = () => {
      const blob = new Blob([JSON.stringify(run.qoe(), null, 2)], { type: 'application/json' });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `qoe-${config.content}-${config.transport}-${config.abr}-${Date.now()}.json`;
      a.click();
    };
    const timer = setInterval(() => {
      if (window.lab.state === 'done') clearInterval(timer);
      else render(run.qoe());
    }, 1000);
  } catch (err) {
    window.lab.state = 'error';
    showError(err.message);
  }
}

main().catch((err) => showError(err.stack || err.message));
