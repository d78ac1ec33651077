'use strict';
// One HTTP/2 connection over TLS (ALPN h2) that writes frames exactly as given, for requests
// node:http2 would refuse to send (bad pseudo-headers, uppercase names, connection headers,
// frames on the wrong stream). It reads back, per stream: :status, DATA bytes, RST_STREAM; per
// connection: GOAWAY and the close. Settings, pings and flow control are answered just enough
// for responses to flow.
const tls = require('node:tls');
const w = require('../h2-wire');

const MAX_WINDOW = 2 ** 31 - 1;
const MAX_KEPT_DATA_BYTES = 16 * 1024 * 1024;

class RawH2Connection {
  /**
   * @param {object} o
   * @param {number} o.port
   * @param {string} [o.host]
   * @param {string[]} [o.alpn]        default ['h2']
   * @param {boolean} [o.bigWindow]    open the flow-control windows wide (default true); false
   *                                   keeps 64 KB, so a large response stalls on the server
   * @param {boolean} [o.preface]      send the preface and SETTINGS (default true)
   * @param {number} [o.timeoutMs]     TLS connect timeout (default 3000)
   * @returns {Promise<RawH2Connection>}
   */
  static open({ port, host = '127.0.0.1', alpn = ['h2'], bigWindow = true, preface = true, timeoutMs = 3000 }) {
    return new Promise((resolve, reject) => {
      const socket = tls.connect({ port, host, ALPNProtocols: alpn, rejectUnauthorized: false });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error('TLS connect timed out'));
      }, timeoutMs);
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      socket.once('secureConnect', () => {
        clearTimeout(timer);
        resolve(new RawH2Connection(socket, { bigWindow, preface }));
      });
    });
  }

  constructor(socket, { bigWindow, preface }) {
    this.socket = socket;
    this.alpn = socket.alpnProtocol;
    this.streams = new Map();
    this.nextStreamId = 1;
    this.goaway = null; // {lastStreamId, code, error}
    this.closed = false;
    this.receivedData = [];
    this.receivedDataBytes = 0;
    this.lastFrameAt = Date.now();
    this.framesIn = 0;
    const read = w.createFrameReader();
    socket.on('data', (chunk) => {
      for (const f of read(chunk)) this.onFrame(f);
    });
    socket.on('error', () => {});
    this.closedPromise = new Promise((resolve) => {
      socket.on('close', () => {
        this.closed = true;
        for (const s of this.streams.values()) this.settle(s, { closed: true });
        resolve();
      });
    });
    if (preface) {
      const settings = [[w.SETTING.HEADER_TABLE_SIZE, 0], [w.SETTING.ENABLE_PUSH, 0]];
      if (bigWindow) settings.push([w.SETTING.INITIAL_WINDOW_SIZE, MAX_WINDOW]);
      this.send(Buffer.concat([w.PREFACE, w.settingsFrame(settings), bigWindow ? w.windowUpdate(0, MAX_WINDOW - 65535) : Buffer.alloc(0)]));
    }
  }

  send(bytes) {
    if (!this.closed && !this.socket.destroyed) this.socket.write(bytes);
  }

  /** All DATA bytes received on the connection (for the forbidden-content scan). */
  dataBytes() {
    return Buffer.concat(this.receivedData);
  }

  /**
   * Sends one request: a header list (HPACK literals, in this order) or a ready header block.
   * @param {Array<[string, string]>|{block: Buffer}} headers
   * @param {object} [o]
   * @param {number} [o.streamId]      default the next odd id
   * @param {boolean} [o.endStream]    default true unless a body is given
   * @param {Buffer} [o.body]          sent as DATA with END_STREAM
   * @param {number} [o.timeoutMs]     default 3000
   * @returns {{id: number, done: Promise<{path: string|undefined, status: number|null, body: Buffer, rstCode: number|null,
   *   ended: boolean, goaway: object|null, closed: boolean, timedOut: boolean}>}}
   */
  request(headers, { streamId, endStream, body, timeoutMs = 3000 } = {}) {
    const id = streamId ?? this.nextStreamId;
    if (id >= this.nextStreamId) this.nextStreamId = id + 2 - (id % 2 === 0 ? 1 : 0);
    const block = Array.isArray(headers) ? w.headerBlock(headers) : headers.block;
    const pathField = Array.isArray(headers) ? headers.find(([n]) => String(n) === ':path') : undefined;
    const path = pathField ? Buffer.from(pathField[1]).toString('latin1') : undefined;
    const s = { id, path, status: null, fragments: [], data: [], dataBytes: 0, ended: false, rstCode: null };
    s.done = new Promise((resolve) => {
      s.resolve = resolve;
    });
    s.timer = setTimeout(() => this.settle(s, { timedOut: true }), timeoutMs);
    this.streams.set(id, s);
    const end = endStream ?? body === undefined;
    this.send(w.headersFrames(id, block, { endStream: end }));
    if (body !== undefined) this.send(w.dataFrame(id, body, true));
    if (this.closed) this.settle(s, { closed: true });
    return { id, done: s.done };
  }

  settle(s, extra = {}) {
    if (s.settled) return;
    s.settled = true;
    clearTimeout(s.timer);
    this.streams.delete(s.id);
    s.resolve({ path: s.path, status: s.status, body: Buffer.concat(s.data), rstCode: s.rstCode, ended: s.ended, goaway: this.goaway, closed: this.closed, timedOut: false, ...extra });
  }

  onFrame(f) {
    this.lastFrameAt = Date.now();
    this.framesIn += 1;
    const s = this.streams.get(f.streamId);
    switch (f.type) {
      case w.TYPE.SETTINGS:
        if (!(f.flags & w.FLAG.ACK)) this.send(w.settingsFrame([], true));
        break;
      case w.TYPE.PING:
        if (!(f.flags & w.FLAG.ACK)) this.send(w.ping(f.payload, true));
        break;
      case w.TYPE.GOAWAY:
        this.goaway = { lastStreamId: f.payload.readUInt32BE(0) & 0x7fffffff, code: f.payload.readUInt32BE(4), error: w.errorName(f.payload.readUInt32BE(4)), debug: f.payload.subarray(8).toString('latin1') };
        for (const st of [...this.streams.values()]) if (st.id > this.goaway.lastStreamId) this.settle(st);
        break;
      case w.TYPE.HEADERS:
      case w.TYPE.CONTINUATION:
        if (!s) break;
        s.fragments.push(f.type === w.TYPE.HEADERS ? w.headersFragment(f) : f.payload);
        if (f.flags & w.FLAG.END_HEADERS) {
          if (s.status === null) s.status = w.decodeStatus(Buffer.concat(s.fragments));
          s.fragments = [];
        }
        if (f.type === w.TYPE.HEADERS && (f.flags & w.FLAG.END_STREAM)) {
          s.ended = true;
          this.settle(s);
        }
        break;
      case w.TYPE.DATA:
        if (this.receivedDataBytes < MAX_KEPT_DATA_BYTES) this.receivedData.push(f.payload);
        this.receivedDataBytes += f.payload.length;
        if (!s) break;
        if (s.dataBytes < MAX_KEPT_DATA_BYTES) s.data.push(f.payload);
        s.dataBytes += f.payload.length;
        if (f.flags & w.FLAG.END_STREAM) {
          s.ended = true;
          this.settle(s);
        }
        break;
      case w.TYPE.RST_STREAM:
        if (!s) break;
        s.rstCode = f.payload.length >= 4 ? f.payload.readUInt32BE(0) : -1;
        this.settle(s);
        break;
      default:
        break;
    }
  }

  /** Resolves once nothing has arrived for quietMs (or the connection closed, or capMs passed). */
  async quiet(quietMs = 200, capMs = 3000) {
    const until = Date.now() + capMs;
    while (!this.closed && Date.now() < until) {
      const idle = Date.now() - this.lastFrameAt;
      if (idle >= quietMs) return;
      await new Promise((r) => setTimeout(r, Math.min(quietMs - idle + 5, until - Date.now())));
    }
  }

  close() {
    if (this.closed) return this.closedPromise;
    this.send(w.goaway(0, 0));
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 500).unref();
    return this.closedPromise;
  }

  destroy() {
    this.socket.destroy();
    return this.closedPromise;
  }
}

/**
 * One h2 connection shared by concurrent cases, replaced (once, whoever asks first) when the
 * origin ended it; close() ends every connection it ever opened.
 */
function sharedH2Connection(port) {
  let current = null; // {promise, conn}; replaced synchronously, so concurrent callers share one
  const opened = [];
  return {
    get() {
      if (current && current.conn && (current.conn.closed || current.conn.goaway)) {
        current.conn.destroy();
        current = null;
      }
      if (!current) {
        const entry = { conn: null };
        entry.promise = RawH2Connection.open({ port }).then((c) => {
          entry.conn = c;
          opened.push(c);
          return c;
        });
        entry.promise.catch(() => {
          if (current === entry) current = null;
        });
        current = entry;
      }
      return current.promise;
    },
    async close() {
      await Promise.all(opened.map((c) => c.close()));
    },
    /** DATA bytes received on every connection so far (for the forbidden-content scan). */
    dataBytes() {
      return Buffer.concat(opened.map((c) => c.dataBytes()));
    },
  };
}

module.exports = { RawH2Connection, sharedH2Connection };
