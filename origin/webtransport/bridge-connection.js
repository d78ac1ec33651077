'use strict';
// One connection from quic-origin on the FDSP bridge socket: its messages ([u32 len][bytes],
// shared/fdsp/stream-messages.js), the first of which is the hello (bridge-hello.js). Messages
// that arrive before the connection's session exists (a client's REQUEST can beat the second
// half of its session) are kept, in order, until someone listens.
const { StreamMessageReader } = require('../../shared/fdsp/stream-messages');
const { parseHello } = require('./bridge-hello');

const HELLO_TIMEOUT_MS = 5000;
const MAX_EARLY_MESSAGES = 64;

class BridgeConnection {
  /**
   * @param {import('node:net').Socket} socket
   * @param {object} o
   * @param {(conn: BridgeConnection) => void} o.onHello
   * @param {(why: string) => void} o.onBroken  no hello, a bad hello, or a broken message stream
   */
  constructor(socket, { onHello, onBroken }) {
    this.socket = socket;
    this.hello = null;
    this.reader = new StreamMessageReader();
    this.early = [];
    this.listener = null;
    this.closed = false;
    const timer = setTimeout(() => this.fail(`no hello within ${HELLO_TIMEOUT_MS / 1000} s`, onBroken), HELLO_TIMEOUT_MS);
    socket.on('error', () => {}); // 'close' follows; the session says why
    socket.once('close', () => {
      clearTimeout(timer);
      this.closed = true;
      if (this.onClose) this.onClose();
    });
    socket.on('data', (chunk) => {
      let messages;
      try {
        messages = this.reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
      } catch (err) {
        this.fail(`bridge stream broken: ${err.message}`, onBroken);
        return;
      }
      for (const m of messages) {
        if (this.closed) return;
        if (!this.hello) {
          try {
            this.hello = parseHello(m);
          } catch (err) {
            this.fail(err.message, onBroken);
            return;
          }
          clearTimeout(timer);
          onHello(this);
        } else if (this.listener) this.listener(m);
        else if (this.early.length < MAX_EARLY_MESSAGES) this.early.push(m.slice());
        else this.fail(`more than ${MAX_EARLY_MESSAGES} messages before the session was set up`, onBroken);
      }
    });
  }

  /** Delivers messages (those that came early first) to fn. */
  listen(fn) {
    this.listener = fn;
    const early = this.early;
    this.early = [];
    for (const m of early) if (!this.closed) fn(m);
  }

  fail(why, onBroken) {
    if (this.closed) return;
    onBroken(why);
    this.destroy();
  }

  destroy() {
    this.closed = true;
    this.socket.destroy();
  }
}

module.exports = { BridgeConnection };
