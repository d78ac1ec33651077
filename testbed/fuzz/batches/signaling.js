'use strict';
// Batch "signaling": malformed messages on the WebSocket signaling endpoint (/fdsp): text
// that is not JSON, JSON that is not an object, message types of every JSON type and of
// non-ASCII text of every length (a close reason cut in the middle of a multi-byte character
// once took the origin down), offers without or with garbage SDP (mutations of a real offer),
// candidates before and after an offer, second offers, binary frames, invalid UTF-8, deep
// nesting and messages up to 1 MB. Each WebSocket gets one script of 1-20 messages; parallel
// sockets come from 127.0.0.2-7 (the origin allows 4 sessions per address). Every ICE
// candidate sent is loopback-only (loopback-only.js).
const nodeDataChannel = require('node-datachannel');
const WebSocket = require('ws');
const { loopbackCandidate, loopbackSdp, LOOPBACK } = require('../loopback-only');
const { runPool } = require('../run-pool');
const { describe } = require('../batch-record');

const CLIENT_ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
const WIDE = ['é', '€', '\u{1F600}', '中', '\u202e', 'e\u0301', '\ud800', '\udfff', '\u0000', '\ufeff', 'ß', '\u00a0'];

/** A real offer from node-datachannel (loopback only), the seed of the SDP mutations. */
async function captureOffer() {
  const pc = new nodeDataChannel.PeerConnection('lab-fuzz-offer', { iceServers: [], bindAddress: '127.0.0.1', disableAutoNegotiation: true });
  try {
    pc.createDataChannel('fdsp-reliable', { negotiated: true, id: 0 });
    const candidates = [];
    const sdp = await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no local offer within 5 s')), 5000);
      let offer = null;
      pc.onLocalDescription((s) => { offer = s; });
      pc.onLocalCandidate((c) => candidates.push(c));
      pc.onGatheringStateChange((state) => {
        if (state === 'complete') {
          clearTimeout(t);
          resolve(offer || pc.localDescription().sdp);
        }
      });
      pc.setLocalDescription('offer');
    });
    return { sdp, candidates: candidates.length ? candidates : ['a=candidate:1 1 UDP 2122317823 127.0.0.1 50000 typ host'] };
  } finally {
    pc.close();
  }
}

const SDP_LINES = ['a=fingerprint:sha-256 ZZ', 'a=fingerprint:md5 00', 'm=application 0 UDP/DTLS/SCTP webrtc-datachannel', 'a=sctp-port:-1', 'a=sctp-port:70000', 'a=max-message-size:0', 'a=max-message-size:99999999999999999999', 'a=setup:garbage', 'a=setup:active', 'a=ice-ufrag:', 'a=ice-pwd:', 'a=mid:', 'v=1', 'o=- 0 0 IN IP4 127.0.0.1', 'a=group:BUNDLE 0 1 2 3', 'm=video 9 RTP/AVP 96', 'a=rtpmap:96 H264/90000', 'a=end-of-candidates', 'a=ice-options:trickle', 'm=', 'a=', '=', 'a=candidate:1 1 UDP 1 127.0.0.1 9 typ host', 'a=candidate:x', 'b=AS:-1', 't=0 -1'];

function mutateSdp(prng, sdp) {
  let lines = sdp.split('\r\n');
  for (let k = prng.int(1, 5); k > 0; k -= 1) {
    const at = prng.int(0, Math.max(0, lines.length - 1));
    const r = prng.next();
    if (r < 0.2) lines.splice(at, 1);
    else if (r < 0.3) lines.splice(at, 0, lines[at]);
    else if (r < 0.5) lines.splice(at, 0, prng.pick(SDP_LINES));
    else if (r < 0.65) {
      const l = [...(lines[at] || '')];
      if (l.length) l[prng.int(0, l.length - 1)] = String.fromCharCode(prng.int(0x20, 0x7e));
      lines[at] = l.join('');
    } else if (r < 0.75) lines[at] = `${lines[at] || ''}${prng.pick(WIDE).repeat(prng.int(1, 50))}`;
    else if (r < 0.85) lines[at] = (lines[at] || '').replace(/\d+/g, () => prng.pick(['0', '-1', '4294967296', '9'.repeat(prng.int(10, 200))]));
    else if (r < 0.92) lines[at] = `a=${'x'.repeat(prng.pick([100, 1000, 20000]))}`;
    else lines = lines.slice(0, at);
  }
  const text = lines.join(prng.chance(0.9) ? '\r\n' : '\n');
  return loopbackSdp(prng.chance(0.1) ? text.slice(0, prng.int(0, text.length)) : text);
}

function garbageCandidate(prng, real) {
  const r = prng.next();
  let c;
  if (r < 0.3) c = real.replace(/\d+/g, () => prng.pick(['0', '65536', '-1', '99999999999']));
  else if (r < 0.5) c = `candidate:${prng.string(prng.length(200), 'abc 0123456789.:;/UDPTCPtyphostsrflxrelay')}`;
  else if (r < 0.7) c = `candidate:1 1 ${prng.pick(['UDP', 'TCP', 'SCTP', 'x', ''])} ${prng.int(0, 2 ** 32)} ${prng.pick(LOOPBACK)} ${prng.pick([0, 9, 65535, 65536, -1])} typ ${prng.pick(['host', 'srflx', 'relay', 'prflx', 'bogus', ''])}`;
  else if (r < 0.8) c = '';
  else c = `${real} ${'x'.repeat(prng.int(1, 5000))}`;
  return loopbackCandidate(c);
}

/** One WebSocket's worth of messages: [{data, binary}]. */
function script(prng, offer) {
  const msg = (data, binary = false) => ({ data, binary });
  const json = (v) => msg(JSON.stringify(v));
  const goodOffer = () => json({ type: 'offer', sdp: offer.sdp });
  const r = prng.next();
  if (r < 0.12) {
    const valid = JSON.stringify({ type: 'offer', sdp: offer.sdp });
    return [msg(prng.pick([
      () => prng.string(prng.length(2000), 'abc{}[]":,\\ 0123456789nultrefas\u00e9\u20ac'),
      () => valid.slice(0, prng.int(0, valid.length - 1)),
      () => '{oops',
      () => '',
      () => ' \t\n',
      () => `\ufeff${valid}`,
      () => `${valid}garbage`,
      () => '{"type":"offer","type":"candidate"}',
      () => '{"type": "offer", "sdp": "\\ud800"}',
    ])())];
  }
  if (r < 0.2) return [msg(prng.pick(['null', '[]', '1', '"offer"', 'true', '[{"type":"offer"}]', '-0', '1e999', '{}']))];
  if (r < 0.45) {
    const n = prng.pick([1, 2, 39, 40, 41, 60, 61, 62, 90, prng.int(1, 300)]);
    const type = prng.pick([
      () => prng.pick(WIDE).repeat(n),
      () => prng.string(n, WIDE),
      () => prng.int(-1e6, 1e6),
      () => null,
      () => true,
      () => [],
      () => ({ type: 'offer' }),
      () => '',
      () => 'OFFER',
      () => 'offer ',
      () => 'candidate\u0000',
      () => '__proto__',
      () => 'constructor',
      () => 'toString',
      () => 'x'.repeat(prng.pick([100, 1000, 60000])),
    ])();
    return [json({ type })];
  }
  if (r < 0.55) {
    const sdp = prng.pick([undefined, 42, null, {}, [], '', '\u0000', 'x'.repeat(prng.pick([1000, 60000])), `${offer.sdp}${'é'.repeat(prng.int(1, 30000))}`]);
    // "__proto__" as a real key (an object literal would set the prototype instead).
    if (prng.chance(0.2)) return [msg(`{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"type":"offer","sdp":${JSON.stringify(sdp ?? null)}}`)];
    return [json({ type: 'offer', sdp })];
  }
  if (r < 0.75) return [json({ type: 'offer', sdp: mutateSdp(prng, offer.sdp) })];
  if (r < 0.85) {
    // Candidates: before the offer, or after a good one, with odd fields.
    const cands = Array.from({ length: prng.int(1, 5) }, () => {
      const c = { type: 'candidate', candidate: garbageCandidate(prng, prng.pick(offer.candidates)), mid: prng.pick(['0', '', '1', 'é', 'x'.repeat(1000), 0, null, undefined]) };
      if (prng.chance(0.1)) c.candidate = prng.pick([5, null, {}, ['a']]);
      return json(c);
    });
    return prng.chance(0.2) ? cands : [goodOffer(), ...cands];
  }
  if (r < 0.88) return [goodOffer(), goodOffer()];
  if (r < 0.91) return [msg(prng.chance(0.5) ? prng.bytes(prng.length(5000)) : Buffer.from(JSON.stringify({ type: 'offer', sdp: offer.sdp })), true)];
  if (r < 0.93) return [msg(Buffer.concat([Buffer.from('{"type":"'), prng.pick([Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80])]), Buffer.from('"}')]), false)];
  if (r < 0.95) return [msg(prng.chance(0.5) ? '['.repeat(prng.int(1000, 60000)) : '{"a":'.repeat(prng.int(1000, 12000)))];
  if (r < 0.97) return [msg('x'.repeat(prng.pick([65535, 65536, 65537, 200000, 1024 * 1024])))];
  // Several garbage messages on one socket: only the first gets an answer.
  return Array.from({ length: prng.int(2, 20) }, () => json({ type: prng.string(prng.int(0, 10), 'abcé') }));
}

/** Sends one script; resolves with what came back. */
function talk(url, localAddress, messages) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { localAddress, maxPayload: 1024 * 1024 });
    const got = [];
    let settled = false;
    let timer = null;
    const done = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate();
      resolve({ got, ...outcome });
    };
    ws.on('error', () => {});
    ws.on('unexpected-response', (req, res) => {
      res.resume();
      done({ refused: res.statusCode });
    });
    ws.on('open', () => {
      for (const m of messages) ws.send(m.data, { binary: m.binary });
      timer = setTimeout(() => done({ timedOut: true }), 3000);
    });
    ws.on('message', (data) => {
      let m;
      try {
        m = JSON.parse(String(data));
      } catch {
        m = { type: 'not JSON' };
      }
      got.push(m);
      // An accepted offer is answered and the session lives on: that script is done.
      if (m.type === 'answer') setTimeout(() => done({ answered: true }), 50);
    });
    ws.on('close', (code) => done({ code }));
  });
}

async function run(ctx) {
  const { prng, urls, rec } = ctx;
  const offer = await captureOffer();
  // Known killers first, whatever the seed: a close reason cut inside multi-byte characters.
  const scripts = [
    [{ data: JSON.stringify({ type: 'é'.repeat(90) }), binary: false }],
    [{ data: JSON.stringify({ type: '\u{1F600}'.repeat(61) }), binary: false }],
    [{ data: JSON.stringify({ type: '中'.repeat(40) }), binary: false }],
  ];
  for (let total = scripts.length; total < ctx.count;) {
    const s = script(prng, offer);
    scripts.push(s);
    total += s.length;
  }
  // 24 lanes over 6 addresses: 4 sessions per address at most, the origin's limit.
  await runPool(scripts.length, CLIENT_ADDRESSES.length * 4, async (i, lane) => {
    const address = CLIENT_ADDRESSES[lane % CLIENT_ADDRESSES.length];
    const messages = scripts[i];
    let r;
    for (let attempt = 0; attempt < 40; attempt += 1) {
      r = await talk(urls.fdsp, address, messages);
      if (r.refused === 429 || r.refused === 503) {
        // The origin has not let go of this address's last sessions yet: a limit, not a failure.
        rec.status(r.refused, { channel: 'ws-upgrade', what: 'signaling upgrade' });
        await new Promise((res) => setTimeout(res, 50));
        continue;
      }
      break;
    }
    rec.case(messages.length);
    const what = `signaling ${describe(messages[0].data, 80)}${messages.length > 1 ? ` (+${messages.length - 1} more)` : ''}`;
    if (r.refused) {
      rec.status(r.refused, { channel: 'ws-upgrade', what });
      return;
    }
    const errors = r.got.filter((m) => m.type === 'error');
    const label = r.answered ? 'answer' : errors.length ? `error, close ${r.code ?? '(none)'}` : r.code !== undefined ? `close ${r.code}` : 'no answer';
    rec.see(label);
    // Documented: malformed signaling gets an error and a close.
    if (errors.length && r.timedOut) rec.fail(`the origin sent an error but did not close the socket within 3 s: ${what}`, { kind: 'error without close' });
  }, ctx.shouldStop);
}

module.exports = {
  name: 'signaling',
  title: 'malformed signaling messages (WebSocket /fdsp)',
  targets: ['http11'],
  defaultCount: 10000,
  run,
  captureOffer,
};
