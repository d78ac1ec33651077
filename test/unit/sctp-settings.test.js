'use strict';
// LAB_SCTP (origin/datachannel/stacks/sctp-settings.js): what bench:datachannel --sctp hands
// the origin; a typo must fail the start with the list of keys, not run with defaults.
const { parseSctpSettings, formatSctpSettings } = require('../../origin/datachannel/stacks/sctp-settings');

describe('parseSctpSettings', () => {
  test('none given: no overrides', () => {
    expect(parseSctpSettings(undefined)).toEqual({});
    expect(parseSctpSettings('  ')).toEqual({});
  });

  test('reads several keys, spaces allowed, and writes them back the same', () => {
    const s = parseSctpSettings('sendBufferSize=1048576, mtu = 1500,congestionControlModule=2');
    expect(s).toEqual({ sendBufferSize: 1048576, mtu: 1500, congestionControlModule: 2 });
    expect(parseSctpSettings(formatSctpSettings(s))).toEqual(s);
  });

  test('an unknown key names the known ones', () => {
    expect(() => parseSctpSettings('sendBuffer=1')).toThrow(/unknown SCTP setting "sendBuffer": one of recvBufferSize, sendBufferSize/);
  });

  test('a value that is not a whole number, or no value, is refused', () => {
    expect(() => parseSctpSettings('mtu=1500.5')).toThrow(/expected KEY=NUMBER/);
    expect(() => parseSctpSettings('mtu=-1')).toThrow(/expected KEY=NUMBER/);
    expect(() => parseSctpSettings('mtu')).toThrow(/expected KEY=NUMBER/);
    expect(() => parseSctpSettings('mtu=1500,')).toThrow(/expected KEY=NUMBER/);
  });

  test('an mtu no IP path carries is refused', () => {
    expect(() => parseSctpSettings('mtu=100')).toThrow(/between 576 and 9000/);
    expect(parseSctpSettings('mtu=576')).toEqual({ mtu: 576 });
  });
});
