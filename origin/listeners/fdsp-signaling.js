'use strict';
// The DataChannel (FDSP) signaling endpoint, ws://<HTTP/1.x listener>/fdsp, where players set up
// their peer connections. An attachment, not a listener: it has no port of its own but rides on
// every listener that takes HTTP upgrades (the HTTP/1.x ones), so a page loaded from either finds
// it on its own origin; giving it a port would add a flag and a socket that serve nothing else.
const { createSignalingServer, PATH } = require('../datachannel/signaling-server');

// A wildcard bind address means "let libdatachannel choose" where ICE gathers.
const WILDCARD_HOSTS = ['0.0.0.0', '::', ''];

module.exports = {
  name: 'fdsp',
  label: 'DataChannel signaling (WebSocket)',
  urlKey: 'fdsp',
  path: PATH,
  create: ({ contentDir, host, log, contentCache, webrtcStack }) => createSignalingServer({
    contentDir,
    contentCache,
    webrtcStack,
    // ICE gathers on the address we serve on.
    bindAddress: WILDCARD_HOSTS.includes(host) ? undefined : host,
    log: (entry) => log.record(entry),
  }),
};
