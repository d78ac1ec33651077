'use strict';
// Batch "fdsp-frames": malformed FDSP frames over real DataChannels (node-datachannel as the
// browser's side). Each session gets up to 10 structurally broken frames (truncated, bit-
// flipped, wrong magic/version/type/offset, server-only types, oversized or invalid-UTF-8
// JSON, bad REQUEST fields, random bytes, text messages, anything on the unreliable channel),
// each answered with an ERROR, mixed with well-formed REQUESTs that are hostile in what they
// ask (traversal and malformed URLs, absurd ranges, BP and deadlines, duplicate and extreme
// ids, CANCELs): those must get a HEAD or a 4xx ERROR, never a 5xx or a byte from outside the
// content root. Controls must arrive byte for byte. One session in four sends an 11th broken
// frame, and the origin must then close it (documented: more than 10 close the session). One
// session floods 5,000 REQUESTs, at most 15 open at once, and must be closed or refused; 40
// peers vanish in the middle of large responses.
const frames = require('../../../shared/fdsp/frames');
const { openFdspSession, SessionRefused } = require('../fdsp-session');
const { hostilePath } = require('../hostile-paths');
const { runPool } = require('../run-pool');
const { describe } = require('../batch-record');

const LANES = 8;
const STRIKES_TOLERATED = 10;
const SEMANTIC_PER_SESSION = 10;
const FLOOD_REQUESTS = 5000;
const FLOOD_WINDOW = 15; // below the origin's 16 open requests, so a 429 can only be a flood limit
const FLOOD_MAX_MS = 10000;
const KNOWN_URLS = ['http://[', 'http://[::1', 'http://x:99999/content/media/manifest.mpd', '/content/%', '/content/%zz', 'file:///etc/passwd', '//evil.invalid/content/media/manifest.mpd', 'javascript:alert(1)', 'data:,x', 'blob:x', '/content/media/escape.txt', '/content/media/outside-dir/secret.txt', '/content/media/passwd', '/content/media/chunk-1-00002.m4s', '/content/%2e%2e/outside/secret.txt', '/content/media/%2e%2e%2f%2e%2e%2foutside/secret.txt', '/content/\u0000', '/content/media/.hidden', 'http://x/content/../outside/secret.txt', '/content/big/chunk-2-00001.m4s'];

const enc = new TextEncoder();

function rawFrame(type, requestId, offset, payload, { magic = frames.MAGIC, version = frames.VERSION, flags = 0 } = {}) {
  const body = typeof payload === 'string' ? enc.encode(payload) : payload;
  const out = new Uint8Array(frames.HEADER_BYTES + body.length);
  const view = new DataView(out.buffer);
  out[0] = magic;
  out[1] = version;
  out[2] = type;
  out[3] = flags;
  view.setUint32(4, requestId >>> 0);
  view.setUint32(8, offset >>> 0);
  out.set(body, frames.HEADER_BYTES);
  return out;
}

/** What the origin will make of a message: a strike (ERROR 400, counted), a REQUEST, a CANCEL or an ACK. */
function classify(message, channel) {
  if (channel === 'unreliable' || typeof message === 'string') return { kind: 'strike' };
  try {
    const f = frames.decodeFrame(message);
    if (f.type === 'REQUEST') return { kind: 'request', requestId: f.requestId, payload: f.payload };
    if (f.type === 'CANCEL') return { kind: 'cancel', requestId: f.requestId };
    // An ACK is never refused (one for no frame in flight does nothing): a broken frame that
    // came out as one is not a strike.
    if (f.type === 'ACK') return { kind: 'ack' };
    return { kind: 'strike' };
  } catch (err) {
    if (err instanceof frames.FrameError) return { kind: 'strike' };
    throw err;
  }
}

function badRequestPayload(prng) {
  return prng.pick([
    () => ({}),
    () => ({ url: '', bp: 100 }),
    () => ({ url: 5, bp: 100 }),
    () => ({ url: 'x'.repeat(2049), bp: 100 }),
    () => ({ url: '/content/media/manifest.mpd', bp: prng.pick([-1, 101, '50', null, true]) }),
    () => ({ url: '/content/media/manifest.mpd', bp: 100, range: prng.pick([[5, 1], [-1, 2], [1.5, 2], [1, 2, 3], '0-10', [null, 1], [0], {}]) }),
    () => ({ url: '/content/media/manifest.mpd', bp: 100, deadlineMs: prng.pick([-1, '1', true, [], {}]) }),
    () => ({ url: { toString: 1 }, bp: 100 }),
  ])();
}

/** A structurally broken message: {message: Uint8Array|string, channel}. */
function brokenFrame(prng) {
  const id = prng.int(1, 999);
  const good = rawFrame(frames.TYPES.REQUEST, id, 0, JSON.stringify({ url: '/content/media/manifest.mpd', range: null, bp: 100, deadlineMs: null }));
  const pick = prng.pick([
    () => new Uint8Array(0),
    () => good.subarray(0, prng.int(1, frames.HEADER_BYTES - 1)),
    () => good.subarray(0, prng.int(frames.HEADER_BYTES, good.length - 1)),
    () => rawFrame(frames.TYPES.REQUEST, id, 0, good.subarray(frames.HEADER_BYTES), { magic: prng.int(0, 0xfc) }),
    () => rawFrame(frames.TYPES.REQUEST, id, 0, good.subarray(frames.HEADER_BYTES), { version: prng.pick([0, 2, 255]) }),
    () => rawFrame(prng.pick([0, 3, 15, 20, 99, 255]), id, 0, '{}'),
    () => rawFrame(prng.pick([frames.TYPES.HEAD, frames.TYPES.DATA, frames.TYPES.END, frames.TYPES.ERROR]), id, prng.pick([0, 5]), '{"status":200}'),
    () => rawFrame(prng.pick([frames.TYPES.REQUEST, frames.TYPES.CANCEL, frames.TYPES.STALL]), id, prng.int(1, 2 ** 32 - 1), '{}'),
    () => rawFrame(frames.TYPES.STALL, prng.pick([0, id]), 0, prng.pick(['{}', '{"stalled":1}', '{"stalled":"true"}', '{"stalled":null}', '[]'])),
    () => rawFrame(frames.TYPES.ACK, id, prng.int(0, 2 ** 32 - 1), prng.pick(['{}', 'x', '{"offset":0}'])),
    () => rawFrame(frames.TYPES.REQUEST, id, 0, JSON.stringify({ url: '/x', bp: 100, pad: 'x'.repeat(prng.int(8200, 60000)) })),
    () => rawFrame(frames.TYPES.REQUEST, id, 0, new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
    () => rawFrame(frames.TYPES.REQUEST, id, 0, prng.pick(['[]', '1', '"s"', 'null', 'true', '{', '{"url":'])),
    () => rawFrame(frames.TYPES.REQUEST, id, 0, JSON.stringify(badRequestPayload(prng))),
    () => new Uint8Array(prng.bytes(prng.chance(0.95) ? prng.length(2000) : prng.int(60000, 250000))),
    () => {
      const f = Uint8Array.from(good);
      for (let k = prng.int(1, 4); k > 0; k -= 1) f[prng.int(0, f.length - 1)] ^= 1 << prng.int(0, 7);
      return f;
    },
    () => 'GET / HTTP/1.1',
    () => new Uint8Array([frames.MAGIC, frames.VERSION]),
  ])();
  const channel = prng.chance(0.08) ? 'unreliable' : 'reliable';
  return { message: pick, channel };
}

/** A well-formed REQUEST (or CANCEL) with a hostile or control content. */
function hostileRequest(prng, tree, nextId, forceUrl) {
  const r = prng.next();
  if (!forceUrl && r < 0.12) {
    // Control: a file sent wholly reliably (no priority map, or a range), byte for byte.
    const rel = prng.pick([tree.smallPath, 'media/manifest.mpd', 'media/init-1.m4s', tree.segmentPath]);
    const size = tree.files.get(rel).length;
    const range = rel === tree.segmentPath || prng.chance(0.3) ? [prng.int(0, size - 1), prng.int(0, size * 2)].sort((a, b) => a - b) : null;
    if (range && range[0] >= size) range[0] = size - 1;
    return { id: nextId(), payload: { url: `/content/${rel}`, range, bp: prng.int(0, 100), deadlineMs: null }, control: rel };
  }
  if (!forceUrl && r < 0.2) return { id: prng.pick([prng.int(1, 999), 0, 2 ** 32 - 1]), cancel: true };
  let url = forceUrl || (prng.chance(0.4) ? prng.pick(KNOWN_URLS) : hostilePath(prng, tree).path);
  if (url.length > 2048) url = url.slice(0, 2048);
  const payload = {
    url,
    range: prng.chance(0.7) ? null : prng.pick([[0, 0], [0, 2 ** 53 - 1], [2 ** 53 - 1, 2 ** 53 - 1], [1e308, 1e308], [0, 1e308], [65536, 65600], [100, 99999]]),
    bp: prng.pick([0, 100, 50, 0.5, 99.999, 1e-300]),
    deadlineMs: prng.pick([null, null, 0, 1e308, 0.0001, 2 ** 31]),
  };
  return { id: prng.chance(0.05) ? prng.pick([0, 2 ** 32 - 1]) : nextId(), payload };
}

function encodeRequestFrame(id, payload) {
  return rawFrame(frames.TYPES.REQUEST, id, 0, JSON.stringify(payload));
}

async function openSession(ctx, address, onData) {
  let failures = 0;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      return await openFdspSession(ctx.urls.fdsp, { localAddress: address, onData });
    } catch (err) {
      if (!ctx.alive()) throw err;
      if (err instanceof SessionRefused) {
        ctx.rec.status(err.status, { channel: 'ws-upgrade', what: 'DataChannel session' });
      } else {
        // ICE or DTLS giving up on loopback happens on a machine this loaded; three times
        // in a row for one session does not.
        failures += 1;
        ctx.rec.see('session setup retried');
        if (failures >= 3) throw err;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('the origin refused 20 DataChannel sessions in a row');
}

/** One session: its frames, their answers, the strike limit (sometimes). */
async function runSession(ctx, plan, address) {
  const { rec, tree } = ctx;
  const urlOf = new Map(plan.items.filter((it) => it.payload).map((it) => [it.id, it.payload.url]));
  const leaked = new Set(); // one failure per request, not one per DATA frame
  const scan = (bytes, f) => !leaked.has(f.requestId) && rec.scan(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), `DataChannel REQUEST ${describe(urlOf.get(f.requestId) ?? `#${f.requestId}`, 80)} (DATA at ${f.offset}, session ${plan.index})`) && leaked.add(f.requestId);
  const session = await openSession(ctx, address, scan);
  const answers = [];
  let strikes = 0;
  let sentFrames = 0;
  try {
    for (const item of plan.items) {
      if (!session.open) break;
      if (item.strike) {
        if (!session.send(item.message, item.channel)) {
          rec.see('refused by the client stack');
          continue;
        }
        strikes += 1;
      } else if (item.cancel) {
        session.send(frames.encodeCancel(item.id));
        if (item.id !== undefined) session.forget(item.id);
      } else {
        const answer = session.expect(item.id, 15000);
        session.send(encodeRequestFrame(item.id, item.payload));
        answers.push(answer.then((a) => ({ item, a })));
        if (item.cancelRightAway) {
          session.send(frames.encodeCancel(item.id));
          session.forget(item.id);
        }
      }
      sentFrames += 1;
    }
    rec.case(sentFrames);
    for (const { item, a } of await Promise.all(answers)) {
      const what = `DataChannel REQUEST ${describe(item.payload.url, 80)} (range ${JSON.stringify(item.payload.range)}, bp ${item.payload.bp}) in session ${plan.index}`;
      if (a.cancelled) rec.see('cancelled');
      else if (a.duplicateId) rec.see('id reused while open');
      else if (a.closed) rec.see('session closed before the answer');
      else if (a.timedOut) rec.fail(`no answer within 15 s to ${what}`, { kind: 'no answer' });
      else {
        rec.status(a.status, { channel: 'datachannel', path: item.payload.url, what, body: a.error });
        if (item.control) checkControl(rec, tree, item, a, what);
      }
    }
    // The ERRORs for the broken frames (they carry no open request).
    const until = Date.now() + 3000;
    while (session.open && session.loneErrors.length < strikes && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    for (const e of session.loneErrors) rec.status(Number.isInteger(e.status) ? e.status : null, { channel: 'datachannel', what: `broken frame in session ${plan.index}: ${describe(e.message, 80)}` });
    if (session.closedByOrigin) rec.see(strikes > STRIKES_TOLERATED ? 'session closed (strike limit)' : 'session closed early');
    else if (plan.checkLimit) {
      // Documented: more than 10 malformed frames close the session.
      const { message, channel } = plan.limitFrame;
      for (let k = strikes; k <= STRIKES_TOLERATED; k += 1) {
        session.send(message, channel);
        rec.case();
      }
      if (await session.closedWithin(3000)) rec.see('session closed (strike limit)');
      else rec.fail(`session ${plan.index} still open 3 s after ${STRIKES_TOLERATED + 1} malformed frames (documented: more than ${STRIKES_TOLERATED} close it)`, { kind: 'strike limit' });
    }
  } finally {
    await session.close();
  }
}

function checkControl(rec, tree, item, a, what) {
  const file = tree.files.get(item.control);
  const [first, last] = item.payload.range || [0, file.length - 1];
  const want = file.subarray(first, Math.min(last + 1, file.length));
  if (a.status !== 200 || !a.body || !Buffer.from(a.body).equals(want)) rec.fail(`control ${what} got ${a.status} with ${a.body ? a.body.length : 0} bytes, not 200 with the ${want.length} bytes of ${item.control}`, { kind: 'control' });
}

/** 5,000 REQUESTs as fast as the window allows: the origin must close the session or refuse some. */
async function flood(ctx, address) {
  const { rec, tree } = ctx;
  const session = await openSession(ctx, address);
  let sent = 0;
  let served = 0;
  let limited = 0;
  const open = new Set();
  const started = Date.now();
  try {
    const url = `/content/${tree.smallPath}`;
    await new Promise((resolve) => {
      const pumpMore = () => {
        while (session.open && open.size < FLOOD_WINDOW && sent < FLOOD_REQUESTS && Date.now() - started < FLOOD_MAX_MS) {
          const id = 5000000 + sent;
          sent += 1;
          open.add(id);
          session.expect(id, 15000).then((a) => {
            open.delete(id);
            if (a.status === 200) served += 1;
            else if (a.status === 429 || a.status === 503) limited += 1;
            if (a.status !== null) rec.status(a.status, { channel: 'datachannel', path: url, what: `flood REQUEST #${id - 5000000}`, body: a.error });
            pumpMore();
          });
          session.send(encodeRequestFrame(id, { url, range: null, bp: 100, deadlineMs: null }));
        }
        if (open.size === 0) resolve();
      };
      pumpMore();
    });
    if (!session.open) await session.closedWithin(1000);
  } finally {
    const closed = session.closedByOrigin;
    await session.close();
    const seconds = (Date.now() - started) / 1000;
    const summary = `${sent} REQUESTs in ${seconds.toFixed(1)} s: ${served} served, ${limited} refused (429/503), session ${closed ? 'closed by the origin' : 'left open'}`;
    if (closed || limited > 0) rec.note(`flood limited: ${summary}`);
    else if (sent >= FLOOD_REQUESTS) rec.fail(`flood never limited: ${summary}`);
    else rec.note(`flood could not reach ${FLOOD_REQUESTS} REQUESTs within ${FLOOD_MAX_MS / 1000} s: ${summary}`);
    rec.see(closed ? 'flood: session closed' : limited ? 'flood: refused' : 'flood: all served');
  }
}

/**
 * Known case: peers that vanish in the middle of large responses, at staggered moments, four
 * at a time. The origin once aborted (a native exception from sending on the closed channel);
 * the race is narrow, so it gets 40 chances.
 */
async function dropMidResponse(ctx) {
  const { rec, tree } = ctx;
  const moments = [0, 5, 10, 20, 30, 50, 75, 100, 150, 200];
  await runPool(40, 4, async (i, lane) => {
    const session = await openSession(ctx, `127.0.0.${40 + lane}`);
    for (let k = 0; k < 4; k += 1) session.send(encodeRequestFrame(100 + k, { url: `/content/${tree.longPath}`, range: null, bp: 100, deadlineMs: null }));
    await new Promise((r) => setTimeout(r, moments[i % moments.length]));
    session.drop();
    await new Promise((r) => setTimeout(r, 300));
    await session.close();
    rec.see('peer dropped mid-response');
  }, () => !ctx.alive());
}

async function run(ctx) {
  const { prng, tree } = ctx;
  let nextRequestId = 1000;
  const nextId = () => nextRequestId++;
  // Plan every session up front (the dice do not depend on timing): items until count frames.
  const plans = [];
  const known = [...KNOWN_URLS];
  for (let frames_ = 0, index = 0; frames_ < ctx.count; index += 1) {
    const items = [];
    let strikes = 0;
    while (items.length < STRIKES_TOLERATED + SEMANTIC_PER_SESSION) {
      if (strikes < STRIKES_TOLERATED && prng.chance(0.5)) {
        const b = brokenFrame(prng);
        if (classify(b.message, b.channel).kind !== 'strike') continue;
        items.push({ strike: true, ...b });
        strikes += 1;
      } else if (items.length - strikes < SEMANTIC_PER_SESSION) {
        const h = hostileRequest(prng, tree, nextId, known.shift());
        if (h.cancel) items.push(h);
        else {
          const c = classify(encodeRequestFrame(h.id, h.payload), 'reliable');
          if (c.kind === 'strike') {
            if (strikes >= STRIKES_TOLERATED) continue;
            items.push({ strike: true, message: encodeRequestFrame(h.id, h.payload), channel: 'reliable' });
            strikes += 1;
          } else items.push({ ...h, cancelRightAway: prng.chance(0.05) });
        }
      }
    }
    frames_ += items.length;
    let limitFrame;
    do limitFrame = brokenFrame(prng); while (classify(limitFrame.message, limitFrame.channel).kind !== 'strike');
    plans.push({ index, items, checkLimit: index % 4 === 0, limitFrame });
  }
  try {
    await flood(ctx, '127.0.0.30');
  } catch (err) {
    if (ctx.alive()) ctx.rec.fail(`flood: ${err.message}`);
  }
  await runPool(plans.length, LANES, async (i, lane) => {
    try {
      await runSession(ctx, plans[i], `127.0.0.${10 + lane}`);
    } catch (err) {
      if (ctx.alive()) ctx.rec.fail(`session ${i}: ${err.message}`, { kind: 'session setup' });
    }
  }, ctx.shouldStop);
  // Last, so that an origin it takes down has answered every frame above first.
  ctx.endOfCases();
  try {
    await dropMidResponse(ctx);
  } catch (err) {
    if (ctx.alive()) ctx.rec.fail(`peers dropped mid-response: ${err.message}`);
  }
}

module.exports = {
  name: 'fdsp-frames',
  title: 'malformed FDSP frames (real DataChannel)',
  targets: ['http11'],
  defaultCount: 10000,
  run,
  classify,
  brokenFrame,
};
