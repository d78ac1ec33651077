'use strict';
// Batch "request-lines": malformed HTTP/1.x requests as raw bytes on the HTTP/1.1 and
// HTTP/1.0-style listeners: broken request lines (methods, targets, versions, line endings),
// headers no parser should take (no colon, control bytes, obs-fold, conflicting
// Content-Length and Transfer-Encoding, oversized and too many), smuggling attempts, WebSocket
// upgrades gone wrong, mutated valid requests and plain random bytes. One case in ten keeps
// its half of the connection open after a 4xx, as a hostile client may: the origin must close
// the socket itself.
const { rawHttp1 } = require('../raw-http1');
const { runPool } = require('../run-pool');
const { describe } = require('../batch-record');

const METHODS = ['GET', 'HEAD', 'get', 'G E T', 'GET\t', '', 'PRI', 'CONNECT', 'TRACE', 'OPTIONS', 'PUT', 'DELETE', 'POST', 'PATCH', 'M-SEARCH', 'PROPFIND', 'QUERY', 'GÉT', '\x00GET', 'GET\x7f'];
const TARGETS = ['/healthz', '/content/media/manifest.mpd', '*', '', ' ', '//', 'http://[', 'http://x/healthz', 'localhost:80', '/%', '/\x7f', '/a b', '/\x00', '/é', '/content/media/../../outside/secret.txt', '?', '#', '/fdsp'];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.0', '', 'HTTP/2.0', 'HTTP/1.10', 'HTTP/9.9', 'http/1.1', 'HTTP/1.1 ', 'HTTP/ 1.1', 'HTTP/1', 'HTTP/1.1.1', 'HTTPS/1.1', 'HTTP/0.9', 'HTTP/1.01', 'HTTP/-1.1', 'HTTP/3'];
const SEPARATORS = [' ', ' ', ' ', '  ', '\t', '\x0b', ''];
const EOLS = ['\r\n', '\r\n', '\r\n', '\n', '\r', '\r\r\n', '\n\r'];

function weirdHeader(prng) {
  const big = (n) => 'a'.repeat(n);
  const gens = [
    () => 'X-Bad-No-Colon',
    () => ' X-Lead: folded',
    () => 'X-Sp : 1',
    () => ': empty-name',
    () => `X-\x01: ctl`,
    () => 'X-Nul: a\x00b',
    () => 'X-Cr: a\rb',
    () => 'X-Hi: \xff\xfe\x80',
    () => 'X-Fold: a\r\n b',
    () => 'Content-Length: 5\r\nContent-Length: 6',
    () => `Content-Length: ${prng.pick(['-1', '1e3', '99999999999999999999', '5, 5', '0x10', ' 3', '+3', ''])}`,
    () => `Transfer-Encoding: ${prng.pick(['chunked', 'gzip, chunked', 'chunked, identity', 'xchunked', 'chunked\r\nContent-Length: 3', 'CHUNKED', 'chunked\r\nTransfer-Encoding: chunked'])}`,
    () => `Expect: ${prng.pick(['100-continue', 'garbage', '100-continue, 100-continue'])}`,
    () => `Connection: ${prng.pick(['close, upgrade', 'keep-alive, close', 'Upgrade', big(3000)])}`,
    () => `Upgrade: ${prng.pick(['websocket', 'h2c\r\nHTTP2-Settings: AAAA', 'x'])}`,
    () => `Range: ${prng.pick(['bytes=0-0', 'bytes=a', `bytes=${' '.repeat(prng.int(1, 8000))}x`, 'bytes=0-1,2-3'])}`,
    () => `If-None-Match: ${'"x", '.repeat(prng.int(1, 2000))}`,
    () => `If-Modified-Since: ${prng.pick(['garbage', 'Thu, 01 Jan 1970 00:00:00 GMT', '9'.repeat(300)])}`,
    () => `If-Range: ${prng.pick(['W/"x"', '"x"', 'garbage'])}`,
    () => `Host: ${prng.pick([big(prng.int(100, 20000)), '[::1', 'evil.invalid', '', 'a\r\nHost: b'])}`,
    () => `Cookie: ${'a=b; '.repeat(prng.int(1, 3000))}`,
    () => `X-Huge: ${big(prng.pick([8000, 16000, 16384, 20000, 100000]))}`,
    () => Array.from({ length: prng.int(100, 3000) }, (_, i) => `X-Many-${i}: ${i}`).join('\r\n'),
    () => `X-Utf: ${'é€\u{1F600}'}`,
  ];
  return prng.pick(gens)();
}

function chunkedBody(prng) {
  return prng.pick([
    '0\r\n\r\n',
    'zz\r\nabc\r\n0\r\n\r\n',
    '5\r\nabc\r\n0\r\n\r\n',
    `1;${'a'.repeat(prng.pick([100, 20000]))}\r\nx\r\n0\r\n\r\n`,
    'ffffffffffffffffff\r\n',
    '3\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n',
    '-1\r\n\r\n',
  ]);
}

/** A request line with its pieces drawn from the lists above. */
function requestLine(prng) {
  const sep = () => prng.pick(SEPARATORS);
  return `${prng.pick(METHODS)}${sep()}${prng.pick(TARGETS)}${sep()}${prng.pick(VERSIONS)}`;
}

function mutate(prng, text) {
  const b = [...Buffer.from(text, 'latin1')];
  for (let k = prng.int(1, 6); k > 0; k -= 1) {
    const at = prng.int(0, b.length - 1);
    const r = prng.next();
    if (r < 0.3) b[at] ^= 1 << prng.int(0, 7);
    else if (r < 0.55) b.splice(at, 0, prng.int(0, 255));
    else if (r < 0.75) b.splice(at, 1);
    else if (r < 0.9) b.splice(at, 0, 13, 10);
    else b.splice(at, 0, ...b.slice(at, at + prng.int(1, 40)));
  }
  return Buffer.from(b);
}

const VALID = 'GET /content/media/manifest.mpd HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\nRange: bytes=0-9\r\n\r\n';

/** @returns {{data: Buffer, expect: number, label: string}} */
function hostileRequest(prng) {
  const r = prng.next();
  const eol = prng.chance(0.8) ? '\r\n' : prng.pick(EOLS);
  if (r < 0.25) {
    return { label: 'request line', data: Buffer.from(`${requestLine(prng)}${eol}Host: 127.0.0.1${eol}${eol}`, 'latin1'), expect: 1 };
  }
  if (r < 0.55) {
    const headers = Array.from({ length: prng.int(1, 4) }, () => weirdHeader(prng));
    if (prng.chance(0.8)) headers.unshift('Host: 127.0.0.1');
    let text = `${prng.pick(['GET', 'GET', 'HEAD', 'POST', 'OPTIONS'])} ${prng.pick(['/healthz', '/content/media/manifest.mpd', '/fdsp', '/content/media/chunk-1-00001.m4s'])} HTTP/1.1${eol}${headers.join(eol)}${eol}${eol}`;
    if (headers.some((h) => /Transfer-Encoding/i.test(h))) text += chunkedBody(prng);
    else if (headers.some((h) => /Content-Length: \d/.test(h))) text += prng.pick(['', 'abc', 'abcdef', 'x'.repeat(100)]);
    return { label: 'headers', data: Buffer.from(text, 'latin1'), expect: 1 };
  }
  if (r < 0.62) {
    // Smuggling: a second request hidden in the first one's body, asking for the secret.
    const hidden = 'GET /content/media/../../outside/secret.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    const framing = prng.pick([
      `Content-Length: ${4 + hidden.length}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${hidden}`,
      `Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n${hidden}`,
      `Content-Length: 0\r\nContent-Length: ${hidden.length}\r\n\r\n${hidden}`,
      `Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n${hidden.length.toString(16)}\r\n${hidden}\r\n0\r\n\r\n`,
      `Transfer-Encoding:\x0bchunked\r\n\r\n0\r\n\r\n${hidden}`,
    ]);
    return { label: 'smuggling', data: Buffer.from(`POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${framing}`, 'latin1'), expect: 2 };
  }
  if (r < 0.7) {
    const key = prng.pick(['dGhlIHNhbXBsZSBub25jZQ==', '', 'short', 'x'.repeat(300), '!!!!']);
    const version = prng.pick(['13', '8', '99', 'x', '']);
    const path = prng.pick(['/fdsp', '/fdsp?x=1', '/fdsp/', '/FDSP', 'http://[', '/fdsp#', '//fdsp', '/fdsp/../fdsp', '/%66dsp']);
    return { label: 'websocket upgrade', data: Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: ${prng.pick(['websocket', 'WebSocket', 'h2c', ''])}\r\nConnection: ${prng.pick(['Upgrade', 'upgrade, close', 'keep-alive'])}\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: ${version}\r\n\r\n`, 'latin1'), expect: 1 };
  }
  if (r < 0.85) return { label: 'mutated', data: mutate(prng, VALID), expect: 1 };
  if (r < 0.92) {
    const garbage = prng.chance(0.5) ? prng.bytes(prng.length(4096)) : Buffer.from(requestLine(prng) + eol + eol, 'latin1');
    return { label: 'pipelined', data: Buffer.concat([Buffer.from(VALID, 'latin1'), garbage]), expect: 2 };
  }
  return { label: 'random bytes', data: prng.bytes(prng.length(4096)), expect: 1 };
}

/** The request target of the first request line, as a router would see it (for allowed-5xx.js). */
function targetOf(data) {
  const line = data.toString('latin1').split(/\r?\n|\r/, 1)[0];
  return line.split(/[ \t]+/)[1] ?? null;
}

async function run(ctx) {
  const { prng, urls, rec } = ctx;
  const cases = Array.from({ length: ctx.count }, () => ({ ...hostileRequest(prng), listener: prng.pick(['http11', 'http10']), hold: prng.chance(0.1) }));
  await runPool(cases.length, ctx.concurrency, async (i) => {
    const c = cases[i];
    rec.case();
    const r = await rawHttp1({ port: urls[`${c.listener}Port`], data: c.data, expect: c.expect, timeoutMs: 1500, hold: c.hold });
    const what = `${c.label} ${describe(c.data, 80)} on ${c.listener}`;
    if (r.responses.length === 0) rec.see(r.timedOut ? 'no answer' : r.error ? `error ${r.error}` : 'closed, no answer');
    for (const res of r.responses) {
      if (res.status === 101) {
        rec.see('101');
        continue;
      }
      rec.status(res.status, { channel: 'http', path: targetOf(c.data), body: res.body, what });
    }
    rec.scan(r.raw, what);
    if (r.socket) {
      // Only a socket the origin should be done with is kept: one it answered with a 4xx.
      if (r.responses.some((res) => res.status >= 400 && res.status < 500)) ctx.hold(r.socket);
      else r.socket.destroy();
    }
  }, ctx.shouldStop);
}

module.exports = {
  name: 'request-lines',
  title: 'malformed request lines and headers (HTTP/1.x)',
  targets: ['http11', 'http10'],
  defaultCount: 500,
  run,
  hostileRequest,
};
