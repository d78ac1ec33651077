'use strict';
const { rangeHeader, parseDashRange, rebaseUrl } = require('../../player/transports/transport');
const { rangeFromHeaders } = require('../../player/dash/transport-loader');

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
