'use strict';
// Small responses shared by every handler and listener (HTTP/1.x and HTTP/2 alike), written
// against the part of the response API that node:http and node:http2's compatibility layer
// share.

/**
 * True once the client has gone away: the HTTP/1.x response (with its socket) or the HTTP/2
 * stream is destroyed. Writing then is harmless but opening files for it is wasted work.
 */
function clientGone(res) {
  return res.destroyed === true || Boolean(res.stream && res.stream.destroyed);
}

function sendBody(res, status, contentType, body) {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body);
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(buf.length));
  // Error pages and API answers describe this moment, not a file: never let a cache keep them.
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-store');
  const isHead = res.req && res.req.method === 'HEAD';
  res.labBodyBytes = isHead ? 0 : buf.length;
  res.end(isHead ? undefined : buf);
}

function sendText(res, status, text) {
  sendBody(res, status, 'text/plain; charset=utf-8', text);
}

function sendJson(res, status, value) {
  sendBody(res, status, 'application/json; charset=utf-8', `${JSON.stringify(value, null, 2)}\n`);
}

module.exports = { clientGone, sendBody, sendText, sendJson };
