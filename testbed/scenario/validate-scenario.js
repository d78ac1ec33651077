'use strict';
// A scenario file, checked and put into one normal form. Everything a run does is decided
// here, before the first browser starts: a typo in the 40th profile must not surface an hour
// into a run. Every problem is reported with its path in the file, all at once.
//
// The format (JSON or YAML; testbed/scenarios/README.md has the full reference):
//
//   name, description        text (name defaults to the file name)
//   content                  a content preset (origin/content/presets.js), built if missing
//   durationSeconds          media time at which a playback stops (default: the whole content)
//   repetitions              runs per combination (default 1)
//   timeoutSeconds           per playback (default: 3 x the expected viewing time + 120 s)
//   congestionControl        TCP congestion control in the origin's namespace (default cubic)
//   initialWindow            the origin's TCP initial window in segments (default: the kernel's,
//                            10); paper 001's kernel used 3 (testbed/netem/initial-window.js)
//   keepBitrateOnSeek        hold the pre-seek bitrate after a seek (paper 002 Table 3)
//   live                     true or {delaySeconds}: play the content as a live broadcast at that
//                            target latency (default 10 s; origin/live/, player/live/); no seeks
//   transports               [http11, http10, h2, {name: datachannel, label: fdsp-bp50, bp: 50}]
//                            names and options from the transport registry (player/transports/);
//                            plain names stay strings in the normal form; entries are objects
//   abrs                     [bba2, {name: fixed, label: q700, params: {...}, link: {...}, networks: [...]}]
//                            names and parameters from the ABR registry (player/abr/)
//                            link: profile settings this entry overrides (paper 003: rate = bitrate)
//                            networks: the only networks this entry is crossed with (paper 000
//                            Table 2: each bitrate with its own bandwidths)
//   profiles                 {name: network profile} (network-profile.js)
//   networks                 profile names crossed in the matrix (default: all profiles)
//   seekSchedules            {name: "40:100, 150:200" | [[40, 100], ...] | [{at, to}, ...]}
//   switchSchedules          {name: [{atSeconds, network, outageSeconds, newAddress}, ...]}
//   reference                the paper's own figures, shown beside ours in the report
//                            (testbed/report/paper-reference.js)
//   throughput               {seconds, sampleSeconds, requestMiB}: runs fetch an unbounded
//                            source for that long instead of playing (throughput-run.js); no
//                            content, abrs, seeks
//   competingFlows           [{label, cc, startSeconds, stopSeconds}]: bulk TCP flows through
//                            the same link beside every run (competing-flows.js)
//
// The matrix is transports x abrs x networks x seekSchedules x switchSchedules x repetitions.
// Seeks, the stop time, transport options and ABR parameters follow the same rules, with the
// same messages, as the page's URL (player/run-options.js).
const { validateProfile } = require('./network-profile');
const { abrs: abrRegistry } = require('../../player/abr');
const { transports: transportRegistry, transportOptions, transportsWithOption } = require('../../player/transports');
const options = require('../../player/run-options');
const { validateReference } = require('../report/paper-reference');
const { validateThroughput, THROUGHPUT_ABR } = require('./throughput-run');
const { validateCompetingFlows } = require('./competing-flows');
const { initialWindowProblem } = require('../netem/initial-window');

const CONGESTION_CONTROLS = require('../congestion/registry').names();
const TOP_KEYS = ['name', 'description', 'content', 'durationSeconds', 'repetitions', 'timeoutSeconds', 'congestionControl', 'initialWindow',
  'keepBitrateOnSeek', 'live', 'transports', 'abrs', 'profiles', 'networks', 'seekSchedules', 'switchSchedules', 'reference', 'throughput', 'competingFlows'];
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** live: true (the default target latency) or {delaySeconds}. @returns {{delaySeconds: number}|null} */
function parseLive(raw, problems) {
  if (raw === undefined || raw === false) return null;
  if (raw === true) return { delaySeconds: options.LIVE_DELAY_LIMITS.default };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`live must be true or {delaySeconds: N}, got ${JSON.stringify(raw)}`);
    return null;
  }
  for (const k of Object.keys(raw)) if (k !== 'delaySeconds') problems.push(`live: unknown key "${k}" (known: delaySeconds)`);
  if (raw.delaySeconds === undefined) return { delaySeconds: options.LIVE_DELAY_LIMITS.default };
  const delaySeconds = options.parseLiveDelay(raw.delaySeconds, options.inFile('live.delaySeconds'), problems);
  return delaySeconds === undefined ? null : { delaySeconds };
}

class ScenarioError extends Error {
  constructor(source, problems) {
    super(`${source}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const show = (v) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));

function parseSwitches(raw, where, profileNames, problems) {
  if (!Array.isArray(raw)) {
    problems.push(`${where} must be a list of {atSeconds, network, outageSeconds}, got ${show(raw)}`);
    return [];
  }
  const events = [];
  raw.forEach((e, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(e)) return problems.push(`${at} must be {atSeconds, network, outageSeconds}, got ${show(e)}`);
    for (const k of Object.keys(e)) if (!['atSeconds', 'network', 'outageSeconds', 'newAddress'].includes(k)) problems.push(`${at}: unknown key "${k}" (atSeconds, network, outageSeconds, newAddress)`);
    if (!(typeof e.atSeconds === 'number' && e.atSeconds >= 0)) problems.push(`${at}.atSeconds must be a number of seconds >= 0, got ${show(e.atSeconds)}`);
    if (!profileNames.includes(e.network)) problems.push(`${at}.network ${show(e.network)} is not a profile (profiles: ${profileNames.join(', ')})`);
    const outage = e.outageSeconds ?? 0;
    if (!(typeof outage === 'number' && outage >= 0)) problems.push(`${at}.outageSeconds must be a number >= 0, got ${show(e.outageSeconds)}`);
    if (e.newAddress !== undefined && typeof e.newAddress !== 'boolean') problems.push(`${at}.newAddress must be true or false`);
    if (events.length && e.atSeconds <= events[events.length - 1].atSeconds) problems.push(`${at}: switch times must increase`);
    // An interface change gives the client a new address unless the file says otherwise: that
    // is what kills TCP connections in paper 002's switches.
    events.push({ atSeconds: e.atSeconds, network: e.network, outageSeconds: outage, newAddress: e.newAddress !== false });
  });
  return events;
}

function parseAbr(raw, where, problems) {
  const entry = typeof raw === 'string' ? { name: raw } : raw;
  if (!isObject(entry)) {
    problems.push(`${where} must be an ABR name (${abrRegistry.names().join(', ')}) or {name, label, params, link}, got ${show(raw)}`);
    return null;
  }
  for (const k of Object.keys(entry)) if (!['name', 'label', 'params', 'link', 'networks'].includes(k)) problems.push(`${where}: unknown key "${k}" (name, label, params, link, networks)`);
  const abr = options.parseAbrName(entry.name, options.inFile(`${where}.name`), problems);
  const label = entry.label ?? entry.name;
  if (typeof label !== 'string' || !NAME_RE.test(label)) problems.push(`${where}.label ${show(label)} must be letters, digits, "-", "_" or "."`);
  // The player checks parameters too, but only when a playback starts: check them now.
  const params = options.parseAbrParams(abr, entry.params, options.inFile(`${where}.params`), problems);
  if (entry.link !== undefined && !isObject(entry.link)) problems.push(`${where}.link must be an object of network profile settings`);
  if (entry.networks !== undefined && !(Array.isArray(entry.networks) && entry.networks.length)) problems.push(`${where}.networks must be a non-empty list of profile names`);
  return { name: entry.name, label, params: params || {}, link: entry.link || null, networks: entry.networks || null };
}

/**
 * A transport: its registry name, or {name, label, ...its options}. Returns the normal form
 * (a plain name stays a string) and its label (given, or the name with the options it sets:
 * datachannel-bp50).
 */
function parseTransport(raw, where, problems) {
  if (typeof raw === 'string') {
    options.parseTransportName(raw, options.inFile(where), problems);
    return { normal: raw, label: raw };
  }
  if (!isObject(raw)) {
    const keys = ['name', 'label', ...transportOptions().keys()];
    problems.push(`${where} must be a transport name or {${keys.join(', ')}}, got ${show(raw)}`);
    return { normal: raw, label: null };
  }
  const transport = options.parseTransportName(raw.name, options.inFile(`${where}.name`), problems);
  const known = ['name', 'label', ...(transport ? Object.keys(transport.options) : [])];
  for (const k of Object.keys(raw)) {
    if (known.includes(k)) continue;
    const owners = transportsWithOption(k);
    if (transport && owners.length) problems.push(`${where}.${k}: only the ${owners.join(' and ')} transport${owners.length > 1 ? 's have' : ' has'} ${transportOptions().get(k).noun}`);
    else if (transport) problems.push(`${where}: unknown key "${k}" (${known.join(', ')})`);
  }
  if (raw.label !== undefined && (typeof raw.label !== 'string' || !NAME_RE.test(raw.label))) problems.push(`${where}.label ${show(raw.label)} must be letters, digits, "-", "_" or "."`);
  const values = {};
  for (const key of Object.keys(transport ? transport.options : {})) {
    if (raw[key] === undefined) continue;
    const value = options.parseTransportOption(transport, key, raw[key], options.inFile(`${where}.${key}`), problems);
    values[key] = value === undefined ? raw[key] : value;
  }
  const suffix = Object.entries(values).map(([key, v]) => `-${key}${transport.options[key].format(v).replace(/[^A-Za-z0-9.-]/g, '-')}`).join('');
  const label = raw.label ?? `${raw.name}${suffix}`;
  return { normal: { name: raw.name, label, ...values }, label };
}

function namedMap(raw, where, problems, parse) {
  if (raw === undefined) return null;
  if (!isObject(raw) || !Object.keys(raw).length) {
    problems.push(`${where} must be a map of name -> value with at least one entry`);
    return {};
  }
  const out = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!NAME_RE.test(name)) problems.push(`${where}: name "${name}" must be letters, digits, "-", "_" or "."`);
    out[name] = parse(value, `${where}.${name}`);
  }
  return out;
}

/**
 * @param {object} raw          the parsed file
 * @param {object} ctx
 * @param {string} ctx.source   file name, for messages
 * @param {string} ctx.defaultName
 * @param {(name: string) => object} ctx.getPreset  content preset lookup (throws for unknown names)
 * @param {(relPath: string) => string} [ctx.readText]  reads a trace file next to the scenario
 * @returns {object} the normalized scenario
 */
function validateScenario(raw, ctx) {
  const problems = [];
  if (!isObject(raw)) throw new ScenarioError(ctx.source, [`a scenario must be an object (a map at the top level), got ${show(raw)}`]);
  for (const k of Object.keys(raw)) if (!TOP_KEYS.includes(k)) problems.push(`unknown key "${k}" (known: ${TOP_KEYS.join(', ')})`);

  const name = raw.name ?? ctx.defaultName;
  if (typeof name !== 'string' || !NAME_RE.test(name)) problems.push(`name ${show(name)} must be letters, digits, "-", "_" or "."`);
  let preset = null;
  // A throughput run fetches /bytes for a fixed time: no content, no ABR, no seeks (it refuses them).
  const throughput = validateThroughput(raw.throughput, raw, problems);
  if (throughput) preset = null;
  else if (typeof raw.content !== 'string') problems.push(`content must name a content preset, got ${show(raw.content)}`);
  else {
    try {
      preset = ctx.getPreset(raw.content);
    } catch (err) {
      problems.push(`content: ${err.message}`);
    }
  }
  const contentSeconds = preset ? preset.durationSeconds : null;
  // The stop time, by the rules of the page URL's stop=.
  const stopAt = raw.durationSeconds === undefined || throughput ? undefined : options.parseStopTime(raw.durationSeconds, options.inFile('durationSeconds'), problems);
  const durationSeconds = throughput ? throughput.seconds : stopAt ?? contentSeconds;
  if (stopAt !== undefined && contentSeconds && durationSeconds > contentSeconds) problems.push(`durationSeconds ${durationSeconds} is longer than the content (${contentSeconds} s)`);
  const repetitions = raw.repetitions ?? 1;
  if (!(Number.isInteger(repetitions) && repetitions >= 1)) problems.push(`repetitions must be a whole number >= 1, got ${show(raw.repetitions)}`);
  if (raw.timeoutSeconds !== undefined && !(typeof raw.timeoutSeconds === 'number' && raw.timeoutSeconds > 0)) problems.push(`timeoutSeconds must be a number > 0, got ${show(raw.timeoutSeconds)}`);
  const congestionControl = raw.congestionControl ?? 'cubic';
  if (!CONGESTION_CONTROLS.includes(congestionControl)) problems.push(`congestionControl must be one of ${CONGESTION_CONTROLS.join(', ')}, got ${show(congestionControl)}`);
  const initialWindowIssue = initialWindowProblem(raw.initialWindow);
  if (initialWindowIssue) problems.push(initialWindowIssue);
  if (raw.keepBitrateOnSeek !== undefined && typeof raw.keepBitrateOnSeek !== 'boolean') problems.push('keepBitrateOnSeek must be true or false');

  const list = (key, fallback) => {
    const v = raw[key] ?? fallback;
    if (!Array.isArray(v) || !v.length) {
      problems.push(`${key} must be a non-empty list, got ${show(raw[key])}`);
      return [];
    }
    return v;
  };
  const transports = list('transports').map((t, i) => parseTransport(t, `transports[${i}]`, problems));
  const live = parseLive(raw.live, problems);
  if (live && throughput) problems.push('live: a throughput run plays no content');
  if (live) {
    (Array.isArray(raw.transports) ? raw.transports : []).forEach((t, i) => {
      const name = typeof t === 'string' ? t : t && t.name;
      if (transportRegistry.has(name)) options.checkLivePlayback({ transport: transportRegistry.get(name) }, options.inFile(`transports[${i}]`), problems);
    });
  }
  const transportLabels = transports.map((t) => t.label);
  transportLabels.forEach((l, i) => { if (l !== null && transportLabels.indexOf(l) !== i) problems.push(`transports: label "${l}" is used twice (give each entry its own label)`); });
  const abrs = throughput ? [{ ...THROUGHPUT_ABR }] : list('abrs').map((a, i) => parseAbr(a, `abrs[${i}]`, problems)).filter(Boolean);
  const labels = abrs.map((a) => a.label);
  labels.forEach((l, i) => { if (labels.indexOf(l) !== i) problems.push(`abrs: label "${l}" is used twice (give each entry its own label)`); });

  const profiles = namedMap(raw.profiles, 'profiles', problems, (v, where) => validateProfile(v, where, problems, ctx.readText)) || {};
  if (raw.profiles === undefined) problems.push('profiles must define at least one network profile');
  const profileNames = Object.keys(profiles);
  for (const a of abrs) if (a.link) a.link = validateProfile(a.link, `abrs.${a.label}.link`, problems, ctx.readText, { partial: true });
  const networks = list('networks', profileNames.length ? profileNames : undefined);
  networks.forEach((n, i) => { if (!profileNames.includes(n)) problems.push(`networks[${i}] ${show(n)} is not a profile (profiles: ${profileNames.join(', ') || 'none'})`); });
  for (const a of abrs) {
    for (const n of a.networks || []) if (!networks.includes(n)) problems.push(`abrs.${a.label}.networks: ${show(n)} is not one of the scenario's networks (${networks.join(', ')})`);
  }
  // Multipath TCP profiles (extraPaths): TCP transports only, and no address switches (the
  // client's path-1 address is an MPTCP endpoint).
  const multipath = profileNames.filter((n) => profiles[n] && profiles[n].extraPaths && networks.includes(n));
  if (multipath.length) {
    (Array.isArray(raw.transports) ? raw.transports : []).forEach((t, i) => {
      const name = typeof t === 'string' ? t : t && t.name;
      if (transportRegistry.has(name) && transportRegistry.get(name).ipProtocol !== 'tcp') {
        problems.push(`transports[${i}]: "${name}" runs over UDP, and profile${multipath.length > 1 ? 's' : ''} ${multipath.join(', ')} ${multipath.length > 1 ? 'are' : 'is'} Multipath TCP (extraPaths): use TCP transports (${transportRegistry.list().filter((x) => x.ipProtocol === 'tcp').map((x) => x.name).join(', ')}) or a profile of one path`);
      }
    });
    if (raw.switchSchedules !== undefined) problems.push(`switchSchedules cannot be combined with Multipath TCP profiles (${multipath.join(', ')}): a switch changes the client's path-1 address`);
  }
  const seekSchedules = namedMap(raw.seekSchedules, 'seekSchedules', problems, (v, where) => options.parseSeekSchedule(v, options.inFile(where), problems)) || { none: [] };
  if (live && raw.seekSchedules !== undefined) problems.push('seekSchedules: a live playback takes no seek schedule (seeks are for on-demand content)');
  // A switch reconfigures the link with the next network's settings, outages included, so the
  // two would overwrite each other's down intervals.
  const withOutages = profileNames.filter((n) => profiles[n] && profiles[n].outages && networks.includes(n));
  if (withOutages.length && raw.switchSchedules !== undefined) problems.push(`switchSchedules cannot be combined with profiles that have outages (${withOutages.join(', ')}): use a switch's outageSeconds`);
  const switchSchedules = namedMap(raw.switchSchedules, 'switchSchedules', problems, (v, where) => parseSwitches(v, where, profileNames, problems)) || { none: [] };
  if (durationSeconds) {
    for (const [n, seeks] of Object.entries(seekSchedules)) {
      for (const s of seeks) if (contentSeconds && s.to >= contentSeconds) problems.push(`seekSchedules.${n}: seek to ${s.to} s is past the content's end (${contentSeconds} s)`);
    }
  }
  const competingFlows = validateCompetingFlows(raw.competingFlows, { congestionControls: CONGESTION_CONTROLS, runSeconds: durationSeconds || null }, problems);
  if (competingFlows && raw.switchSchedules !== undefined) problems.push('competingFlows and switchSchedules cannot be combined: a switch changes the client\'s address and drops its connections, the flows\' included');
  const reference = validateReference(raw.reference, { transports: transportLabels.filter(Boolean), abrs: labels, networks, switchSchedules: raw.switchSchedules ? Object.keys(switchSchedules) : [] }, problems);
  if (problems.length) throw new ScenarioError(ctx.source, problems);
  return {
    name,
    description: raw.description || '',
    content: throughput ? null : raw.content,
    contentSeconds,
    segmentSeconds: preset ? preset.segmentSeconds : null,
    durationSeconds,
    repetitions,
    timeoutSeconds: raw.timeoutSeconds ?? null,
    congestionControl,
    // Only when given, as live below.
    ...(raw.initialWindow !== undefined ? { initialWindow: raw.initialWindow } : {}),
    keepBitrateOnSeek: raw.keepBitrateOnSeek === true,
    // Only when given, as throughput below.
    ...(live ? { live } : {}),
    transports: transports.map((t) => t.normal),
    abrs,
    profiles,
    networks,
    seekSchedules,
    switchSchedules,
    ...(reference ? { reference } : {}),
    // Only when given: a scenario.json of an earlier run must still match its scenario on resume.
    ...(throughput ? { throughput } : {}),
    ...(competingFlows ? { competingFlows } : {}),
  };
}

module.exports = { validateScenario, ScenarioError, CONGESTION_CONTROLS };
