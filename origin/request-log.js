'use strict';
// The per-request log: one NDJSON line per response, so protocol overhead and link
// utilization can be computed later from what the origin really sent. Lines go to a file
// through a write stream (never a synchronous write on the response path) and/or to an
// in-memory sink.
const fs = require('node:fs');
const path = require('node:path');

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
    close() {
      return new Promise((resolve) => {
        if (!stream) return resolve();
        stream.end(resolve);
        stream = null;
      });
    },
  };
}

/**
 * Logs req/res once the response is finished or the client went away.
 * @param {object} info  { protocol, listener, port, connectionId, streamId }
 */
function logResponse(log, req, res, info) {
  const started = process.hrtime.bigint();
  const startedAt = new Date();
  let done = false;
  const write = (aborted) => {
    if (done) return;
    done = true;
    log.record({
      time: startedAt.toISOString(),
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
      durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      aborted,
    });
  };
  res.on('finish', () => write(false));
  res.on('close', () => write(!res.writableFinished));
}

module.exports = { createRequestLog, logResponse };
