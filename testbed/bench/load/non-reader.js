'use strict';
// Abuse: a client that asks for big segments and never reads the answers. Its TCP receive
// window fills and stays full, so the origin holds the connection, its file streams and
// whatever it buffered, for as long as the client likes. HTTP/1.1 (pipelined GETs on one
// connection) and HTTP/2 (several streams, with a large flow-control window advertised so the
// origin queues as much as it is willing to) alike.
const net = require('node:net');
const tls = require('node:tls');
const { once } = require('node:events');
const h2 = require('../../h2-wire');
const { untilPhaseEnds, socketLife } = require('./abuse-run');

const WINDOW = 16 * 1024 * 1024;

/**
 * @param {object} o
 * @param {'http11'|'h2'} o.protocol
 * @param {string} o.url         the listener, http://host:port or https://host:port
 * @param {string[]} o.paths     what to ask for on each connection
 * @param {number} o.until       Date.now() time to stop
 * @param {AbortSignal} o.signal
 * @param {object} o.stats       {connections, closedByServer, errors}
 */
function runNonReader(o) {
  const { hostname, port, host } = new URL(o.url);
  const connectOnce = async () => {
    const socket = o.protocol === 'h2'
      ? tls.connect({ host: hostname, port: Number(port), ALPNProtocols: ['h2'], rejectUnauthorized: false })
      : net.connect({ host: hostname, port: Number(port) });
    socket.on('error', () => {});
    await once(socket, o.protocol === 'h2' ? 'secureConnect' : 'connect');
    o.stats.connections += 1;
    if (o.protocol === 'h2') {
      socket.write(Buffer.concat([
        h2.PREFACE,
        h2.settingsFrame([[h2.SETTING.INITIAL_WINDOW_SIZE, WINDOW]]),
        h2.windowUpdate(0, WINDOW),
        ...o.paths.map((p, i) => h2.getRequest(1 + 2 * i, host, p)),
      ]));
    } else {
      socket.write(o.paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: ${host}\r\n\r\n`).join(''));
    }
    // Never read: what the origin sends piles up in the kernel's buffers, then in the origin.
    socket.pause();
    await socketLife(socket, o.signal);
    if (!o.signal.aborted && Date.now() < o.until) o.stats.closedByServer += 1;
  };
  return untilPhaseEnds({ until: o.until, signal: o.signal, connectOnce, stats: o.stats });
}

module.exports = { runNonReader };
