'use strict';
// An HTTP/1.x client over a bare TCP socket that sends exactly the bytes it is given (no
// client library would send a malformed request line or a 100 KB header) and parses whatever
// comes back, pipelined responses included. It can keep its half of the connection open after
// the server's answer, as a hostile client may: the origin must let go of the socket anyway.
const net = require('node:net');

const MAX_KEPT_BODY_BYTES = 16 * 1024 * 1024;

/**
 * @param {object} o
 * @param {number} o.port
 * @param {string} [o.host]           default 127.0.0.1
 * @param {Buffer|string} o.data      the request bytes (a string is sent as latin1, byte for byte)
 * @param {number} [o.expect]         responses to wait for (default 1)
 * @param {boolean[]} [o.heads]       per expected response: true if its request was HEAD (no body)
 * @param {number} [o.timeoutMs]      give up waiting (default 3000)
 * @param {boolean} [o.hold]          keep the socket open after the exchange (returned as .socket)
 * @param {boolean} [o.endWrite]      half-close our side after sending
 * @returns {Promise<{responses: object[], raw: Buffer, serverClosed: boolean, timedOut: boolean,
 *   error: string|null, socket: net.Socket|null}>}
 */
function rawHttp1({ port, host = '127.0.0.1', data, expect = 1, heads = [], timeoutMs = 3000, hold = false, endWrite = false }) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host, allowHalfOpen: true });
    const chunks = [];
    let rawBytes = 0;
    let serverClosed = false;
    let error = null;
    let finished = false;
    const parser = createResponseParser(heads);
    const finish = (timedOut) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (!hold) socket.destroy();
      for (const r of parser.responses) if (Array.isArray(r.body)) r.body = Buffer.concat(r.body);
      resolve({ responses: parser.responses, raw: Buffer.concat(chunks), serverClosed, timedOut, error, socket: hold ? socket : null });
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    socket.on('error', (err) => {
      error = err.code || err.message;
      finish(false);
    });
    socket.on('data', (chunk) => {
      if (finished) return; // a held socket: what comes later is not this exchange's
      if (rawBytes < MAX_KEPT_BODY_BYTES) chunks.push(chunk);
      rawBytes += chunk.length;
      parser.push(chunk);
      if (parser.responses.filter((r) => r.complete).length >= expect) finish(false);
    });
    const closed = () => {
      if (finished) return;
      serverClosed = true;
      parser.end();
      finish(false);
    };
    socket.on('end', closed);
    socket.on('close', closed);
    socket.on('connect', () => {
      socket.write(Buffer.isBuffer(data) ? data : Buffer.from(data, 'latin1'));
      if (endWrite) socket.end();
    });
  });
}

/**
 * Incremental parser of a stream of HTTP/1.x responses.
 * @param {boolean[]} heads  per response: its request was HEAD
 */
function createResponseParser(heads = []) {
  let buf = Buffer.alloc(0);
  let current = null;
  let stopped = false; // after a 101, the bytes are another protocol
  const responses = [];

  function parseHead() {
    const endAt = buf.indexOf('\r\n\r\n');
    if (endAt < 0) return false;
    const lines = buf.subarray(0, endAt).toString('latin1').split('\r\n');
    buf = buf.subarray(endAt + 4);
    const m = /^HTTP\/(\d)\.(\d) (\d{3})/.exec(lines[0]);
    const headers = {};
    for (const line of lines.slice(1)) {
      const i = line.indexOf(':');
      if (i > 0) {
        const name = line.slice(0, i).trim().toLowerCase();
        headers[name] = headers[name] === undefined ? line.slice(i + 1).trim() : `${headers[name]}, ${line.slice(i + 1).trim()}`;
      }
    }
    const status = m ? Number(m[3]) : null;
    if (status !== null && status >= 100 && status < 200 && status !== 101) return true; // interim: skip
    const index = responses.length;
    current = { status, statusLine: lines[0], headers, body: [], bodyBytes: 0, complete: false };
    responses.push(current);
    if (status === 101) {
      current.complete = true;
      stopped = true;
      return false;
    }
    if (heads[index] || status === 204 || status === 304 || status === null) {
      current.mode = 'none';
    } else if (/chunked/i.test(headers['transfer-encoding'] || '')) {
      current.mode = 'chunked';
    } else if (headers['content-length'] !== undefined && /^\d+$/.test(headers['content-length'])) {
      current.mode = 'length';
      current.remaining = Number(headers['content-length']);
    } else {
      current.mode = 'close';
    }
    return true;
  }

  function take(n) {
    const part = buf.subarray(0, n);
    buf = buf.subarray(n);
    current.bodyBytes += part.length;
    if (current.bodyBytes <= MAX_KEPT_BODY_BYTES && Array.isArray(current.body)) current.body.push(part);
  }

  function parseBody() {
    if (current.mode === 'none') return done();
    if (current.mode === 'close') {
      if (buf.length) take(buf.length);
      return false;
    }
    if (current.mode === 'length') {
      const n = Math.min(current.remaining, buf.length);
      take(n);
      current.remaining -= n;
      return current.remaining === 0 ? done() : false;
    }
    // chunked
    for (;;) {
      if (current.chunkLeft > 0) {
        const n = Math.min(current.chunkLeft, buf.length);
        take(n);
        current.chunkLeft -= n;
        if (current.chunkLeft > 0) return false;
        current.needCrlf = true;
      }
      if (current.needCrlf) {
        if (buf.length < 2) return false;
        buf = buf.subarray(2);
        current.needCrlf = false;
      }
      const eol = buf.indexOf('\r\n');
      if (eol < 0) return false;
      const size = parseInt(buf.subarray(0, eol).toString('latin1'), 16);
      buf = buf.subarray(eol + 2);
      if (!(size > 0)) {
        const trailerEnd = buf.indexOf('\r\n');
        if (trailerEnd < 0) return false;
        buf = buf.subarray(trailerEnd + 2);
        return done();
      }
      current.chunkLeft = size;
    }
  }

  function done() {
    current.complete = true;
    if (Array.isArray(current.body)) current.body = Buffer.concat(current.body);
    current = null;
    return true;
  }

  return {
    responses,
    push(chunk) {
      if (stopped) return;
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      for (;;) {
        if (stopped) return;
        if (!current) {
          if (!parseHead()) return;
        } else if (!parseBody()) return;
      }
    },
    /** The server closed: a body delimited by the close is complete now. */
    end() {
      if (current && current.mode === 'close') done();
      if (current && Array.isArray(current.body)) current.body = Buffer.concat(current.body);
    },
  };
}

module.exports = { rawHttp1, createResponseParser };
