'use strict';
// The origin's routes, defined once and used by every listener (HTTP/1.1 through Express,
// HTTP/1.0-style and HTTP/2 directly), so a response differs between listeners only in what
// the protocol itself changes.
const fs = require('node:fs');
const path = require('node:path');
const { serveDirectory } = require('./serve-file');
const { sendText, sendJson } = require('./responses');
const { listContent } = require('./content/content-listing');

const DASHJS_DIST = path.dirname(require.resolve('dashjs'));

function setCors(res) {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'Content-Range, Content-Length, Accept-Ranges, ETag, Last-Modified');
  // Without it, Resource Timing hides nextHopProtocol and timings of cross-origin responses,
  // and the player could not tell which protocol carried a segment.
  res.setHeader('Timing-Allow-Origin', '*');
}

/**
 * @param {object} ctx  { contentDir, playerDir, info(): object }
 * @returns {(req, res, requestInfo) => void}
 */
function createRouter(ctx) {
  const content = serveDirectory(ctx.contentDir);
  const player = serveDirectory(ctx.playerDir);
  const vendor = serveDirectory(DASHJS_DIST);

  const routes = [
    { prefix: '/healthz', exact: true, handle: (req, res) => sendText(res, 200, 'ok\n') },
    {
      prefix: '/api/info',
      exact: true,
      handle: (req, res, info) =>
        sendJson(res, 200, { ...ctx.info(), requestProtocol: info.protocol, listener: info.listener, content: listContent(ctx.contentDir) }),
    },
    { prefix: '/content/', handle: (req, res, info, rest) => content(req, res, rest) },
    // Stock dash.js exactly as published, never bundled or patched.
    { prefix: '/vendor/', handle: (req, res, info, rest) => vendor(req, res, rest) },
    {
      prefix: '/',
      handle: (req, res, info, rest) => {
        if (!fs.existsSync(path.join(ctx.playerDir, 'index.html'))) {
          return sendText(res, 503, `the player page is not built (${ctx.playerDir} is missing): run "npm run build"\n`);
        }
        return player(req, res, rest === '' ? 'index.html' : rest);
      },
    },
  ];

  return function route(req, res, info) {
    setCors(res);
    // Keep the path exactly as sent: no URL normalisation, which would quietly turn
    // "/content/../x" into "/x" and hide what was asked for. safe-path judges it.
    const rawUrl = typeof req.url === 'string' ? req.url : '';
    const rawPath = rawUrl.split('?')[0].split('#')[0];
    if (!rawPath.startsWith('/')) return sendText(res, 400, 'request target must be an absolute path\n');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Range, If-Range, If-None-Match, If-Modified-Since');
      res.setHeader('Access-Control-Max-Age', '86400');
      res.statusCode = 204;
      return res.end();
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      return sendText(res, 405, `method ${req.method} not allowed\n`);
    }
    for (const r of routes) {
      if (r.exact ? rawPath === r.prefix : rawPath.startsWith(r.prefix)) {
        return r.handle(req, res, info, rawPath.slice(r.prefix.length));
      }
    }
    return sendText(res, 404, 'not found\n');
  };
}

module.exports = { createRouter, setCors };
