'use strict';
// An FDSP client in Node (node-datachannel): for origin tests, `npm run bench:datachannel` and
// the load bench, where a browser would measure Chromium rather than the transport. It is the
// player's client in all but the channels: the same signaling (shared/fdsp/signaling.js) and
// the same core (shared/fdsp/client-core.js), so a response is done by the same rule as in
// the player (shared/fdsp/response-assembly.js).
const nodeDataChannel = require('node-datachannel');
const WebSocket = require('ws');
const { CHANNELS, nodeDataChannelInit, encode, parseSignal } = require('../../shared/fdsp/signaling');
const { FdspClientCore } = require('../../shared/fdsp/client-core');
const { WakeTimer } = require('../../shared/fdsp/wake-timer');

// A response can be done on its last chunk before the origin's END has come (END is sent when
// the last chunk was handed to the channel). fetch() still waits this long for it, so a
// caller sees what the origin says it sent; the response's figures are those of the moment it
// was done.
const END_WAIT_MS = 5000;

// node-datachannel as the offering side now and then fails a setup at once (the peer
// connection "failed" ~10 ms after gathering, before the origin's answer is in; about 1 in 50
// on loopback): a client-side flake, not the origin's. A setup is tried this often before
// connectFdsp rejects; every retry is reported (onSetupRetry), none is hidden. connectOnce
// marks that failure on its error (setupFlake) where it sees the state, so no message has to
// match.
const SETUP_ATTEMPTS = 3;

/**
 * @param {string} signalingUrl  ws://host:port/fdsp
 * @param {{bindAddress?: string, localAddress?: string, timeoutMs?: number, onSetupRetry?: (message: string) => void}} [o]
 *   bindAddress: where ICE gathers; localAddress: the signaling WebSocket's source address (the
 *   origin limits DataChannel sessions per client address, so a load test spreads over 127.0.0.N);
 *   onSetupRetry: told of each failed setup that is tried again (default: a line on stderr)
 */
async function connectFdsp(signalingUrl, { onSetupRetry = (m) => console.warn(`fdsp client: setup retried: ${m}`), ...o } = {}) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await connectOnce(signalingUrl, o);
    } catch (err) {
      // Only that flake is retried; a refusal by the origin (429, 503) or a timeout is an error.
      if (attempt >= SETUP_ATTEMPTS || !err.setupFlake) throw err;
      onSetupRetry(err.message);
    }
  }
}

async function connectOnce(signalingUrl, { bindAddress, localAddress, timeoutMs = 15000 } = {}) {
  const ws = new WebSocket(signalingUrl, localAddress ? { localAddress } : undefined);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const pc = new nodeDataChannel.PeerConnection('lab-client', { iceServers: [], ...(bindAddress ? { bindAddress } : {}), maxMessageSize: 256 * 1024, disableAutoNegotiation: true });
  const reliable = pc.createDataChannel(CHANNELS.reliable.label, nodeDataChannelInit(CHANNELS.reliable));
  const unreliable = pc.createDataChannel(CHANNELS.unreliable.label, nodeDataChannelInit(CHANNELS.unreliable));
  const serverErrors = [];
  pc.onLocalDescription((sdp, type) => ws.send(encode.description(type, sdp)));
  pc.onLocalCandidate((candidate, mid) => ws.send(encode.candidate(candidate, mid)));
  ws.on('message', (data, isBinary) => {
    // libdatachannel throws for a candidate that comes after the peer closed or failed; thrown
    // from here it would end the process (the load bench lost a run so), so it is recorded.
    try {
      const msg = parseSignal(data, { from: 'origin', isBinary });
      if (msg.type === 'answer') pc.setRemoteDescription(msg.sdp, 'answer');
      else if (msg.type === 'candidate' && msg.candidate) pc.addRemoteCandidate(msg.candidate, msg.mid);
      else if (msg.type === 'error') serverErrors.push(msg.message);
    } catch (err) {
      serverErrors.push(`signaling: ${err.message}`);
    }
  });
  pc.setLocalDescription('offer');
  await new Promise((resolve, reject) => {
    let settled = false;
    const giveUp = (why, { setupFlake = false } = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(t);
      // Not left behind half open: the caller never gets these to close.
      try { pc.close(); } catch { /* closed */ }
      ws.close();
      reject(Object.assign(new Error(`${why}${serverErrors.length ? ` (${serverErrors.join('; ')})` : ''}`), { setupFlake }));
    };
    const t = setTimeout(() => giveUp(`DataChannel did not open within ${timeoutMs} ms`), timeoutMs);
    // The setup flake above fails the peer connection before the answer is in; waiting out
    // the timeout for it only delays the retry.
    pc.onStateChange((state) => {
      if (state === 'failed' || state === 'closed') giveUp(`the peer connection ${state} before the DataChannels opened`, { setupFlake: state === 'failed' });
    });
    const check = () => {
      if (!settled && reliable.isOpen() && unreliable.isOpen()) {
        settled = true;
        clearTimeout(t);
        resolve();
      }
    };
    reliable.onOpen(check);
    unreliable.onOpen(check);
    check();
  });
  return new NodeFdspClient({ pc, ws, reliable, unreliable, serverErrors });
}

/** One open session: fetch() over it, close() it. */
class NodeFdspClient {
  constructor({ pc, ws, reliable, unreliable, serverErrors }) {
    this.pc = pc;
    this.ws = ws;
    this.reliable = reliable;
    this.unreliable = unreliable;
    this.serverErrors = serverErrors;
    this.core = new FdspClientCore();
    this.waiting = new Map(); // requestId -> {resolve, reject, started}
    this.awaitingEnd = new Map(); // requestId -> {deliver, timer}
    this.timer = new WakeTimer(() => this.handle(this.core.tick(performance.now())));
    this.closed = false;
    reliable.onMessage((msg) => this.onMessage(msg, 'reliable'));
    unreliable.onMessage((msg) => this.onMessage(msg, 'unreliable'));
    reliable.onClosed(() => this.gone('the reliable DataChannel closed'));
  }

  /** Undecodable frames' messages and ERROR payloads for no open request, oldest first. */
  get errorsWithoutRequest() {
    return this.core.errorsWithoutRequest;
  }

  /** The session's accounting (client-core.js stats()). */
  stats() {
    return this.core.stats();
  }

  onMessage(msg, channel) {
    const u8 = typeof msg === 'string' ? msg : new Uint8Array(msg.buffer || msg, msg.byteOffset || 0, msg.byteLength);
    this.handle(this.core.receive(u8, channel, performance.now()));
  }

  /** Sends raw bytes on the reliable channel (for malformed-input tests). */
  sendRaw(bytes) {
    return this.reliable.sendMessageBinary(bytes);
  }

  /**
   * Fetches a URL. Resolves when the response is done by the player's rule
   * (shared/fdsp/response-assembly.js) and its END is in (waited for up to END_WAIT_MS; not
   * after a deadline stop, whose CANCEL drops it); missing chunks are counted lost and stay
   * zero in `bytes`. The result is the core's response (bytes, head, end, finishedBy,
   * lostChunks, plr, ...) with ttfbSeconds (to the HEAD), doneSeconds (to done) and seconds
   * (to now). Rejects on an ERROR frame (err.status: the origin's status) or a closed session.
   * @param {string} url  path on the origin, e.g. /content/sample/manifest.mpd
   * @param {{bp?: number, range?: [number, number]|null, deadlineMs?: number|null, graceMs?: number, paceBps?: number|null, udpOnly?: boolean}} [o]
   *   deadlineMs: the playout deadline (the origin skips chunks past it; the response stops at
   *   it); graceMs: a fixed grace after END instead of the rule's gap-based one; paceBps: the
   *   unreliable channel's rate from this request on (null: unpaced; absent: as it was); udpOnly:
   *   paper 000's UDP-only baseline; windowBytes: the receive window from this request on
   *   (null: none; absent: as it was)
   */
  fetch(url, { bp = 100, range = null, deadlineMs = null, graceMs = null, paceBps, udpOnly = false, windowBytes } = {}) {
    return new Promise((resolve, reject) => {
      if (this.closed) throw new Error('the FDSP session is closed');
      const started = performance.now();
      const { requestId, frame } = this.core.request({ url, range, bp, deadlineMs, graceMs, paceBps, udpOnly, windowBytes }, started);
      this.waiting.set(requestId, { resolve, reject, started });
      try {
        this.reliable.sendMessageBinary(frame);
      } catch (err) {
        this.core.cancel(requestId);
        this.waiting.delete(requestId);
        throw err;
      }
      this.timer.arm(this.core.nextWakeAt());
    });
  }

  handle(events) {
    for (const e of events) {
      if (e.kind === 'ack') this.send(e.frame);
      else if (e.kind === 'done') this.done(e);
      else if (e.kind === 'failed') this.failed(e);
      else if (e.kind === 'end' && this.awaitingEnd.has(e.requestId)) this.awaitingEnd.get(e.requestId).deliver(e.end);
    }
    this.timer.arm(this.core.nextWakeAt());
  }

  done({ requestId, response: r, cancel }) {
    const w = this.waiting.get(requestId);
    if (!w) return;
    this.waiting.delete(requestId);
    if (cancel) this.send(cancel);
    const result = (end) => ({
      ...r,
      end,
      ttfbSeconds: r.headAt === null ? null : (r.headAt - w.started) / 1000,
      doneSeconds: (r.doneAt - w.started) / 1000,
      seconds: (performance.now() - w.started) / 1000,
    });
    // After a deadline stop the CANCEL makes the origin drop END.
    if (r.end || r.finishedBy === 'deadline') return w.resolve(result(r.end));
    const deliver = (end) => {
      clearTimeout(this.awaitingEnd.get(requestId).timer);
      this.awaitingEnd.delete(requestId);
      w.resolve(result(end));
    };
    this.awaitingEnd.set(requestId, { deliver, timer: setTimeout(() => deliver(null), END_WAIT_MS) });
    return undefined;
  }

  failed({ requestId, error }) {
    const w = this.waiting.get(requestId);
    if (!w) return;
    this.waiting.delete(requestId);
    const message = error.status === undefined ? error.message : `${error.status}: ${error.message}`;
    w.reject(Object.assign(new Error(message), { code: error.code, ...(error.status === undefined ? {} : { status: error.status }) }));
  }

  send(frame) {
    try {
      this.reliable.sendMessageBinary(frame);
    } catch { /* the session is going; nothing left to stop */ }
  }

  /** The session ended: open fetches fail, done ones stop waiting for their END. */
  gone(why) {
    this.closed = true;
    this.handle(this.core.failAll(why));
    for (const { deliver } of [...this.awaitingEnd.values()]) deliver(null);
    this.timer.stop();
  }

  close() {
    if (!this.closed) this.gone('the FDSP session was closed');
    for (const c of [this.reliable, this.unreliable]) {
      try { c.close(); } catch { /* closed */ }
    }
    try { this.pc.close(); } catch { /* closed */ }
    this.ws.close();
  }
}

module.exports = { connectFdsp, END_WAIT_MS };
