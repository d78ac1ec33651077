'use strict';
// What a transport registry entry is (player/transports/index.js lists them; each built-in
// one is a file in entries/). The transport object it creates implements transport.js's
// interface; the entry says everything else the lab needs to offer it and report on it:
//
//   name            the stable id: URL ?transport=, a scenario's transports list, results.csv
//   label           what the page's transport menu shows
//   urlKey          the key of the origin's GET /api/info `urls` naming the listener this
//                   transport talks to (default: name); ties a transport to an origin listener
//   options         {key: option} the run options it takes. key is the URL parameter
//                   (?bp=50), the key in a scenario's transport entry ({name, bp: 50}), the
//                   column in results.csv and the key in the page's run config. An option:
//                     title    what it is ("Bitstream Prioritization"), for messages and the page
//                     noun     "a BP": "only the datachannel transport has a BP"
//                     help     one line for docs and the page
//                     default  its value when not given
//                     control  the page's control: 'text' (default) or one the page has its own
//                              code for ('bp-slider')
//                     parse(raw, where, problems) -> value   raw is URL text or a YAML value;
//                              pushes problems (see player/run-options.js for `where`)
//                     format(value) -> text                  for the URL and scenario labels
//   create(url, options, context) -> transport
//                   url: urls[urlKey]; options: its options (defaults filled in); context:
//                   {bufferLevel() -> seconds buffered} for transports with playout deadlines,
//                   stallState() (the player's stalls), nextSegmentUrl(url) -> url|null (the
//                   next segment of that representation, for FDSP's substream overlapping),
//                   highestBandwidthBps (the content's highest representation), certSha256Hex
//                   (the origin certificate's SHA-256, GET /api/info)
//   configFields(transport) -> {}     optional: added to the QoE JSON's config (the BP in force)
//   segmentFields   optional: accounting fields copied into each entry of the segment log
//   segmentNote(segment) -> text      optional: appended to the page's segment log row
//   summaryRows(qoe) -> [[label, text]]  optional: rows the page's QoE table adds
//   progressNote(summary) -> text|null   optional: what the runner's progress line adds
//   resultColumns   optional: [{name, unit, get(record), metric?}] columns results.csv adds;
//                   metric {label, unit, scale, digits, bar} puts the column in the report as a
//                   table (and a bar chart when bar is true)
//   reportNote(record) -> text|null  optional: a sentence the report prints once for the
//                   playbacks it concerns (a congestion control that is not TCP-friendly)
//   ipProtocol      'tcp' (default) or 'udp': what carries it on the wire; a Multipath TCP
//                   network profile (extraPaths) takes TCP transports only
//   liveRefusal     optional: why this transport cannot play a live broadcast (the origin's
//                   /live/ route, origin/live/); a run asking for live with it is refused
//                   with this reason. Absent: it plays live as it plays on demand
//   chromiumArgs(info) -> [flag]     optional: Chromium flags this transport needs to reach the
//                   origin described by info (its ready line or GET /api/info: urls,
//                   spkiSha256, ...); the launcher passes them when info.urls has its urlKey

// Names a transport option cannot take: the run's own URL parameters and page config, a
// scenario's transport entry keys, and the fields of a planned playback and its record (an
// option is a field of those too: testbed/scenario/expand-matrix.js).
const RESERVED_OPTION_KEYS = new Set(['content', 'transport', 'abr', 'seeks', 'stop', 'keep', 'params', 'autostart', 'hold',
  'stopAt', 'keepBitrateOnSeek', 'live', 'liveDelay', 'liveDelaySeconds', 'abrParams', 'name', 'label', 'id', 'scenario', 'transportName', 'transportOptions',
  'abrName', 'network', 'networkDescription', 'profile', 'seekSchedule', 'switchSchedule', 'switches', 'repetition',
  'durationSeconds', 'expectedSeconds', 'timeoutSeconds', 'status', 'error', 'summary', 'metrics', 'qoe', 'counters',
  'origin', 'emulated', 'playerConfig', 'wallSeconds']);
const OPTION_KEY_RE = /^[a-z][A-Za-z0-9]*$/;

function fail(name, message) {
  throw new TypeError(`transport "${name}": ${message}`);
}

function normalizeOption(name, key, o) {
  if (!OPTION_KEY_RE.test(key)) fail(name, `option name "${key}" must be a letter followed by letters or digits`);
  if (RESERVED_OPTION_KEYS.has(key)) fail(name, `option name "${key}" is taken by the run itself`);
  if (!o || typeof o.parse !== 'function') fail(name, `option "${key}" needs parse(raw, where, problems)`);
  if (typeof o.title !== 'string' || !o.title) fail(name, `option "${key}" needs a title`);
  return Object.freeze({ control: 'text', noun: `the option "${key}"`, help: '', format: (v) => String(v), ...o, key });
}

function normalizeColumn(name, c) {
  if (!c || typeof c.name !== 'string' || typeof c.get !== 'function') fail(name, 'each result column needs a name and get(record)');
  return Object.freeze({ unit: '', ...c });
}

/** Checks an entry against the contract above; returns its frozen, complete form. */
function normalizeTransport(raw) {
  const { name } = raw;
  if (typeof raw.label !== 'string' || !raw.label) fail(name, 'needs a label');
  if (typeof raw.create !== 'function') fail(name, 'needs create(url, options, context)');
  const options = Object.freeze(Object.fromEntries(Object.entries(raw.options || {}).map(([k, o]) => [k, normalizeOption(name, k, o)])));
  if (raw.ipProtocol !== undefined && !['tcp', 'udp'].includes(raw.ipProtocol)) fail(name, 'ipProtocol must be "tcp" or "udp"');
  if (raw.liveRefusal !== undefined && (typeof raw.liveRefusal !== 'string' || !raw.liveRefusal)) fail(name, 'liveRefusal must be a sentence saying why it cannot play live');
  for (const f of ['configFields', 'segmentNote', 'summaryRows', 'progressNote', 'reportNote', 'chromiumArgs']) {
    if (raw[f] !== undefined && typeof raw[f] !== 'function') fail(name, `${f} must be a function`);
  }
  return Object.freeze({
    name,
    label: raw.label,
    urlKey: raw.urlKey || name,
    options,
    create: raw.create,
    configFields: raw.configFields || (() => ({})),
    segmentFields: Object.freeze([...(raw.segmentFields || [])]),
    segmentNote: raw.segmentNote || (() => ''),
    summaryRows: raw.summaryRows || (() => []),
    progressNote: raw.progressNote || (() => null),
    resultColumns: Object.freeze((raw.resultColumns || []).map((c) => normalizeColumn(name, c))),
    reportNote: raw.reportNote || (() => null),
    chromiumArgs: raw.chromiumArgs || (() => []),
    liveRefusal: raw.liveRefusal || null,
    ipProtocol: raw.ipProtocol || 'tcp',
  });
}

/**
 * Two transports may not both claim an option or a result column under one name unless it is
 * the same definition (one shared option module): a URL parameter and a CSV column have one
 * meaning.
 */
function checkAgainstRegistered(entry, registry) {
  for (const other of registry.list()) {
    for (const key of Object.keys(entry.options)) {
      if (other.options[key] && other.options[key].parse !== entry.options[key].parse) fail(entry.name, `option "${key}" is already defined differently by transport "${other.name}"`);
    }
    for (const c of entry.resultColumns) {
      const same = other.resultColumns.find((x) => x.name === c.name);
      if (same && same.get !== c.get) fail(entry.name, `result column "${c.name}" is already defined by transport "${other.name}"`);
    }
  }
}

module.exports = { normalizeTransport, checkAgainstRegistered, RESERVED_OPTION_KEYS };
