'use strict';
// An FDSP client in Node (node-datachannel), speaking the same protocol as the player's
// DataChannel transport: for origin tests and `npm run bench:datachannel`, where a browser
// would measure Chromium rather than the transport.
const nodeDataChannel = require('node-datachannel');
const WebSocket = require('ws');
const frames = require('../../shared/fdsp/frames');
const { SegmentAssembler } = require('../../shared/fdsp/segment-assembler');

/**
 * @param {string} signalingUrl  ws://host:port/fdsp
 * @param {{bindAddress?: string, timeoutMs?: number}} [o]
 */
async function connectFdsp(signalingUrl, { bindAddress, timeoutMs = 15000 } = {}) {
  const ws = new WebSocket(signalingUrl);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const pc = new nodeDataChannel.PeerConnection('lab-client', { iceServers: [], ...(bindAddress ? { bindAddress } : {}), maxMessageSize: 256 * 1024, disableAutoNegotiation: true });
  const reliable = pc.createDataChannel('fdsp-reliable', { negotiated: true, id: 0 });
  const unreliable = pc.createDataChannel('fdsp-unreliable', { negotiated: true, id: 1, unordered: true, maxRetransmits: 0 });
  const serverErrors = [];
  pc.onLocalDescription((sdp, type) => ws.send(JSON.stringify({ type: type.toLowerCase(), sdp })));
  pc.onLocalCandidate((candidate, mid) => ws.send(JSON.stringify({ type: 'candidate', candidate, mid })));
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data));
    if (msg.type === 'answer') pc.setRemoteDescription(msg.sdp, 'answer');
    else if (msg.type === 'candidate' && msg.candidate) pc.addRemoteCandidate(msg.candidate, msg.mid || '0');
    else if (msg.type === 'error') serverErrors.push(msg.message);
  });
  pc.setLocalDescription('offer');
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`DataChannel did not open within ${timeoutMs} ms (${serverErrors.join('; ')})`)), timeoutMs);
    const check = () => {
      if (reliable.isOpen() && unreliable.isOpen()) {
        clearTimeout(t);
        resolve();
      }
    };
    reliable.onOpen(check);
    unreliable.onOpen(check);
    check();
  });

  const pending = new Map(); // requestId -> {assembler, resolve, reject, head, end}
  const errorsWithoutRequest = [];
  let nextId = 1;
  const onData = (channel) => (msg) => {
    let f;
    try {
      f = frames.decodeFrame(new Uint8Array(msg.buffer || msg, msg.byteOffset || 0, msg.byteLength));
    } catch (err) {
      errorsWithoutRequest.push(err.message);
      return;
    }
    const p = pending.get(f.requestId);
    if (!p) {
      if (f.type === 'ERROR') errorsWithoutRequest.push(f.payload);
      return;
    }
    if (f.type === 'HEAD') {
      p.head = f.payload;
      p.assembler = new SegmentAssembler(f.payload);
      for (const [off, bytes, ch] of p.early) p.assembler.add(off, bytes, ch);
      p.early = [];
    } else if (f.type === 'DATA') {
      // An unordered unreliable chunk can overtake its HEAD: keep it until the HEAD is in.
      const copy = new Uint8Array(f.bytes);
      if (p.assembler) p.assembler.add(f.offset, copy, channel);
      else p.early.push([f.offset, copy, channel]);
    } else if (f.type === 'END') {
      p.end = f.payload;
    } else if (f.type === 'ERROR') {
      pending.delete(f.requestId);
      p.reject(Object.assign(new Error(`${f.payload.status}: ${f.payload.message}`), { status: f.payload.status }));
      return;
    }
    p.check();
  };
  reliable.onMessage(onData('reliable'));
  unreliable.onMessage(onData('unreliable'));

  return {
    pc,
    ws,
    reliable,
    serverErrors,
    errorsWithoutRequest,
    /** Sends raw bytes on the reliable channel (for malformed-input tests). */
    sendRaw: (bytes) => reliable.sendMessageBinary(bytes),
    /**
     * Fetches a URL; resolves when every reliable byte is in and either every unreliable chunk
     * or graceMs after END has passed (later chunks are counted lost).
     */
    fetch(url, { bp = 100, range = null, deadlineMs = null, graceMs = 200 } = {}) {
      const requestId = nextId++;
      const started = performance.now();
      return new Promise((resolve, reject) => {
        const p = {
          early: [],
          reject,
          check() {
            if (!p.assembler || !p.assembler.reliableComplete || !p.end) return;
            const done = () => {
              if (!pending.has(requestId)) return;
              pending.delete(requestId);
              resolve({ ...p.assembler.finish(), head: p.head, end: p.end, seconds: (performance.now() - started) / 1000 });
            };
            if (p.assembler.unreliableComplete) done();
            else if (!p.graceTimer) p.graceTimer = setTimeout(done, graceMs);
          },
        };
        pending.set(requestId, p);
        reliable.sendMessageBinary(frames.encodeRequest(requestId, { url, range, bp, deadlineMs }));
      });
    },
    close() {
      for (const c of [reliable, unreliable]) {
        try { c.close(); } catch { /* closed */ }
      }
      try { pc.close(); } catch { /* closed */ }
      ws.close();
    },
  };
}

module.exports = { connectFdsp };
