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
  ]);
  expect(registry.attachments().map((a) => [a.name, a.urlKey, a.path])).toEqual([['fdsp', 'fdsp', '/fdsp']]);
});

test.each([
  ['a bad name', { name: 'Extra-1' }, /name must be a lower-case word/],
  ['no label', { label: '' }, /label is missing/],
  ['an unknown scheme', { scheme: 'quic' }, /scheme must be "http" or "https"/],
  ['a flag that is not --NAME-port', { port: { option: 'extraPort', flag: '--host', default: 1 } }, /port\.flag must look like --NAME-port/],
  ['an option that is not namePort', { port: { option: 'extra', flag: '--extra-port', default: 1 } }, /port\.option must look like namePort/],
  ['a default past 65535', { port: { option: 'extraPort', flag: '--extra-port', default: 70000 } }, /port\.default must be a port number/],
  ['no create', { create: undefined }, /create must be a function/],
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
