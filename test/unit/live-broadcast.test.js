'use strict';
// Live mode's pure parts: the origin's URL rule, segment availability and dynamic MPD, the
// player's join point and latency summary, and how a page URL and a scenario ask for live.
const { parseLivePath } = require('../../origin/live/live-path');
const { segmentAvailability } = require('../../origin/live/segment-availability');
const { dynamicManifest } = require('../../origin/live/dynamic-manifest');
const { broadcastStartMs, liveManifestPath } = require('../../player/live/live-broadcast');
const { summarizeLiveLatency } = require('../../player/qoe/live-latency');
const { labDashSettings } = require('../../player/dash/dash-settings');
const { abrs } = require('../../player/abr');
const { parseRunConfig, runConfigToSearch } = require('../../player/run-config');
const { validateScenario } = require('../../testbed/scenario/validate-scenario');
const { urlMessage, fileMessages, SCENARIO_CONTEXT, VALID_SCENARIO } = require('../support/run-option-refusals');

const NOW = Date.parse('2026-11-25T12:00:00Z');

describe('the live URL /live/<startMs>/<content>/<file>', () => {
  test('names the start, the content and the file (still encoded)', () => {
    expect(parseLivePath(`${NOW - 5000}/sample/chunk-0-00001.m4s`, NOW)).toEqual({ startMs: NOW - 5000, content: 'sample', file: 'chunk-0-00001.m4s' });
    expect(parseLivePath(`${NOW}/sample/sub/x%20y.json`, NOW).file).toBe('sub/x%20y.json');
  });
  test.each([
    ['no start', 'sample/manifest.mpd', 404, /is \/live\/<start/],
    ['no file', `${NOW}/sample`, 404, /is \/live\/<start/],
    ['a start far ahead of the clock', `${NOW + 3600e3}/sample/manifest.mpd`, 400, /3600 s ahead of the origin's clock/],
    ['a start more than a week ago', `${NOW - 8 * 86400e3}/sample/manifest.mpd`, 400, /more than 7 days ago/],
    ['a hidden or odd content name', `${NOW}/.secret/manifest.mpd`, 400, /content name/],
    ['an encoded traversal as content', `${NOW}/%2e%2e/manifest.mpd`, 400, /content name/],
  ])('refuses %s', (label, rest, status, message) => {
    let caught;
    try {
      parseLivePath(rest, NOW);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeDefined();
    expect(caught.status).toBe(status);
    expect(caught.message).toMatch(message);
  });
});

describe('segment availability (number-based template, period at 0)', () => {
  const at = (nowMs, number, o = {}) => segmentAvailability({ startMs: 0, nowMs, segmentSeconds: 2, number, segmentCount: 30, timeShiftSeconds: 60, ...o });
  test('segment n is available once the broadcast reaches its end, n x d', () => {
    expect(at(1999, 1)).toMatchObject({ available: false, reason: 'not-yet', inMs: 1 });
    expect(at(2000, 1)).toEqual({ available: true });
    expect(at(9999, 5)).toMatchObject({ available: false, reason: 'not-yet' });
    expect(at(10000, 5).available).toBe(true);
  });
  test('and leaves the time-shift window (plus its own duration) after that', () => {
    expect(at(2000 + 61999, 1).available).toBe(true);
    expect(at(2000 + 62000, 1)).toMatchObject({ available: false, reason: 'gone' });
  });
  test('numbers past the content are past the end of the broadcast, whenever asked', () => {
    expect(at(1e9, 31)).toMatchObject({ available: false, reason: 'past-end' });
    expect(at(60000, 30).available).toBe(true);
  });
});

describe('the dynamic MPD', () => {
  const STATIC = '<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT1M0.0S" minBufferTime="PT4.0S">\n\t<Period id="0" start="PT0.0S"></Period>\n</MPD>\n';
  const out = dynamicManifest(STATIC, { startMs: NOW - 10000, nowMs: NOW, timeShiftSeconds: 300, suggestedDelaySeconds: 6 });
  const root = /<MPD\b[^>]*>/.exec(out)[0];
  test('is dynamic, starts at the broadcast start and keeps the content\'s duration', () => {
    expect(root).toContain('type="dynamic"');
    expect(root).not.toContain('type="static"');
    expect(root).toContain('availabilityStartTime="2026-11-25T11:59:50.000Z"');
    expect(root).toContain('publishTime="2026-11-25T12:00:00.000Z"');
    expect(root).toContain('timeShiftBufferDepth="PT300S"');
    expect(root).toContain('suggestedPresentationDelay="PT6S"');
    expect(root).toContain('mediaPresentationDuration="PT1M0.0S"');
    expect(root).not.toContain('minimumUpdatePeriod');
  });
  test('carries the origin\'s clock as the last element (no request to time.akamai.com)', () => {
    expect(out).toMatch(/<\/Period>\n\t<UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-11-25T12:00:00.000Z"\/>\n<\/MPD>\n$/);
  });
  test('refuses what is not a static MPD', () => {
    expect(() => dynamicManifest('<html></html>', { startMs: 0, nowMs: 0, timeShiftSeconds: 1, suggestedDelaySeconds: 1 })).toThrow(/not an MPD/);
    expect(() => dynamicManifest(out, { startMs: 0, nowMs: 0, timeShiftSeconds: 1, suggestedDelaySeconds: 1 })).toThrow(/already dynamic/);
  });
});

describe('the player joins its own broadcast at the target latency', () => {
  test('the broadcast starts the latency before the join, so media time 0 plays at that latency', () => {
    expect(broadcastStartMs(NOW + 0.7, 8)).toBe(NOW - 8000);
    expect(liveManifestPath('my clip', 123)).toBe('/live/123/my%20clip/manifest.mpd');
  });
  test('dash.js gets the target latency and no catch-up; on demand gets neither', () => {
    const basic = abrs.get('basic');
    const params = basic.resolveParams({});
    const live = labDashSettings({ abr: basic, params, segmentDurationSeconds: 2, logLevel: 0, liveDelaySeconds: 10 });
    expect(live.streaming.delay).toEqual({ liveDelay: 10 });
    expect(live.streaming.liveCatchup).toEqual({ enabled: false });
    const vod = labDashSettings({ abr: basic, params, segmentDurationSeconds: 2, logLevel: 0 });
    expect(vod.streaming.delay).toBeUndefined();
    expect(vod.streaming.liveCatchup).toBeUndefined();
  });
});

describe('live latency summary', () => {
  test('a stall shows as a jump up by its length, and as growth from start to end', () => {
    const series = [[0, 10], [250, 10], [500, 10.01], [3500, 12.6], [3750, 12.6], [4000, 12.61]];
    const s = summarizeLiveLatency(series);
    expect(s.liveLatencyStartSeconds).toBe(10);
    expect(s.liveLatencyEndSeconds).toBe(12.61);
    expect(s.liveLatencyGrowthSeconds).toBeCloseTo(2.61, 6);
    expect(s.liveLatencyMaxSeconds).toBe(12.61);
    expect(s.liveLatencyMeanSeconds).toBeCloseTo((10 + 10 + 10.01 + 12.6 + 12.6 + 12.61) / 6, 6);
    expect(s.liveLatencyJumpsUp).toBe(1);
    expect(s.liveLatencyJumpsDown).toBe(0);
  });
  test('a jump back towards the edge counts down; no samples, no summary', () => {
    expect(summarizeLiveLatency([[0, 20], [250, 9]]).liveLatencyJumpsDown).toBe(1);
    expect(summarizeLiveLatency([])).toBeNull();
    expect(summarizeLiveLatency(undefined)).toBeNull();
  });
});

describe('asking for live: page URL and scenario', () => {
  test('the URL round-trips live and its latency', () => {
    const c = parseRunConfig('?content=sample&transport=h2&abr=basic&live=1&liveDelay=8');
    expect(c.live).toBe(true);
    expect(c.liveDelay).toBe(8);
    expect(parseRunConfig(runConfigToSearch(c))).toMatchObject({ live: true, liveDelay: 8 });
    expect(parseRunConfig('?content=sample').live).toBe(false);
  });
  test('the URL refuses an FDSP carrier, seeks and a bad latency, each saying why', () => {
    expect(urlMessage('?transport=datachannel&live=1')).toMatch(/transport "datachannel" cannot play live: FDSP carriers fetch the on-demand files only/);
    expect(urlMessage('?transport=http11&live=1&seeks=10:20')).toMatch(/live: a live playback takes no seek schedule/);
    expect(urlMessage('?live=1&liveDelay=0.5')).toMatch(/liveDelay must be a target live latency of 1-120 seconds, got "0.5"/);
  });
  test('a scenario\'s live: true or {delaySeconds} is in the normal form and the player config', () => {
    const s = validateScenario({ ...VALID_SCENARIO, live: { delaySeconds: 8 } }, SCENARIO_CONTEXT);
    expect(s.live).toEqual({ delaySeconds: 8 });
    expect(validateScenario({ ...VALID_SCENARIO, live: true }, SCENARIO_CONTEXT).live).toEqual({ delaySeconds: 10 });
    expect(validateScenario(VALID_SCENARIO, SCENARIO_CONTEXT).live).toBeUndefined();
  });
  test('a scenario refuses live with an FDSP carrier, seeks, unknown keys or a bad latency, all at once', () => {
    const problems = fileMessages({
      live: { delaySeconds: 500, extra: 1 },
      transports: ['http11', { name: 'webtransport', bp: 50 }],
      seekSchedules: { s: '10:20' },
    });
    expect(problems).toEqual(expect.arrayContaining([
      'live: unknown key "extra" (known: delaySeconds)',
      'live.delaySeconds must be a target live latency of 1-120 seconds, got 500',
    ]));
    const again = fileMessages({ live: true, transports: ['http11', { name: 'webtransport', bp: 50 }], seekSchedules: { s: '10:20' } });
    expect(again).toEqual(expect.arrayContaining([
      expect.stringMatching(/^transports\[1\]: transport "webtransport" cannot play live/),
      'seekSchedules: a live playback takes no seek schedule (seeks are for on-demand content)',
    ]));
    expect(fileMessages({ live: 'yes' })).toEqual(['live must be true or {delaySeconds: N}, got "yes"']);
  });
});
