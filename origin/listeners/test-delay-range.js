'use strict';
// TEST HOOK, off unless asked for (`--test-delay-range PATH,START,MS[,TIMES]`, or
// startOrigin({testDelayRange: {path, start, ms, times}})): the HTTP/1.1 pool holds the first
// TIMES (default 1) GET requests for PATH whose Range starts at byte START for MS ms before
// answering them. It stalls one chunk of the parallel transport on purpose, so a test can watch
// the chunk time out, be fetched again on another stream, and the faster copy win
// (test/integration/parallel-transport-origin.test.js). Nothing else is changed: the held
// request is then served and logged like any other (its durationMs shows the hold; a client
// that gave up shows as aborted).

/** "PATH,START,MS[,TIMES]" -> {path, start, ms, times}; throws a message on anything else. */
function parseDelayRange(text) {
  const m = /^(\/[^,\s]*),(\d{1,12}),(\d{1,6})(?:,(\d{1,4}))?$/.exec(String(text));
  if (!m) throw new Error(`must be PATH,START,MS[,TIMES] (e.g. /content/sample/video/1/chunk-00002.m4s,20480,8000), got "${text}"`);
  const spec = { path: m[1], start: Number(m[2]), ms: Number(m[3]), times: m[4] === undefined ? 1 : Number(m[4]) };
  if (!(spec.ms >= 1 && spec.times >= 1)) throw new Error(`needs MS and TIMES of at least 1, got "${text}"`);
  return spec;
}

/** The router, holding matching requests first; the router itself when spec is null. */
function delayRangeRouter(router, spec) {
  if (!spec) return router;
  let left = spec.times ?? 1;
  return (req, res, info) => {
    const range = /^bytes=(\d+)-/.exec(req.headers.range || '');
    const path = String(req.url).split('?', 1)[0];
    if (left <= 0 || req.method !== 'GET' || path !== spec.path || !range || Number(range[1]) !== spec.start) return router(req, res, info);
    left -= 1;
    const timer = setTimeout(() => {
      if (!res.destroyed && !res.writableEnded) router(req, res, info);
    }, spec.ms);
    // The client may give up first (the parallel transport aborts the late copy).
    res.once('close', () => clearTimeout(timer));
    return undefined;
  };
}

module.exports = { parseDelayRange, delayRangeRouter };
