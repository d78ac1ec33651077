'use strict';
// The client's address as the request log writes it ("IP:PORT", "[IPv6]:PORT"), read once per
// connection. The log needs it to tell, after an emulated network switch, a request the client
// sent from its new address from one still in flight from the old one (testbed/runner/switch-connections.js).

/** @param {import('node:net').Socket} socket @returns {string|undefined} */
function socketPeer(socket) {
  const ip = socket && socket.remoteAddress;
  if (!ip) return undefined; // already closed
  const host = ip.includes(':') ? `[${ip}]` : ip;
  return `${host}:${socket.remotePort}`;
}

module.exports = { socketPeer };
