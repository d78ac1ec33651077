'use strict';
// One DataChannel (FDSP) session with the origin, set up as the player sets it up (WebSocket
// signaling, node-datachannel as the browser's side, the two pre-negotiated channels), that
// can also send any bytes on either channel. It tells apart who closed the session: the
// origin closing it (after too many malformed frames, or a flood) is an answer, not an error.
const nodeDataChannel = require('node-datachannel');
const WebSocket = require('ws');
const frames = require('../../shared/fdsp/frames');

class SessionRefused extends Error {
  constructor(status) {
    super(`the origin refused the DataChannel session with ${status}`);
    this.status = status;
  }
}

/**
 * @param {string} signalingUrl  ws://host:port/fdsp
 * @param {object} [o]
 * @param {string} [o.localAddress]  the WebSocket's source address: the origin limits sessions
 *                                   per client address, so parallel sessions use 127.0.0.2, .3, ...
 * @param {number} [o.timeoutMs]     for the channels to open (default 15000)
 * @param {(bytes: Uint8Array, f: object) => void} [o.onData]  every DATA frame's bytes
 */
async function openFdspSession(signalingUrl, { localAddress, timeoutMs = 15000, onData } = {}) {
  const ws = new WebSocket(signalingUrl, localAddress ? { localAddress } : {});
  ws.on('error', () => {});
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('unexpected-response', (req, res) => {
      res.resume();
      reject(new SessionRefused(res.statusCode));
    });
    ws.once('error', reject);
    ws.once('close', () => reject(new Error('signaling closed before it opened')));
  });
  const pc = new nodeDataChannel.PeerConnection('lab-fuzz-client', { iceServers: [], bindAddress: '127.0.0.1', maxMessageSize: 256 * 1024, disableAutoNegotiation: true });
  const reliable = pc.createDataChannel('fdsp-reliable', { negotiated: true, id: 0 });
  const unreliable = pc.createDataChannel('fdsp-unreliable', { negotiated: true, id: 1, unordered: true, maxRetransmits: 0 });
  const session = new FdspSession({ ws, pc, reliable, unreliable, onData });
  pc.onLocalDescription((sdp, type) => session.signal({ type: type.toLowerCase(), sdp }));
  pc.onLocalCandidate((candidate, mid) => session.signal({ type: 'candidate', candidate, mid }));
  ws.on('message', (data) => {
    let msg;
    try {
      msg = JSON.parse(String(data));
    } catch {
      return;
    }
    try {
      if (msg.type === 'answer') pc.setRemoteDescription(msg.sdp, 'answer');
      else if (msg.type === 'candidate' && msg.candidate) pc.addRemoteCandidate(msg.candidate, msg.mid || '0');
      else if (msg.type === 'error') session.signalingErrors.push(msg.message);
    } catch (err) {
      session.signalingErrors.push(`client: ${err.message}`);
    }
  });
  pc.setLocalDescription('offer');
  try {
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`the DataChannels did not open within ${timeoutMs} ms (${session.signalingErrors.join('; ')})`)), timeoutMs);
      const check = () => {
        if (reliable.isOpen() && unreliable.isOpen()) {
          clearTimeout(t);
          resolve();
        }
      };
      reliable.onOpen(check);
      unreliable.onOpen(check);
      ws.once('close', (code, reason) => {
        clearTimeout(t);
        reject(new Error(`the origin closed the signaling before the DataChannels opened (${code} ${String(reason)}; client peer ${pc.state()}${session.signalingErrors.length ? `; ${session.signalingErrors.join('; ')}` : ''})`));
      });
      check();
    });
  } catch (err) {
    await session.close();
    throw err;
  }
  session.start();
  return session;
}

class FdspSession {
  constructor({ ws, pc, reliable, unreliable, onData }) {
    Object.assign(this, { ws, pc, reliable, unreliable, onData });
    this.signalingErrors = [];
    this.pending = new Map(); // requestId -> {resolve, head, body, error}
    this.loneErrors = []; // ERROR frames for no open request (answers to malformed frames)
    this.undecodable = 0;
    this.closing = false;
    this.closedByOrigin = false;
    this.closedPromise = new Promise((resolve) => {
      this.markClosed = resolve;
    });
  }

  signal(obj) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(obj));
  }

  start() {
    const onMessage = (msg) => {
      let f;
      try {
        f = frames.decodeFrame(typeof msg === 'string' ? msg : new Uint8Array(msg.buffer || msg, msg.byteOffset || 0, msg.byteLength));
      } catch {
        this.undecodable += 1;
        return;
      }
      if (f.type === 'DATA' && this.onData) this.onData(f.bytes, f);
      const p = this.pending.get(f.requestId);
      if (!p) {
        if (f.type === 'ERROR') this.loneErrors.push(f.payload);
        return;
      }
      if (f.type === 'HEAD') {
        p.head = f.payload;
        if (Number.isInteger(f.payload.totalBytes) && f.payload.totalBytes <= 64 * 1024 * 1024) p.body = Buffer.alloc(f.payload.totalBytes);
      } else if (f.type === 'DATA') {
        if (p.body && f.offset + f.bytes.length <= p.body.length) p.body.set(f.bytes, f.offset);
      } else if (f.type === 'END') {
        this.settle(f.requestId, { status: p.head ? p.head.status : null, head: p.head, body: p.body, end: f.payload });
      } else if (f.type === 'ERROR') {
        this.settle(f.requestId, { status: f.payload.status, error: f.payload.message, head: p.head });
      }
    };
    this.reliable.onMessage(onMessage);
    this.unreliable.onMessage(onMessage);
    const byOrigin = () => {
      if (!this.closing) this.closedByOrigin = true;
      this.markClosed();
      for (const id of [...this.pending.keys()]) this.settle(id, { closed: true });
    };
    this.reliable.onClosed(byOrigin);
    this.pc.onStateChange((state) => {
      if (state === 'closed' || state === 'failed') byOrigin();
    });
    this.ws.on('close', byOrigin);
  }

  get open() {
    return !this.closing && !this.closedByOrigin;
  }

  settle(requestId, result) {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.pending.delete(requestId);
    clearTimeout(p.timer);
    p.resolve({ status: null, ...result });
  }

  /** Waits for the answer to a request already sent with id (END, ERROR, close or timeout). */
  expect(requestId, timeoutMs = 10000) {
    // A second REQUEST with an id still open (a hostile case): the answers can no longer be
    // told apart, so the first stops waiting and the next answer goes to the second.
    if (this.pending.has(requestId)) this.settle(requestId, { duplicateId: true });
    return new Promise((resolve) => {
      const p = { resolve, head: null, body: null };
      p.timer = setTimeout(() => this.settle(requestId, { timedOut: true }), timeoutMs);
      this.pending.set(requestId, p);
    });
  }

  /** Forgets a request (after CANCEL, no answer comes). */
  forget(requestId) {
    this.settle(requestId, { cancelled: true });
  }

  /** Sends a REQUEST (validated by the shared encoder) and resolves with its answer. */
  request(url, { id = 1, range = null, bp = 100, deadlineMs = null, timeoutMs = 10000 } = {}) {
    const answer = this.expect(id, timeoutMs);
    this.send(frames.encodeRequest(id, { url, range, bp, deadlineMs }));
    return answer;
  }

  /** Any bytes (or a text message) on a channel; false if the local stack refused to send. */
  send(bytes, channel = 'reliable') {
    if (!this.open) return false;
    const dc = channel === 'unreliable' ? this.unreliable : this.reliable;
    try {
      if (typeof bytes === 'string') return dc.sendMessage(bytes);
      return dc.sendMessageBinary(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } catch {
      return false;
    }
  }

  /** Resolves once the origin closed the session, or after ms. */
  async closedWithin(ms) {
    let timer;
    await Promise.race([this.closedPromise, new Promise((r) => { timer = setTimeout(r, ms); })]);
    clearTimeout(timer);
    return this.closedByOrigin;
  }

  /** Ends the peer connection at once, as a browser tab that is closed does (then close()). */
  drop() {
    this.closing = true;
    try { this.pc.close(); } catch { /* closed */ }
  }

  async close() {
    if (!this.closing) {
      this.closing = true;
      for (const c of [this.reliable, this.unreliable]) {
        try { c.close(); } catch { /* closed */ }
      }
      try { this.pc.close(); } catch { /* closed */ }
      if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
      for (const id of [...this.pending.keys()]) this.settle(id, { closed: true });
    }
    if (this.ws.readyState !== WebSocket.CLOSED) {
      await new Promise((resolve) => {
        const t = setTimeout(() => {
          this.ws.terminate();
          resolve();
        }, 1000);
        this.ws.once('close', () => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
}

module.exports = { openFdspSession, SessionRefused };
