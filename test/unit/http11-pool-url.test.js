'use strict';
// How the origin's HTTP/1.1 pool publishes its ports in one URL, and how the player reads them.
const { poolUrlSuffix, poolBaseUrls } = require('../../shared/http11-pool-url');

test('the ports go in the fragment and come back as base URLs', () => {
  expect(poolUrlSuffix([41234, 41235])).toBe('/#ports=41234,41235');
  expect(poolBaseUrls('http://127.0.0.1:41234/#ports=41234,41235')).toEqual(['http://127.0.0.1:41234', 'http://127.0.0.1:41235']);
  expect(poolBaseUrls('http://[::1]:9000/#ports=9000,9001,9002')).toEqual(['http://[::1]:9000', 'http://[::1]:9001', 'http://[::1]:9002']);
  expect(poolBaseUrls('http://10.77.1.1:8090')).toEqual(['http://10.77.1.1:8090']);
  // As `npm run origin` prints it (with the page path "/" after it).
  expect(poolBaseUrls('http://127.0.0.1:41234/#ports=41234,41235/')).toEqual(['http://127.0.0.1:41234', 'http://127.0.0.1:41235']);
  // The fragment is never sent: any URL of the pool is still a URL of its first port.
  expect(new URL('http://127.0.0.1:41234/#ports=41234,41235').origin).toBe('http://127.0.0.1:41234');
});

test('anything else is refused with what was given', () => {
  expect(() => poolUrlSuffix([])).toThrow(/needs its ports/);
  expect(() => poolUrlSuffix([0])).toThrow(/needs its ports/);
  expect(() => poolBaseUrls('http://127.0.0.1:1/#ports=')).toThrow(/#ports=P1,P2,\.\.\., got "#ports="/);
  expect(() => poolBaseUrls('http://127.0.0.1:1/#x')).toThrow(/got "#x"/);
});
