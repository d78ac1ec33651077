'use strict';
// The WebTransport transport's options (carrier, cc, fixedMargin, pace) from a page URL and from a
// scenario file, by one set of rules; the sessions they turn into (webtransport-carriers.js:
// the CONNECT URLs the QUIC server reads its congestion controller from); and the Chromium
// flags the registry gives the launcher for an origin with HTTP/3 and WebTransport.
const { parseRunConfig, runConfigToSearch } = require('../../player/run-config');
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { expandMatrix } = require('../../testbed/scenario/expand-matrix');
const { transports, chromiumArgsFor, createTransport } = require('../../player/transports');
const { planCarriers, describePlan, fixedRateKbps, newPairToken } = require('../../player/transports/webtransport-carriers');
const { WebTransportTransport } = require('../../player/transports/webtransport-transport');
const { hexToBytes } = require('../../player/transports/webtransport-browser-session');
const { urlMessage, fileMessages, SCENARIO_CONTEXT: ctx, VALID_SCENARIO: base } = require('../support/run-option-refusals');

const fileProblems = (transportsList) => fileMessages({ transports: transportsList });
const URL_BASE = 'https://127.0.0.1:8444/fdsp';
const defaults = { carrier: 'single', cc: 'cubic', fixedMargin: 1.2 };
const CERT = 'ab'.repeat(32);

test('the page URL carries the options, and a URL written from a config reads back the same', () => {
  const config = parseRunConfig('?transport=webtransport&carrier=split&cc=bbr&fixedMargin=1.5&bp=0');
  expect(config).toMatchObject({ transport: 'webtransport', carrier: 'split', cc: 'bbr', fixedMargin: 1.5, bp: 0 });
  expect(parseRunConfig(runConfigToSearch({ ...config, autostart: true }))).toMatchObject({ carrier: 'split', cc: 'bbr', fixedMargin: 1.5, bp: 0 });
  // Absent: the defaults are the entry's, filled in when the transport is made.
  expect(parseRunConfig('?transport=webtransport').carrier).toBeUndefined();
  expect(Object.fromEntries(Object.entries(transports.get('webtransport').options).map(([k, o]) => [k, o.default]))).toEqual({ bp: 100, mode: 'fdsp', pace: 1.5, ...defaults });
  // The datagrams' pace is the DataChannel's option (pace-option.js), read from the URL the same way.
  expect(parseRunConfig('?transport=webtransport&pace=off').pace).toBe('off');
  expect(parseRunConfig(runConfigToSearch({ ...parseRunConfig('?transport=webtransport&pace=2'), autostart: true })).pace).toBe(2);
});

test('bad values get the same sentence from a URL and from a scenario file', () => {
  const cases = [
    ['carrier', 'both', 'must be "single", "split", got "both"'],
    ['cc', 'reno', 'must be "cubic", "newreno", "bbr", "fixed", got "reno"'],
    ['fixedMargin', '0', 'must be a number from 0.1 to 10, got "0"'],
    ['fixedMargin', 'lots', 'must be a number from 0.1 to 10, got "lots"'],
    ['pace', '0.1', 'must be "off" or a margin from 0.5 to 10 (x the highest bitrate), got "0.1"'],
  ];
  for (const [key, value, sentence] of cases) {
    const title = transports.get('webtransport').options[key].title;
    expect(urlMessage(`?transport=webtransport&${key}=${value}`)).toBe(`${key} (${title}) ${sentence}`);
    expect(fileProblems([{ name: 'webtransport', [key]: value }])).toEqual([`transports[0].${key} ${sentence}`]);
  }
});

test('a scenario names each variant by its options; only WebTransport takes them', () => {
  const s = validateScenario({ ...base, transports: ['h3', { name: 'webtransport', carrier: 'split' }, { name: 'webtransport', cc: 'fixed', fixedMargin: 2, bp: 0 }] }, ctx);
  const playbacks = expandMatrix(s);
  expect(playbacks.map((p) => p.transport)).toEqual(['h3', 'webtransport-carriersplit', 'webtransport-bp0-ccfixed-fixedMargin2']);
  expect(playbacks[1]).toMatchObject({ transportName: 'webtransport', carrier: 'split', cc: null, transportOptions: { carrier: 'split' } });
  expect(fileProblems([{ name: 'datachannel', carrier: 'split' }])).toEqual(['transports[0].carrier: only the webtransport transport has a carrier']);
  // The BP is one option of both FDSP transports (one definition, bp-option.js).
  expect(fileProblems([{ name: 'h3', bp: 50 }])).toEqual(['transports[0].bp: only the datachannel and webtransport transports have a BP']);
});

test('single: one session under cc, its rate only when cc is fixed', () => {
  expect(planCarriers({ baseUrl: URL_BASE, options: defaults })).toEqual({
    carrier: 'single', reliableCc: 'cubic', unreliableCc: 'cubic', fixedRateKbps: null, sessions: [{ role: 'both', url: `${URL_BASE}?cc=cubic` }],
  });
  const fixed = planCarriers({ baseUrl: URL_BASE, options: { ...defaults, cc: 'fixed' }, highestBandwidthBps: 4000000 });
  expect(fixed.sessions).toEqual([{ role: 'both', url: `${URL_BASE}?cc=fixed&rateKbps=4800` }]);
  expect(describePlan(fixed)).toBe('single session: fixed at 4800 kbit/s, not TCP-friendly (emulated links only)');
  expect(describePlan(planCarriers({ baseUrl: URL_BASE, options: { ...defaults, cc: 'bbr' } }))).toBe('single session: bbr');
});

test('split: the reliable session carries the token, the datagram session names it and runs fixed at the highest bandwidth x margin', () => {
  const plan = planCarriers({ baseUrl: URL_BASE, options: { ...defaults, carrier: 'split', fixedMargin: 1.5 }, highestBandwidthBps: 1234567, token: () => '0123456789abcdef' });
  expect(plan).toMatchObject({ carrier: 'split', reliableCc: 'cubic', unreliableCc: 'fixed', fixedRateKbps: 1852 });
  expect(plan.sessions).toEqual([
    { role: 'reliable', url: `${URL_BASE}?cc=cubic&pairToken=0123456789abcdef` },
    { role: 'unreliable', url: `${URL_BASE}?cc=fixed&rateKbps=1852&pairWith=0123456789abcdef` },
  ]);
  expect(describePlan(plan)).toBe('split: reliable cubic, datagrams fixed at 1852 kbit/s, not TCP-friendly (emulated links only)');
  // Tokens are 16 lowercase hex characters, new each time.
  const tokens = new Set(Array.from({ length: 50 }, newPairToken));
  expect(tokens.size).toBe(50);
  for (const t of tokens) expect(t).toMatch(/^[0-9a-f]{16}$/);
  expect(() => planCarriers({ baseUrl: URL_BASE, options: { ...defaults, carrier: 'split' }, highestBandwidthBps: 1e6, token: () => 'xyz' })).toThrow(/16 lowercase hex/);
});

test('a fixed rate needs the content\'s highest bandwidth and must be within the server\'s range', () => {
  expect(fixedRateKbps(1000000, 1.2)).toBe(1200);
  expect(fixedRateKbps(1000001, 1)).toBe(1001); // rounded up: never under the rung it must carry
  expect(() => fixedRateKbps(50000, 1.2)).toThrow('a fixed rate of 60 kbit/s (50000 bit/s x 1.2) is outside the QUIC server\'s 100-1000000 kbit/s');
  expect(() => planCarriers({ baseUrl: URL_BASE, options: { ...defaults, carrier: 'split' } })).toThrow(/needs the highest representation's bandwidth/);
  // No fixed session, no rate needed.
  expect(planCarriers({ baseUrl: URL_BASE, options: { ...defaults, cc: 'newreno' } }).fixedRateKbps).toBeNull();
});

test('the transport records its carrier per response and in its totals, and refuses to start without what it needs', () => {
  const t = createTransport('webtransport', { webtransport: URL_BASE }, { carrier: 'split', bp: 0 }, { highestBandwidthBps: 2000000, certSha256Hex: CERT });
  expect(t).toBeInstanceOf(WebTransportTransport);
  expect(t.accountingExtras()).toEqual({ carrier: 'split', reliableCc: 'cubic', unreliableCc: 'fixed' });
  expect(t.stats()).toMatchObject({ carrier: 'split', reliableCc: 'cubic', unreliableCc: 'fixed', fixedRateKbps: 2400, bp: 0, requests: 0 });
  expect(transports.get('webtransport').configFields(t)).toEqual({
    // The default pace, 1.5 x the top rung; the fixed-rate session's 1.2 x is the lower, so it applies.
    bp: 0, mode: 'fdsp', paceBps: 3000000, carrier: 'split', reliableCc: 'cubic', unreliableCc: 'fixed', fixedRateKbps: 2400, carriers: 'split: reliable cubic, datagrams fixed at 2400 kbit/s, not TCP-friendly (emulated links only)',
  });
  expect(transports.get('webtransport').segmentFields).toEqual(expect.arrayContaining(['plr', 'carrier', 'reliableCc', 'unreliableCc']));
  // pace off: nothing asked of the origin (null); without the content's bitrates no pace either.
  expect(createTransport('webtransport', { webtransport: URL_BASE }, { pace: 'off' }, { highestBandwidthBps: 2000000, certSha256Hex: CERT }).paceBps).toBeNull();
  expect(createTransport('webtransport', { webtransport: URL_BASE }, {}, { certSha256Hex: CERT }).paceBps).toBeNull();
  expect(() => createTransport('webtransport', { webtransport: URL_BASE }, {}, {})).toThrow(/certSha256Hex/);
  expect(() => createTransport('webtransport', { webtransport: URL_BASE }, { carrier: 'split' }, { certSha256Hex: CERT })).toThrow(/highest representation's bandwidth/);
  expect(() => createTransport('webtransport', { h3: 'https://127.0.0.1:8444' }, {}, { certSha256Hex: CERT })).toThrow(/no urls\.webtransport/);
  expect([...hexToBytes('00ff10')]).toEqual([0, 255, 16]);
  expect(() => hexToBytes('abc')).toThrow(/hex/);
});

test('the report names fixed as not TCP-friendly only for the playbacks that used it', () => {
  const note = transports.get('webtransport').reportNote;
  expect(note({ qoe: { config: { reliableCc: 'cubic', unreliableCc: 'fixed' } } })).toBe('WebTransport playbacks with a fixed-rate session are not TCP-friendly (emulated links only).');
  expect(note({ qoe: { config: { reliableCc: 'cubic', unreliableCc: 'cubic' } } })).toBeNull();
  expect(note({ status: 'failed', qoe: null })).toBeNull();
});

test('Chromium flags come from the registry, for the listeners the origin has', () => {
  const info = {
    urls: { http11: 'http://10.77.40.1:8080', http10: 'http://10.77.40.1:8081', h2: 'https://10.77.40.1:8443', fdsp: 'ws://10.77.40.1:8080/fdsp', h3: 'https://10.77.40.1:8444', webtransport: 'https://10.77.40.1:8444/fdsp' },
    spkiSha256: 'c3BraQ==',
  };
  expect(chromiumArgsFor(info)).toEqual([
    '--enable-quic', '--origin-to-force-quic-on=10.77.40.1:8444', '--ignore-certificate-errors-spki-list=c3BraQ==',
    '--unsafely-treat-insecure-origin-as-secure=http://10.77.40.1:8080,http://10.77.40.1:8081',
  ]);
  // An origin without the QUIC listeners: nothing for them.
  const { h3, webtransport, ...older } = info.urls;
  expect(chromiumArgsFor({ ...info, urls: older })).toEqual([]);
  expect(chromiumArgsFor(null)).toEqual([]);
  // IPv6: the host as Chromium writes it, in brackets.
  expect(chromiumArgsFor({ urls: { h3: 'https://[::1]:8444' }, spkiSha256: 'x' })).toContain('--origin-to-force-quic-on=[::1]:8444');
  expect(() => chromiumArgsFor({ urls: { h3: 'https://127.0.0.1:8444' } })).toThrow(/spkiSha256/);
});
