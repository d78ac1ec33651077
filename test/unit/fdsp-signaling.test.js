'use strict';
// The FDSP session setup shared by the origin and its clients (shared/fdsp/signaling.js): the
// signaling messages each side may receive, with the origin's refusals word for word, and the
// two pre-negotiated channels as each WebRTC stack takes them.
const { CHANNELS, webRtcChannelInit, nodeDataChannelInit, encode, parseSignal, SignalingError, MAX_SIGNAL_BYTES } = require('../../shared/fdsp/signaling');

test('what a client sends, the origin takes; what the origin sends, a client takes', () => {
  expect(parseSignal(encode.description('Offer', 'v=0 sdp'), { from: 'client' })).toEqual({ type: 'offer', sdp: 'v=0 sdp' });
  expect(parseSignal(Buffer.from(encode.candidate('candidate:1 1 UDP 1 127.0.0.1 9 typ host', '0')), { from: 'client' })).toEqual({ type: 'candidate', candidate: 'candidate:1 1 UDP 1 127.0.0.1 9 typ host', mid: '0' });
  expect(parseSignal(encode.description('answer', 'v=0 a'), { from: 'origin' })).toEqual({ type: 'answer', sdp: 'v=0 a' });
  expect(parseSignal(encode.error('one offer per session'), { from: 'origin' })).toEqual({ type: 'error', message: 'one offer per session' });
  // End of candidates; a missing mid is the one bundled m-line.
  expect(parseSignal('{"type":"candidate","candidate":""}', { from: 'origin' })).toEqual({ type: 'candidate', candidate: '', mid: '0' });
});

test('malformed signaling is refused with a reason (the origin sends it back and closes)', () => {
  const refusal = (data, o = {}) => {
    try {
      parseSignal(data, { from: 'client', ...o });
    } catch (err) {
      expect(err).toBeInstanceOf(SignalingError);
      return err.message;
    }
    throw new Error('not refused');
  };
  expect(refusal('{}', { isBinary: true })).toBe('signaling messages are JSON text');
  expect(refusal(JSON.stringify({ type: 'offer', sdp: 'x'.repeat(MAX_SIGNAL_BYTES) }))).toMatch(/^a signaling message of \d+ bytes is over 65536$/);
  expect(refusal('{oops')).toMatch(/JSON/);
  expect(refusal('42')).toBe('a signaling message is a JSON object');
  expect(refusal('[{"type":"offer"}]')).toBe('a signaling message is a JSON object');
  expect(refusal('{"type":"hello"}')).toBe('unknown signaling message type "hello"');
  expect(refusal('{"sdp":"x"}')).toBe('unknown signaling message type undefined');
  expect(refusal('{"type":"toString"}')).toBe('unknown signaling message type "toString"');
  expect(refusal('{"type":"offer"}')).toBe('offer needs an sdp string');
  expect(refusal('{"type":"candidate","candidate":1}')).toBe('candidate needs candidate and mid strings');
  expect(refusal('{"type":"candidate","candidate":"c","mid":0}')).toBe('candidate needs candidate and mid strings');
  // The roles are not interchangeable.
  expect(refusal(encode.description('answer', 'v=0'))).toBe('unknown signaling message type "answer"');
  expect(refusal(encode.error('no'))).toBe('unknown signaling message type "error"');
  expect(() => parseSignal(encode.description('offer', 'v=0'), { from: 'origin' })).toThrow('unknown signaling message type "offer"');
});

test('the two channels, as the browser and node-datachannel take them', () => {
  expect(CHANNELS.reliable).toMatchObject({ id: 0, ordered: true });
  expect(webRtcChannelInit(CHANNELS.reliable)).toEqual({ negotiated: true, id: 0, ordered: true });
  expect(webRtcChannelInit(CHANNELS.unreliable)).toEqual({ negotiated: true, id: 1, ordered: false, maxRetransmits: 0 });
  expect(nodeDataChannelInit(CHANNELS.reliable)).toEqual({ negotiated: true, id: 0 });
  expect(nodeDataChannelInit(CHANNELS.unreliable)).toEqual({ negotiated: true, id: 1, unordered: true, maxRetransmits: 0 });
});
