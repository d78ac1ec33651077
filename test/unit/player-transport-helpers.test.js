'use strict';
const { rangeHeader, parseDashRange, rebaseUrl } = require('../../player/transports/transport');
const { rangeFromHeaders } = require('../../player/dash/transport-loader');
const { scalePoints } = require('../../player/ui/line-chart');

test('byte ranges between dash.js, the transports and HTTP', () => {
  expect(parseDashRange('0-833')).toEqual({ start: 0, end: 833 });
  expect(parseDashRange('100-')).toEqual({ start: 100, end: null });
  expect(parseDashRange(undefined)).toBeNull();
  expect(() => parseDashRange('a-b')).toThrow(/unrecognised byte range/);
  expect(rangeHeader({ start: 0, end: 833 })).toBe('bytes=0-833');
  expect(rangeHeader({ start: 100, end: null })).toBe('bytes=100-');
  expect(rangeHeader(null)).toBeNull();
  expect(() => rangeHeader({ start: 5, end: 2 })).toThrow(/end must be/);
  expect(rangeFromHeaders({ Range: 'bytes=10-19' })).toEqual({ start: 10, end: 19 });
  expect(rangeFromHeaders({})).toBeNull();
});

test('requests are rebased onto the transport\'s listener, path and query kept', () => {
  expect(rebaseUrl('/content/sample/manifest.mpd', 'https://127.0.0.1:8443', 'http://127.0.0.1:8080/?x=1'))
    .toBe('https://127.0.0.1:8443/content/sample/manifest.mpd');
  expect(rebaseUrl('http://127.0.0.1:8080/content/s/chunk-1-00001.m4s?a=b', 'http://127.0.0.1:8081', 'http://127.0.0.1:8080/'))
    .toBe('http://127.0.0.1:8081/content/s/chunk-1-00001.m4s?a=b');
});

test('chart points scale into the plot area', () => {
  const xy = scalePoints([[0, 0], [10, 5], [20, 10]], { width: 200, height: 100, pad: 10 });
  expect(xy).toEqual([[10, 90], [100, 50], [190, 10]]);
  // Values above vMax are clipped to the top.
  expect(scalePoints([[0, 50]], { width: 100, height: 100, pad: 0, vMax: 10, tMin: 0, tMax: 1 })).toEqual([[0, 0]]);
});
