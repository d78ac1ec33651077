'use strict';
// The per-request log: one NDJSON line per response, so protocol overhead and link
// utilization can be computed later from what the origin really sent. Lines go to a file
// through a write stream (never a synchronous write on the response path) and/or to an
// in-memory sink.
const fs = require('node:fs');
const path = require('node:path');
const { machineMonotonicMs } = require('../shared/machine-monotonic-ms');

/**
 * @param {object} opts
 * @param {string} [opts.file]      NDJSON file to append to (created with its directory)
 * @param {(entry: object) => void} [opts.sink]  also receives every entry
 */
function createRequestLog({ file, sink } = {}) {
  let stream = null;
  if (file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    stream = fs.createWriteStream(file, { flags: 'a' });
    // A full disk must not take the origin down; the log is secondary to serving.
    stream.on('error', (err) => {
      process.stderr.write(`origin: request log ${file}: ${err.message}; logging to file stopped\n`);
      stream = null;
    });
  }
  return {
    file: file || null,
    record(entry) {
      if (sink) sink(entry);
      if (stream) stream.write(`${JSON.stringify(entry)}\n`);
    },
    /** Resolves once every line recorded so far is on disk (for tests and shutdown). */
    flush() {
      return new Promise((resolve) => {
        if (!stream || stream.writableLength === 0) return resolve();
        stream.write('', () => resolve());
      });
    },
    close() {
      return new Promise((resolve) => {
        if (!stream) return resolve();
        const s = stream;
        stream = null;
        s.end(resolve);
      });
    },
  };
}

/**
 * @typedef {object} ConnectionInfo
 * @property {'http/1.0'|'http/1.1'|'h2'} protocol  what the request was framed in
 * @property {string} listener       which listener took it ('http11', 'http10', 'h2')
 * @property {number} port           the listener's port
 * @property {string} connectionId   stable per TCP connection (HTTP/1.x) or session (h2)
 * @property {number|null} streamId  h2 stream id, null for HTTP/1.x
 * @property {string} [peer]         the client's IP:PORT ("[IPv6]:PORT"); for h3 the QUIC peer,
 *   whose address can change within one connection (absent for DataChannel sessions)
 */

/**
 * Logs req/res once the response is finished or the client went away.
 * @param {ConnectionInfo} info
 */
function logResponse(log, req, res, info) {
  const startedAt = new Date();
  const startedMono = machineMonotonicMs();
  let done = false;
  const write = (aborted) => {
    if (done) return;
    done = true;
    log.record({
      time: startedAt.toISOString(),
      mono: startedMono,
      protocol: info.protocol,
      listener: info.listener,
      port: info.port,
      connectionId: info.connectionId,
      streamId: info.streamId ?? null,
      method: req.method,
      path: req.url,
      range: req.headers.range || null,
      status: res.statusCode,
      bytes: res.labBodyBytes || 0,
      durationMs: Math.round((machineMonotonicMs() - startedMono) * 1e3) / 1e3,
      aborted,
      ...(info.peer ? { peer: info.peer } : {}),
    });
  };
  // Decided on 'close', which both APIs emit once per response, complete or not. 'finish'
  // cannot tell: node:http2's compatibility layer emits it even for a stream the client reset.
  res.on('close', () => write(wasCutShort(res)));
  // A response queued behind others on a pipelined HTTP/1.1 connection emits no 'close' when
  // the client drops the connection; its request does, so it is logged as aborted from there.
  req.once('close', () => {
    if (!res.writableFinished) write(true);
  });
}

/**
 * True when the response did not reach its end: not all of it was flushed (HTTP/1.x and h2),
 * or the h2 stream closed with an error code (RST_STREAM from the client, session torn down).
 */
function wasCutShort(res) {
  if (!res.writableFinished) return true;
  const rstCode = res.stream ? res.stream.rstCode : undefined;
  return rstCode !== undefined && rstCode !== 0; // 0 = NGHTTP2_NO_ERROR
}

/**
 * Logs a request the HTTP/1.x parser refused before any handler saw it (bad request line,
 * oversized headers, timeouts): the connection still carried a response, so it is counted.
 * @param {ConnectionInfo} info
 */
function logRejectedRequest(log, info, status) {
  log.record({
    time: new Date().toISOString(),
    mono: machineMonotonicMs(),
    protocol: info.protocol,
    listener: info.listener,
    port: info.port,
    connectionId: info.connectionId,
    streamId: null,
    method: null,
    path: null,
    range: null,
    status,
    bytes: 0,
    durationMs: 0,
    aborted: false,
  });
}

module.exports = { createRequestLog, logResponse, logRejectedRequest };
