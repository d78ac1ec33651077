'use strict';
// The origin listener registry: the built-in entries, and entries it refuses with a reason.
const registry = require('../../origin/listeners');

const valid = (over = {}) => ({
  name: 'extra',
  label: 'Extra',
  description: 'an extra listener',
  scheme: 'http',
  port: { option: 'extraPort', flag: '--extra-port', default: 8090 },
  urlKey: 'extra',
  create: () => null,
  ...over,
});

test('the built-in listeners, their flags, defaults and URL keys, and the signaling attachment', () => {
  expect(registry.listeners().map((l) => [l.name, l.scheme, l.port.flag, l.port.option, l.port.default, l.urlKey, l.upgrades])).toEqual([
    ['http11', 'http', '--http11-port', 'http11Port', 8080, 'http11', true],
    ['http10', 'http', '--http10-port', 'http10Port', 8081, 'http10', true],
    ['h2', 'https', '--h2-port', 'h2Port', 8443, 'h2', false],
    ['h3', 'https', '--h3-port', 'h3Port', 8444, 'h3', false],
    ['http11pool', 'http', '--http11-pool-port', 'http11PoolPort', 0, 'http11pool', false],
  ]);
  // The QUIC listener binds its own (UDP) port, publishes a second URL, and has its own options.
  const h3 = registry.listeners().find((l) => l.name === 'h3');
  expect(typeof h3.start).toBe('function');
  expect(h3.extraUrls).toEqual({ webtransport: '/fdsp' });
  expect(h3.options.map((o) => [o.flag, o.default])).toEqual([['--h3-cc', 'cubic'], ['--fixed-rate-kbps', 10000]]);
  expect(h3.options[0].parse('bbr')).toBe('bbr');
  expect(() => h3.options[0].parse('vegas')).toThrow(/cubic, newreno, bbr, fixed/);
  expect(() => h3.options[1].parse('50')).toThrow(/100-1000000/);
  expect(registry.attachments().map((a) => [a.name, a.urlKey, a.path])).toEqual([['fdsp', 'fdsp', '/fdsp']]);
  // The HTTP/1.1 pool binds several ports itself (12, any free ones by default); its test hook is off.
  const pool = registry.listeners().find((l) => l.name === 'http11pool');
  expect(typeof pool.start).toBe('function');
  expect(pool.options.map((o) => [o.flag, o.default])).toEqual([['--http11-pool-ports', 12], ['--test-delay-range', null]]);
  expect(pool.options[0].parse('3')).toBe(3);
  expect(() => pool.options[0].parse('0')).toThrow(/1-64, got "0"/);
  expect(pool.options[1].help).toMatch(/^TEST HOOK/);
  expect(pool.options[1].parse('/content/s/a.m4s,20480,8000')).toEqual({ path: '/content/s/a.m4s', start: 20480, ms: 8000, times: 1 });
  expect(() => pool.options[1].parse('a.m4s,1,2')).toThrow(/PATH,START,MS\[,TIMES\]/);
});

test.each([
  ['a bad name', { name: 'Extra-1' }, /name must be a lower-case word/],
  ['no label', { label: '' }, /label is missing/],
  ['an unknown scheme', { scheme: 'quic' }, /scheme must be "http" or "https"/],
  ['a flag that is not --NAME-port', { port: { option: 'extraPort', flag: '--host', default: 1 } }, /port\.flag must look like --NAME-port/],
  ['an option that is not namePort', { port: { option: 'extra', flag: '--extra-port', default: 1 } }, /port\.option must look like namePort/],
  ['a default past 65535', { port: { option: 'extraPort', flag: '--extra-port', default: 70000 } }, /port\.default must be a port number/],
  ['no create', { create: undefined }, /needs exactly one of create or start/],
  ['both create and start', { start: () => null }, /needs exactly one of create or start/],
  ['a taken extra URL key', { extraUrls: { webtransport: '/x' } }, /urlKey "webtransport" is already used by "h3"/],
  ['an option flag taken', { options: [{ option: 'x', flag: '--h3-cc', default: 1, help: 'x', parse: (v) => v }] }, /flag --h3-cc is already used by "h3"/],
  ['a taken name', { name: 'h2', urlKey: 'other' }, /already registered/],
  ['a taken URL key', { urlKey: 'fdsp' }, /urlKey "fdsp" is already used by "fdsp"/],
  ['a taken flag', { port: { option: 'extraPort', flag: '--h2-port', default: 1 } }, /port flag --h2-port is already used by "h2"/],
  ['a taken option', { port: { option: 'http10Port', flag: '--extra-port', default: 1 } }, /port option http10Port is already used by "http10"/],
])('a listener with %s is refused', (what, over, message) => {
  const before = registry.listeners().length;
  expect(() => registry.registerListener(valid(over))).toThrow(message);
  expect(registry.listeners()).toHaveLength(before);
});

test('an attachment at a taken path is refused', () => {
  expect(() => registry.registerAttachment({ name: 'other', label: 'Other', urlKey: 'other', path: '/fdsp', create: () => null }))
    .toThrow(/path \/fdsp is already taken/);
});

test('a valid listener is added after the built-in ones, frozen', () => {
  registry.registerListener(valid());
  const last = registry.listeners().at(-1);
  expect(last.name).toBe('extra');
  expect(last.upgrades).toBe(false);
  expect(Object.isFrozen(last) && Object.isFrozen(last.port)).toBe(true);
  expect(() => registry.registerListener(valid({ name: 'extra2' }))).toThrow(/urlKey "extra" is already used by "extra"/);
});
