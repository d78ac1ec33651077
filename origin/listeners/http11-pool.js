'use strict';
// The HTTP/1.1 pool: the HTTP/1.1 app (http1-app.js, keep-alive, the same routes and request
// log) on N more ports, for the parallel transport (paper 001: n_c persistent connections, one
// per stream). A browser keeps one pool of connections per scheme+host+port and hands a request
// any idle one, at most 6: streams sharing a port share its connections (on a fast link a few
// connections carried 10 streams' requests, which rarely overlap). With a port of its own, a
// stream's requests, one after the other, keep to one persistent connection, as in the paper:
// default N = 12, one port per stream up to n_c = 12. Its URL lists every port
// (shared/http11-pool-url.js: urls.http11pool = "http://HOST:P1/#ports=P1,P2,..."); the player
// reads them from GET /api/info, so by default the ports are any free ones. Given a first port
// P, they are P, P+1, ..., P+N-1. Connection ids name the port's place in the pool:
// "http11pool.2-7" is the 7th connection to the second port, so the request log shows how many
// connections there really were.
const { createHttp1Server } = require('./http1-app');
const { poolUrlSuffix } = require('../../shared/http11-pool-url');
const { parseDelayRange, delayRangeRouter } = require('./test-delay-range');

const MAX_PORTS = 64;

function portCount(text) {
  const n = /^\d{1,2}$/.test(String(text)) ? Number(text) : NaN;
  if (!(n >= 1 && n <= MAX_PORTS)) throw new Error(`must be a number of ports, 1-${MAX_PORTS}, got "${text}"`);
  return n;
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') reject(new Error(`port ${port} on ${host} is in use (http11pool listener); pass --http11-pool-port N, or 0 for any free ports`));
      else if (err.code === 'EACCES') reject(new Error(`not allowed to listen on port ${port} (http11pool listener); use a port above 1023`));
      else if (err.code === 'EADDRNOTAVAIL') reject(new Error(`cannot bind ${host}: no such local address (--host)`));
      else reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server.address().port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Binds the pool's ports; resolves with {port, urlSuffix, ports, close()} once all serve. */
async function startPool(ctx) {
  const count = ctx.options.http11PoolPorts;
  const router = delayRangeRouter(ctx.router, ctx.options.testDelayRange);
  const servers = [];
  const sockets = new Set();
  const close = async () => {
    const closing = servers.map((s) => new Promise((resolve) => s.close(() => resolve())));
    // Idle keep-alive connections would hold close() for seconds.
    for (const s of sockets) s.destroy();
    await Promise.all(closing);
  };
  const ports = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const server = createHttp1Server({ router, log: ctx.log, listener: ctx.name, connectionIdPrefix: `${ctx.name}.${i + 1}`, closeEachConnection: false });
      server.on('connection', (s) => {
        sockets.add(s);
        s.once('close', () => sockets.delete(s));
      });
      servers.push(server);
      ports.push(await listen(server, ctx.port === 0 ? 0 : ctx.port + i, ctx.host));
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { port: ports[0], ports, urlSuffix: poolUrlSuffix(ports), close };
}

module.exports = {
  name: 'http11pool',
  label: 'HTTP/1.1 pool',
  description: 'HTTP/1.1 (keep-alive) on several more ports, one per stream of the parallel transport (a browser shares connections per port)',
  scheme: 'http',
  port: { option: 'http11PoolPort', flag: '--http11-pool-port', default: 0 },
  urlKey: 'http11pool',
  options: [
    {
      option: 'http11PoolPorts',
      flag: '--http11-pool-ports',
      default: 12,
      help: `how many ports the HTTP/1.1 pool has, 1-${MAX_PORTS} (default 12: a connection of its own for each of up to 12 parallel streams; first port --http11-pool-port, the others after it)`,
      parse: portCount,
    },
    {
      option: 'testDelayRange',
      flag: '--test-delay-range',
      default: null,
      help: 'TEST HOOK, for tests only, off by default: PATH,START,MS[,TIMES] holds the first TIMES (1) requests to the pool for PATH with a Range from byte START for MS ms',
      parse: parseDelayRange,
    },
  ],
  start: startPool,
};
