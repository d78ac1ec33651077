'use strict';
// The load bench's abusive clients (and the fuzzer) write HTTP/2 frames by hand (node:http2 will not send a
// HEADERS and its RST_STREAM back to back, or ask and never read). A real node:http2 server
// must read them as the requests and resets they claim to be, or the abuse phase measures
// nothing but protocol errors.
const http2 = require('node:http2');
const net = require('node:net');
const h2 = require('../../testbed/h2-wire');

test('HPACK integers as RFC 7541 C.1 encodes them', () => {
  expect([...h2.hpackInt(10, 5)]).toEqual([10]);
  expect([...h2.hpackInt(1337, 5)]).toEqual([31, 154, 10]);
  expect([...h2.hpackInt(42, 8)]).toEqual([42]);
});

test('a node:http2 server reads the hand-made requests and resets', async () => {
  const server = http2.createServer();
  const sessions = new Set();
  server.on('session', (s) => sessions.add(s));
  const streams = new Map();
  server.on('stream', (stream, headers) => {
    const s = { path: headers[':path'], method: headers[':method'], rstCode: null };
    streams.set(stream.id, s);
    stream.on('close', () => {
      s.rstCode = stream.rstCode;
    });
    stream.on('error', () => {});
    // Answer slowly enough that the client's reset arrives first.
    setTimeout(() => {
      if (!stream.destroyed) stream.respond({ ':status': 200 }, { endStream: true });
    }, 200);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const socket = net.connect(server.address().port, '127.0.0.1');
  try {
    const seen = [];
    const readFrames = h2.createFrameReader();
    socket.on('data', (chunk) => readFrames(chunk).forEach((f) => seen.push(f.type)));
    await new Promise((r) => socket.once('connect', r));
    const host = `127.0.0.1:${server.address().port}`;
    // A path longer than 127 bytes needs a multi-byte HPACK length.
    const longPath = `/content/sample/${'x'.repeat(200)}.m4s`;
    socket.write(Buffer.concat([h2.PREFACE, h2.settingsFrame([[h2.SETTING.INITIAL_WINDOW_SIZE, 1 << 20]]), h2.windowUpdate(0, 1 << 20),
      h2.getRequest(1, host, '/content/sample/chunk-5-00001.m4s'), h2.getRequest(3, host, longPath), h2.rstStream(3, http2.constants.NGHTTP2_CANCEL)]));
    const deadline = Date.now() + 5000;
    while ((streams.size < 2 || streams.get(3).rstCode === null || !seen.includes(h2.TYPE.HEADERS)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(streams.get(1)).toMatchObject({ path: '/content/sample/chunk-5-00001.m4s', method: 'GET' });
    expect(streams.get(3)).toMatchObject({ path: longPath, rstCode: http2.constants.NGHTTP2_CANCEL });
    // The server's SETTINGS and stream 1's response came back as frames the reader split.
    expect(seen).toContain(h2.TYPE.SETTINGS);
    expect(seen).toContain(h2.TYPE.HEADERS);
    expect(seen).not.toContain(h2.TYPE.GOAWAY);
  } finally {
    socket.destroy();
    // close() alone would wait for a session a broken frame left half open.
    for (const s of sessions) s.destroy();
    await new Promise((r) => server.close(r));
  }
}, 15000);
