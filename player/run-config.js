'use strict';
// A playback's configuration as URL parameters, so every run (by a person or a script) is
// named by a URL that reproduces it: ?content=sample&transport=h2&abr=bba2&seeks=40:100,150:200
// &stop=120&keep=1&params={"bufferSizeSeconds":20}&autostart=1 (&hold=1: wait for window.lab.go())
// plus each transport option by its key (&bp=50 for the DataChannel); &live=1&liveDelay=10 plays
// the content as a live broadcast at a 10 s target latency (player/live/). The values are parsed by
// player/run-options.js, by the same rules as a scenario file's.
const { transports, transportOptions } = require('./transports');
const options = require('./run-options');

const DEFAULTS = { content: 'sample', transport: 'http11', abr: 'dashjs', autostart: false };
const SEEKS = options.inUrl('seeks', { itemNoun: 'seek' });

/** "40:100, 150:200" -> [{at: 40, to: 100}, {at: 150, to: 200}]; throws naming the bad seek. */
function parseSeekSchedule(text) {
  const problems = [];
  const seeks = options.parseSeekSchedule(text, SEEKS, problems);
  options.throwIfAny(problems);
  return seeks;
}

const given = (p, key) => p.get(key) !== null && p.get(key) !== '';
const flag = (p, key) => p.get(key) === '1' || p.get(key) === 'true';

/** URLSearchParams -> run configuration; throws with the offending parameters named. */
function parseRunConfig(search) {
  const p = new URLSearchParams(search);
  const problems = [];
  const config = { ...DEFAULTS };
  if (given(p, 'content')) config.content = p.get('content');
  if (given(p, 'transport')) {
    config.transport = p.get('transport');
    options.parseTransportName(config.transport, options.inUrl('transport'), problems);
  }
  if (given(p, 'abr')) config.abr = p.get('abr');
  const abr = options.parseAbrName(config.abr, options.inUrl('abr'), problems);
  config.seeks = options.parseSeekSchedule(p.get('seeks'), SEEKS, problems);
  if (given(p, 'stop')) config.stopAt = options.parseStopTime(p.get('stop'), options.inUrl('stop'), problems);
  config.keepBitrateOnSeek = flag(p, 'keep');
  config.live = flag(p, 'live');
  if (given(p, 'liveDelay')) {
    const delay = options.parseLiveDelay(p.get('liveDelay'), options.inUrl('liveDelay'), problems);
    if (delay !== undefined) config.liveDelay = delay;
  }
  if (config.live) {
    const transport = transports.has(config.transport) ? transports.get(config.transport) : null;
    options.checkLivePlayback({ transport, seeks: config.seeks }, options.inUrl('live'), problems);
  }
  // Every registered transport's options: a URL's parameters are one namespace, so an option of
  // another transport than the chosen one is checked by its own rules and kept (it does nothing).
  for (const [key, option] of transportOptions()) {
    if (!given(p, key)) continue;
    const problemsBefore = problems.length;
    const value = option.parse(p.get(key), options.inUrl(key, { title: option.title }), problems);
    if (problems.length === problemsBefore) config[key] = value;
  }
  config.autostart = flag(p, 'autostart');
  // hold: load everything, then wait for window.lab.go() (the QoE runner snapshots the link's
  // counters and starts its schedules between the page load and the playback).
  config.hold = flag(p, 'hold');
  if (given(p, 'params')) config.abrParams = options.parseAbrParams(abr, p.get('params'), options.inUrl('params'), problems);
  options.throwIfAny(problems);
  return config;
}

function runConfigToSearch(config) {
  const p = new URLSearchParams();
  p.set('content', config.content);
  p.set('transport', config.transport);
  p.set('abr', config.abr);
  if (config.seeks && config.seeks.length) p.set('seeks', options.formatSeekSchedule(config.seeks));
  if (config.stopAt) p.set('stop', String(config.stopAt));
  if (config.keepBitrateOnSeek) p.set('keep', '1');
  if (config.live) p.set('live', '1');
  if (config.live && config.liveDelay) p.set('liveDelay', String(config.liveDelay));
  for (const [key, option] of transportOptions()) if (config[key] !== undefined && config[key] !== null) p.set(key, option.format(config[key]));
  if (config.abrParams && Object.keys(config.abrParams).length) p.set('params', JSON.stringify(config.abrParams));
  if (config.autostart) p.set('autostart', '1');
  if (config.hold) p.set('hold', '1');
  return `?${p.toString()}`;
}

module.exports = { parseRunConfig, runConfigToSearch, parseSeekSchedule, formatSeekSchedule: options.formatSeekSchedule, DEFAULTS };
