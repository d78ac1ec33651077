'use strict';
const { closeReason, MAX_REASON_BYTES } = require('../../origin/datachannel/close-reason');

describe('closeReason: what a WebSocket close frame can carry', () => {
  test('a short reason is kept as it is', () => {
    expect(closeReason('idle for 60 s')).toBe('idle for 60 s');
  });

  test.each([
    // The probe's message: 90 two-byte characters quoted in the error, 120 characters > 123 bytes.
    ['two-byte characters', `bad signaling: unknown signaling message type "${'é'.repeat(90)}"`],
    ['three-byte characters', '€'.repeat(100)],
    ['surrogate pairs', '😀'.repeat(60)],
    ['ASCII', 'x'.repeat(500)],
    ['a lone surrogate', `\ud800${'x'.repeat(200)}`],
  ])('%s: cut to at most 123 bytes at a character boundary', (_name, text) => {
    const r = closeReason(text);
    expect(Buffer.byteLength(r)).toBeLessThanOrEqual(MAX_REASON_BYTES);
    expect(r.endsWith('…')).toBe(true);
    // A prefix of the original, with nothing split: round-trips through UTF-8 unchanged.
    const kept = r.slice(0, -1);
    expect(text.startsWith(kept)).toBe(true);
    if (!kept.includes('\ud800')) expect(Buffer.from(kept).toString()).toBe(kept);
  });
});
