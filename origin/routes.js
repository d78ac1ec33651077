'use strict';
// The origin's routes, defined once and used by every listener (HTTP/1.x through Express,
// HTTP/2 directly), so a response differs between listeners only in what the protocol itself
// changes.
const fs = require('node:fs');
const path = require('node:path');
const { serveDirectory } = require('./serve-file');
const { createByteSource } = require('./byte-source');
const { sendText, sendJson, sendBody } = require('./responses');
const { listContent } = require('./content/content-listing');
const { createLiveRoute } = require('./live/live-route');

/**
 * dash.js's browser build, exactly as published (never bundled or patched). dashjs's
 * "exports" hide package.json from require.resolve, so the package root is found by walking
 * up from its main entry, and the UMD directory is named explicitly: the entry a future
 * version exports for require() need not be the browser build.
 */
function dashjsBrowserDir() {
  let dir = path.dirname(require.resolve('dashjs'));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('dashjs: package root not found');
    dir = parent;
  }
  const umd = path.join(dir, 'dist', 'modern', 'umd');
  if (!fs.existsSync(path.join(umd, 'dash.all.min.js'))) throw new Error(`dashjs: ${umd}/dash.all.min.js is missing (npm ci)`);
  return umd;
}

function setCors(res) {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'Content-Range, Content-Length, Accept-Ranges, ETag, Last-Modified, Cache-Control');
  // Without it, Resource Timing hides nextHopProtocol and timings of cross-origin responses,
  // and the player could not tell which protocol carried a segment.
  res.setHeader('Timing-Allow-Origin', '*');
}

function answerPreflight(res) {
  res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Range, If-Range, If-None-Match, If-Modified-Since');
  res.setHeader('Access-Control-Max-Age', '86400');
  res.setHeader('Allow', 'GET, HEAD, OPTIONS');
  res.setHeader('Content-Length', '0');
  res.statusCode = 204;
  res.end();
}

/**
 * The path part of a request target, exactly as sent: no URL normalisation, which would
 * quietly turn "/content/../x" into "/x" and hide what was asked for (safe-path judges it).
 * The absolute form ("GET http://host/path") is accepted as RFC 9112 §3.2.2 requires.
 * @returns {string|null} null when the target is neither origin nor absolute form
 */
function requestPath(url) {
  if (typeof url !== 'string') return null;
  let target = url;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  if (absolute) target = target.slice(absolute[0].length) || '/';
  const p = target.split(/[?#]/, 1)[0];
  return p.startsWith('/') ? p : null;
}

/**
 * @param {object} ctx
 * @param {string} ctx.contentDir   content root (<preset>/manifest.mpd, segments, index.json)
 * @param {string} ctx.playerDir    the built player page (webpack output)
 * @param {() => object} ctx.info   listener URLs and certificate hashes for /api/info
 * @param {import('./file-cache').FileCache} [ctx.contentCache]  content kept in memory (none: read from disk)
 * @param {string|null} [ctx.linkStateFile]  the emulated link's settings as npm run lab keeps them (GET /api/link)
 * @returns {(req, res, connectionInfo) => void}
 */
function createRouter(ctx) {
  const content = serveDirectory(ctx.contentDir, { cache: ctx.contentCache || null });
  const player = serveDirectory(ctx.playerDir);
  const vendor = serveDirectory(dashjsBrowserDir());
  const bytes = createByteSource();
  const live = createLiveRoute({ contentDir: ctx.contentDir, serveContent: content });
  const playerIndex = path.join(ctx.playerDir, 'index.html');

  const servePlayer = (req, res, rest) => {
    // Checked per request (asynchronously): `npm run build` may run while the origin is up.
    fs.access(playerIndex, (err) => {
      if (err) return sendText(res, 503, `the player page is not built (${playerIndex} is missing): run "npm run build"\n`);
      return player(req, res, rest === '' ? 'index.html' : rest);
    });
  };

  const routes = [
    { path: '/healthz', exact: true, handle: (req, res) => sendText(res, 200, 'ok\n') },
    // Browsers ask for it on every page load; a 404 would show up as a console error in every
    // scripted run and hide real ones.
    {
      path: '/favicon.ico',
      exact: true,
      handle: (req, res) => {
        res.statusCode = 204;
        res.end();
      },
    },
    {
      path: '/api/info',
      exact: true,
      handle: (req, res, info) =>
        sendJson(res, 200, {
          ...ctx.info(),
          requestProtocol: info.protocol,
          listener: info.listener,
          content: listContent(ctx.contentDir),
        }),
    },
    // What the emulated link in front of this origin is set to now (npm run lab rewrites the
    // file on every change): the page draws its rate beside the measured throughput.
    {
      path: '/api/link',
      exact: true,
      handle: (req, res) => {
        if (!ctx.linkStateFile) return sendText(res, 404, 'no emulated link is known to this origin (npm run lab tells it about its link)\n');
        return fs.readFile(ctx.linkStateFile, 'utf8', (err, text) => {
          if (err) return sendText(res, 503, `the link's state is not readable yet: ${err.code}\n`);
          return sendBody(res, 200, 'application/json; charset=utf-8', text);
        });
      },
    },
    { path: '/content/', handle: (req, res, info, rest) => content(req, res, rest) },
    // Every content as a live broadcast: /live/<start ms>/<content>/manifest.mpd (live/live-path.js).
    { path: '/live/', handle: (req, res, info, rest) => live(req, res, rest) },
    // n deterministic bytes, Range-capable: the unbounded source of throughput runs (byte-source.js).
    { path: '/bytes/', handle: (req, res, info, rest) => bytes(req, res, rest) },
    { path: '/vendor/', handle: (req, res, info, rest) => vendor(req, res, rest) },
    {
      path: '/player',
      exact: true,
      handle: (req, res) => {
        res.setHeader('Location', '/player/'); // relative asset URLs need the trailing slash
        sendText(res, 301, 'see /player/\n');
      },
    },
    { path: '/player/', handle: (req, res, info, rest) => servePlayer(req, res, rest) },
    // The page at the root too, so the printed URL is short; its assets are relative, so the
    // same page works from "/" and "/player/".
    { path: '/', handle: (req, res, info, rest) => servePlayer(req, res, rest) },
  ];

  return function route(req, res, info) {
    setCors(res);
    if (req.method === 'OPTIONS') return answerPreflight(res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      return sendText(res, 405, `method ${req.method} not allowed\n`);
    }
    const rawPath = requestPath(req.url);
    if (rawPath === null) return sendText(res, 400, 'request target must be an absolute path\n');
    for (const r of routes) {
      if (r.exact ? rawPath === r.path : rawPath.startsWith(r.path)) {
        return r.handle(req, res, info, rawPath.slice(r.path.length));
      }
    }
    return sendText(res, 404, 'not found\n');
  };
}

module.exports = { createRouter, setCors, requestPath };
