'use strict';
// Batch "ranges": generated Range header values against a 64 KB segment on HTTP/1.1 (raw
// bytes) and h2 (raw frames): valid, unsatisfiable, multi-range, malformed, non-ASCII digits,
// and pathological lengths (up to 60,000 characters of whitespace, digits and separators, the
// shape that makes a backtracking regex take seconds). Every answer must be 200 with the whole
// file, 206 with exactly the bytes it names, 416, or another 4xx; /healthz is watched on
// another listener throughout. The run starts with ten 60,000-space values on one h2
// connection, which once froze every listener.
const { rawHttp1 } = require('../raw-http1');
const { RawH2Connection, sharedH2Connection } = require('../raw-h2-connection');
const { runPool } = require('../run-pool');
const { describe } = require('../batch-record');

function number(prng, size) {
  return String(prng.pick([0, 1, 9, size - 1, size, size + 1, 2 ** 31, 2 ** 32, 2 ** 53, '9007199254740993', '1'.padEnd(prng.int(16, 400), '9'), `${'0'.repeat(prng.int(1, 300))}5`, prng.int(0, size * 2)]));
}

const UNITS = ['bytes', 'bytes', 'bytes', 'BYTES', 'Bytes', 'byte', 'bytes ', ' bytes', 'items', 'none', ''];
const EQUALS = ['=', '=', '=', ' = ', '==', ':', ''];
const SPACES = [' ', '\t', '\xa0', '\u3000', '\x0b', '\f', '  '];
const GARBAGE = ['١-٢', '１-２', '0x10-0x20', '1e3-2e3', '+1-+2', '-1-2', '1--2', '--1', '-', ',', ',,,', '0-1;x', '0-1 , ', '0\x00-1', 'a-b', '0-1-2', '-0', '0-0', '5-4', '*', '0-'];

function pathological(prng) {
  const n = prng.pick([1000, 4000, 8000, 16000, 30000, 60000]);
  const ws = (k) => prng.pick(SPACES).repeat(k);
  return prng.pick([
    () => `bytes=${' '.repeat(n)}x`,
    () => `bytes=0${' '.repeat(n)}-x`,
    () => `bytes=${'0'.repeat(n)}-${'9'.repeat(n)}`,
    () => `bytes=${' '.repeat(n >> 1)}-${' '.repeat(n >> 1)}x`,
    () => `${' '.repeat(n)}bytes=0-1`,
    () => `bytes=${'\t'.repeat(n >> 1)}0-1${'\t'.repeat(n >> 1)}x`,
    () => 'bytes=0-1,'.repeat(Math.floor(n / 10)),
    () => `bytes=${'-'.repeat(n)}`,
    () => `bytes=${ws(n)}${'1'.repeat(10)}${ws(n >> 2)}`,
    () => `bytes${' '.repeat(n)}=${' '.repeat(n)}0-1x`,
  ])();
}

/** One Range header value (a string of latin1 bytes). */
function rangeValue(prng, size) {
  const r = prng.next();
  const unitEq = () => `${prng.pick(UNITS)}${prng.pick(EQUALS)}`;
  if (r < 0.3) {
    const a = number(prng, size);
    const b = number(prng, size);
    return `${unitEq()}${prng.pick([`${a}-${b}`, `${a}-`, `-${b}`, `${a}-${a}`])}`;
  }
  if (r < 0.45) {
    const s = () => (prng.chance(0.5) ? prng.pick(SPACES) : '');
    return `${s()}${unitEq()}${s()}${number(prng, size)}${s()}-${s()}${number(prng, size)}${s()}`;
  }
  if (r < 0.55) return `bytes=${Array.from({ length: prng.int(2, 300) }, () => `${prng.int(0, size)}-${prng.int(0, size)}`).join(prng.pick([',', ', ', ' ,']))}`;
  if (r < 0.7) return `${unitEq()}${prng.pick(GARBAGE)}`;
  if (r < 0.8) return prng.string(prng.length(200), ' -=,0123456789bytes\t');
  return pathological(prng);
}

/** The value's bytes on the wire: latin1 byte for byte, or UTF-8 when it has wider characters. */
function wire(value) {
  return Buffer.from(value, /[^\x00-\xff]/.test(value) ? 'utf8' : 'latin1');
}

function checkAnswer(rec, file, value, listener, status, body, contentRange) {
  const what = `Range ${describe(value, 60)} on ${listener}`;
  rec.status(status, { channel: 'http', path: '/content/media/chunk-1-00001.m4s', body, what });
  rec.scan(body, what);
  if (status === 200 && !(body && body.equals(file))) rec.fail(`200 for ${what} without the whole file (${body ? body.length : 0} of ${file.length} bytes)`, { kind: `200 wrong ${listener}` });
  if (status === 206) {
    if (contentRange !== undefined) {
      const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange || '');
      if (!m || Number(m[3]) !== file.length || !body.equals(file.subarray(Number(m[1]), Number(m[2]) + 1))) rec.fail(`206 for ${what}: Content-Range ${JSON.stringify(contentRange)} does not match the ${body.length} bytes sent`, { kind: `206 wrong ${listener}` });
    } else if (!body || body.length === 0 || (body.length >= 8 && file.indexOf(body) < 0)) {
      rec.fail(`206 for ${what}: the ${body ? body.length : 0} bytes sent are not a slice of the file`, { kind: `206 wrong ${listener}` });
    }
  }
  if (status === 416 && contentRange !== undefined && contentRange !== `bytes */${file.length}`) rec.fail(`416 for ${what} with Content-Range ${JSON.stringify(contentRange)}`, { kind: `416 wrong ${listener}` });
}

async function run(ctx) {
  const { prng, urls, rec, tree } = ctx;
  const file = tree.files.get(tree.segmentPath);
  const path = `/content/${tree.segmentPath}`;
  const h2Request = (conn, value, timeoutMs) => conn.request([[':method', 'GET'], [':scheme', 'https'], [':authority', '127.0.0.1'], [':path', path], ['range', wire(value)]], { timeoutMs }).done;

  // The known freeze first: ten at once on one connection.
  const freeze = `bytes=${' '.repeat(60000)}x`;
  const conn = await RawH2Connection.open({ port: urls.h2Port });
  try {
    const answers = await Promise.all(Array.from({ length: 10 }, () => h2Request(conn, freeze, 20000)));
    for (const a of answers) {
      rec.case();
      if (a.status === null) rec.see(a.rstCode !== null ? `h2 rst ${a.rstCode}` : a.timedOut ? 'no answer' : 'none');
      else checkAnswer(rec, file, freeze, 'h2', a.status, a.body);
    }
  } finally {
    await conn.close();
  }

  const values = Array.from({ length: ctx.count }, () => rangeValue(prng, file.length));
  const shared = sharedH2Connection(urls.h2Port);
  try {
    await runPool(values.length, ctx.concurrency, async (i) => {
      const value = values[i];
      rec.case();
      const data = Buffer.concat([Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nRange: `), wire(value), Buffer.from('\r\n\r\n')]);
      const r = await rawHttp1({ port: urls.http11Port, data, timeoutMs: 5000 });
      const res = r.responses[0];
      if (!res) rec.see(r.timedOut ? 'no answer' : 'closed, no answer');
      else checkAnswer(rec, file, value, 'http11', res.status, res.body, res.headers['content-range']);
      let a;
      try {
        a = await h2Request(await shared.get(), value, 5000);
      } catch (err) {
        rec.see(`h2 ${err.code || err.message}`);
        return;
      }
      if (a.status === null) rec.see(a.rstCode !== null ? `h2 rst ${a.rstCode}` : a.timedOut ? 'no answer' : 'none');
      else checkAnswer(rec, file, value, 'h2', a.status, a.body);
    }, ctx.shouldStop);
  } finally {
    await shared.close();
  }
}

module.exports = {
  name: 'ranges',
  title: 'Range values (HTTP/1.1, h2)',
  targets: ['http11', 'h2'],
  defaultCount: 150,
  run,
  rangeValue,
};
