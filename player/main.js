'use strict';
// The player page: stock dash.js playing the MPD named in ?mpd= (default: the sample).
// window.lab exposes the same status the page shows, so scripted runs read what a person sees.
const dashjs = require('dashjs');

const DEFAULT_MPD = '/content/sample/manifest.mpd';
const $ = (id) => document.getElementById(id);

// Which protocol really carried the responses (h2, http/1.1): read from Resource Timing, not
// assumed from the URL scheme.
function protocolsSeen() {
  const seen = new Set();
  for (const entry of performance.getEntriesByType('resource')) {
    if (entry.nextHopProtocol) seen.add(entry.nextHopProtocol);
  }
  return [...seen];
}

function start() {
  const params = new URLSearchParams(location.search);
  const mpd = params.get('mpd') || DEFAULT_MPD;
  $('mpd').value = mpd;
  const status = {
    mpd,
    state: 'loading',
    error: null,
    playingAt: null,
    startedAt: performance.now(),
    protocols: [],
    representation: null,
  };
  window.lab = { status };

  const video = $('video');
  const player = dashjs.MediaPlayer().create();
  window.lab.player = player;
  const E = dashjs.MediaPlayer.events;
  player.on(E.ERROR, (e) => {
    status.state = 'error';
    status.error = (e && e.error && (e.error.message || e.error.code)) || String(e);
    $('error').textContent = `dash.js error: ${status.error}`;
    $('error').hidden = false;
  });
  player.on(E.PLAYBACK_PLAYING, () => {
    if (status.playingAt === null) status.playingAt = performance.now();
    status.state = 'playing';
  });
  player.on(E.PLAYBACK_WAITING, () => { status.state = 'waiting'; });
  player.on(E.QUALITY_CHANGE_RENDERED, (e) => {
    const rep = e.newRepresentation;
    if (rep) status.representation = { id: rep.id, bandwidth: rep.bandwidth, width: rep.width, height: rep.height };
  });
  player.initialize(video, mpd, true);

  setInterval(() => {
    status.protocols = protocolsSeen();
    status.currentTime = video.currentTime;
    status.bufferSeconds = player.getBufferLength('video');
    $('protocol').textContent = status.protocols.join(', ') || '-';
    $('state').textContent = status.state;
    $('time').textContent = video.currentTime.toFixed(1);
    $('buffer').textContent = Number.isFinite(status.bufferSeconds) ? status.bufferSeconds.toFixed(1) : '-';
    const r = status.representation;
    $('representation').textContent = r ? `${r.id}: ${Math.round(r.bandwidth / 1000)} kbps ${r.width}x${r.height}` : '-';
  }, 250);
}

$('source').addEventListener('submit', (e) => {
  e.preventDefault();
  const url = new URL(location.href);
  url.searchParams.set('mpd', $('mpd').value);
  location.href = url.toString();
});

start();
