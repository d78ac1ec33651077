'use strict';
// Small responses shared by every handler and listener (HTTP/1.x and HTTP/2 alike).

function sendBody(res, status, contentType, body) {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body);
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(buf.length));
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-store');
  res.labBodyBytes = buf.length;
  res.end(res.req && res.req.method === 'HEAD' ? undefined : buf);
}

function sendText(res, status, text) {
  sendBody(res, status, 'text/plain; charset=utf-8', text);
}

function sendJson(res, status, value) {
  sendBody(res, status, 'application/json; charset=utf-8', `${JSON.stringify(value, null, 2)}\n`);
}

module.exports = { sendBody, sendText, sendJson };
