'use strict';
// The player page. A run is defined by its URL (player/run-config.js): the form writes the
// URL, the URL starts the run, so a person and a script (Playwright) get the same playback.
// window.lab exposes the run: window.lab.qoe() is the QoE JSON, window.lab.done resolves with
// it when the run stops; window.qoe is the same JSON as a property.
const dashjs = require('dashjs');
const { startPlayback, fetchContentIndex } = require('./lab-player');
const { parseRunConfig, runConfigToSearch, parseSeekSchedule, formatSeekSchedule } = require('./run-config');
const { formChoices } = require('./ui/form-choices');
const { mountOptionControls } = require('./ui/option-controls');
const { qoeSummaryRows, segmentProtocolCell } = require('./ui/summary-rows');
// uplot's ES module build (webpack picks it) has the class as its default export.
const uPlotModule = require('uplot');

const uPlot = uPlotModule.default || uPlotModule;
const { formatValue, render: renderChart } = require('../shared/charts/lab-charts');
const { pageChartModels } = require('./ui/page-charts');

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

function renderSummary(q) {
  $('summary').tBodies[0].innerHTML = qoeSummaryRows(q).map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('');
}

function renderSegments(q) {
  const tail = q.segments.slice(-200).reverse();
  $('segments').tBodies[0].innerHTML = tail
    .map((s) => `<tr><td>${s.index ?? '-'}</td><td>${s.representationId ?? '-'}</td><td>${s.bandwidth ? Math.round(s.bandwidth / 1000) : '-'}</td><td>${s.bytes}</td>` +
      `<td>${(s.firstByte - s.requestStart).toFixed(0)}</td><td>${(s.lastByte - s.requestStart).toFixed(0)}</td>` +
      `<td>${s.throughput ? formatValue(s.throughput, 'bit/s') : '-'}</td><td>${s.bufferAfter.toFixed(1)} s</td>` +
      `<td>${segmentProtocolCell(q, s)}</td></tr>`)
    .join('');
}

// The charts (uPlot): made on the first render, then given new data; drag to zoom into a time
// range, double-click to zoom out.
const charts = [];
const CHART_SIZE = { width: 520, height: 220 };
// The emulated link's states seen so far (npm run lab: GET /api/link), oldest first.
const linkHistory = [];

function renderCharts(q) {
  const models = pageChartModels(q, { linkHistory, pageTimeOrigin: performance.timeOrigin });
  models.forEach((model, i) => {
    if (charts[i]) charts[i].update(model);
    else charts[i] = renderChart($('charts').children[i], model, uPlot, CHART_SIZE);
  });
}

/** Polls the origin for its emulated link's settings, when it has them (npm run lab). */
function followLink(info) {
  if (!info.linkState) return;
  const poll = async () => {
    try {
      const r = await fetch('/api/link', { cache: 'no-store' });
      if (!r.ok) return;
      const state = await r.json();
      const last = linkHistory[linkHistory.length - 1];
      if (!last || last.clockOriginWallMs !== state.clockOriginWallMs) linkHistory.push(state);
    } catch {
      // The page goes on without the link's rate.
    }
  };
  poll();
  setInterval(poll, 2000);
}

function render(q) {
  renderSummary(q);
  renderSegments(q);
  renderCharts(q);
}

async function main() {
  window.lab = { state: 'idle', errors: [], run: null, qoe: () => null, done: null };
  Object.defineProperty(window, 'qoe', { get: () => window.lab.qoe(), configurable: true });

  let config;
  let badUrl = false;
  try {
    config = parseRunConfig(location.search);
  } catch (err) {
    showError(`bad URL parameter: ${err.message}`);
    badUrl = true;
    config = parseRunConfig('');
  }
  const info = await (await fetch('/api/info', { cache: 'no-store' })).json();
  window.lab.info = info;
  followLink(info);
  const contentNames = info.content.map((c) => c.name);
  if (!contentNames.includes(config.content) && contentNames.length) contentNames.unshift(config.content);
  fillSelect($('content'), contentNames.map((n) => [n, n]), config.content);
  const choices = formChoices();
  const defaultsFor = (abr) => (choices.abrs.find((a) => a.value === abr) || { defaults: {} }).defaults;
  fillSelect($('transport'), choices.transports.map((t) => [t.value, t.label]), config.transport);
  fillSelect($('abr'), choices.abrs.map((a) => [a.value, a.label]), config.abr);
  $('params').value = JSON.stringify({ ...defaultsFor(config.abr), ...(config.abrParams || {}) });
  $('seeks').value = formatSeekSchedule(config.seeks);
  $('stop').value = config.stopAt || '';
  $('keep').checked = config.keepBitrateOnSeek;
  $('live').checked = config.live;
  $('live-delay').value = config.liveDelay || '';
  // The selected transport's options (the DataChannel's BP slider), from the registry.
  const optionControls = mountOptionControls({ document, $, choices, config, getRun: () => window.lab.run });
  optionControls.show($('transport').value);
  $('transport').addEventListener('change', () => optionControls.show($('transport').value));
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
        live: $('live').checked,
        liveDelay: $('live-delay').value ? Number($('live-delay').value) : undefined,
        ...optionControls.values($('transport').value),
        abrParams,
        autostart: true,
      };
      location.search = runConfigToSearch(next);
    } catch (err) {
      showError(err.message);
    }
  });

  // A script that asked to start a run it named wrongly gets a failed run at once, not a page
  // waiting for a person (the form shows the defaults and the message says what was wrong).
  const asked = new URLSearchParams(location.search).get('autostart');
  if (badUrl && (asked === '1' || asked === 'true')) {
    window.lab.state = 'error';
    return;
  }
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
      certSha256Hex: info.certSha256Hex,
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
      // A player that died (dash.js gave up on a media error) is a failed run, said why.
      if (run.fatal()) {
        window.lab.state = 'error';
        showError(`the player stopped: ${run.fatal()}`);
      } else window.lab.state = 'done';
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
