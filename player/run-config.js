'use strict';
// A playback's configuration as URL parameters, so every run (by a person or a script) is
// named by a URL that reproduces it: ?content=sample&transport=h2&abr=bba2&seeks=40:100,150:200
// &stop=120&keep=1&params={"bufferSizeSeconds":20}&autostart=1 (&hold=1: wait for window.lab.go())

const { parseAutoBp } = require('./transports/bp-controller');

const DEFAULTS = { content: 'sample', transport: 'http11', abr: 'dashjs', autostart: false };

/** "40:100, 150:200" -> [{at: 40, to: 100}, {at: 150, to: 200}] */
function parseSeekSchedule(text) {
  if (!text || !text.trim()) return [];
  return text.split(',').map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(?::|->)\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!m) throw new Error(`seek "${part.trim()}" is not "AT:TO" in media seconds, e.g. 40:100`);
    return { at: Number(m[1]), to: Number(m[2]) };
  });
}

function formatSeekSchedule(seeks) {
  return seeks.map((s) => `${s.at}:${s.to}`).join(', ');
}

/** URLSearchParams -> run configuration; throws with the offending parameter named. */
function parseRunConfig(search) {
  const p = new URLSearchParams(search);
  const config = { ...DEFAULTS };
  for (const key of ['content', 'transport', 'abr']) if (p.get(key)) config[key] = p.get(key);
  config.seeks = parseSeekSchedule(p.get('seeks'));
  if (p.get('stop') !== null && p.get('stop') !== '') {
    config.stopAt = Number(p.get('stop'));
    if (!(config.stopAt > 0)) throw new Error(`stop must be a positive media time in seconds, got "${p.get('stop')}"`);
  }
  config.keepBitrateOnSeek = p.get('keep') === '1' || p.get('keep') === 'true';
  if (p.get('bp') !== null && p.get('bp') !== '') {
    const text = p.get('bp');
    // "auto" or "auto:25-75": dynamic BP (player/transports/bp-controller.js)
    let auto = null;
    try {
      auto = parseAutoBp(text);
    } catch (err) {
      throw new Error(`bp: ${err.message}`);
    }
    config.bp = auto ? text : Number(text);
    if (!auto && !(config.bp >= 0 && config.bp <= 100)) throw new Error(`bp (Bitstream Prioritization) must be 0-100, "auto" or "auto:MIN-MAX", got "${text}"`);
  }
  config.autostart = p.get('autostart') === '1' || p.get('autostart') === 'true';
  // hold: load everything, then wait for window.lab.go() (the QoE runner snapshots the link's
  // counters and starts its schedules between the page load and the playback).
  config.hold = p.get('hold') === '1' || p.get('hold') === 'true';
  if (p.get('params')) {
    try {
      config.abrParams = JSON.parse(p.get('params'));
    } catch (err) {
      throw new Error(`params must be JSON, e.g. {"bufferSizeSeconds":20}: ${err.message}`);
    }
    if (!config.abrParams || typeof config.abrParams !== 'object' || Array.isArray(config.abrParams)) throw new Error('params must be a JSON object');
  }
  return config;
}

function runConfigToSearch(config) {
  const p = new URLSearchParams();
  p.set('content', config.content);
  p.set('transport', config.transport);
  p.set('abr', config.abr);
  if (config.seeks && config.seeks.length) p.set('seeks', formatSeekSchedule(config.seeks));
  if (config.stopAt) p.set('stop', String(config.stopAt));
  if (config.keepBitrateOnSeek) p.set('keep', '1');
  if (config.bp !== undefined && config.bp !== null) p.set('bp', String(config.bp));
  if (config.abrParams && Object.keys(config.abrParams).length) p.set('params', JSON.stringify(config.abrParams));
  if (config.autostart) p.set('autostart', '1');
  if (config.hold) p.set('hold', '1');
  return `?${p.toString()}`;
}

module.exports = { parseRunConfig, runConfigToSearch, parseSeekSchedule, formatSeekSchedule, DEFAULTS };
