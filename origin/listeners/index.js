'use strict';
// The origin's listeners: the only list of their names, schemes, port options and the URL keys
// under which the ready line and GET /api/info publish them (the player's transports read
// urls.http11, urls.h2, ...). start-origin.js starts every entry; cli.js builds its port flags,
// --help and printed URLs from them. A new listener is one file in this folder plus one
// registerListener line below (or a registerListener call before the origin starts, as
// test/fixtures/throwaway-listener.js does). docs/extending.md ("Adding an origin listener") has the contract.
//
// Two kinds of entry:
//   listener    owns a port (HTTP/1.1, HTTP/1.0-style, HTTP/2 ...)
//   attachment  an endpoint with no port of its own, reached through an HTTP upgrade on every
//               listener with `upgrades: true` (the DataChannel signaling WebSocket)

const listeners = [];
const attachments = [];

const NAME = /^[a-z][a-z0-9]*$/;
const PORT_FLAG = /^--[a-z][a-z0-9-]*-port$/; // "-port" keeps them clear of the CLI's other options
const OPTION = /^[a-z][A-Za-z0-9]*Port$/;

function check(condition, entry, what) {
  if (!condition) throw new Error(`origin listener "${entry && entry.name}": ${what}`);
}

/** Every key an entry claims must be unique across both kinds: they share the urls object. */
function checkUnique(entry) {
  for (const other of [...listeners, ...attachments]) {
    check(other.name !== entry.name, entry, 'a listener or attachment with this name is already registered');
    check(other.urlKey !== entry.urlKey, entry, `urlKey "${entry.urlKey}" is already used by "${other.name}"`);
    if (other.port && entry.port) {
      check(other.port.flag !== entry.port.flag, entry, `port flag ${entry.port.flag} is already used by "${other.name}"`);
      check(other.port.option !== entry.port.option, entry, `port option ${entry.port.option} is already used by "${other.name}"`);
    }
  }
}

/**
 * Adds a listener (it is started after those registered before it).
 * @param {object} entry
 * @param {string} entry.name          lower-case word: logs, connection ids ("http11-3"), /api/info's `listener`
 * @param {string} entry.label         for people: the printed URL lines and --help ("HTTP/1.1")
 * @param {string} entry.description   one line for --help ("HTTP/1.1 (keep-alive)")
 * @param {'http'|'https'} entry.scheme
 * @param {{option: string, flag: string, default: number}} entry.port
 *   option: the startOrigin() option ("http11Port"); flag: the CLI flag ("--http11-port");
 *   default: the port when neither is given (0 = any free port)
 * @param {string} entry.urlKey        key in urls (ready line, /api/info): what the player reads
 * @param {string} [entry.pageTransport]  the player transport the printed page URL selects
 * @param {boolean} [entry.upgrades]   hands HTTP upgrade requests to the attachments
 * @param {(ctx: {name: string, router: Function, log: object, cert: object}) => import('node:net').Server} entry.create
 *   the server, not yet listening; it must hand requests to ctx.router with a connection info
 *   naming ctx.name as its listener (http1-app.js, http2-server.js)
 */
function registerListener(entry) {
  check(entry && NAME.test(entry.name), entry, 'name must be a lower-case word (a-z, 0-9)');
  check(typeof entry.label === 'string' && entry.label.length > 0, entry, 'label is missing');
  check(typeof entry.description === 'string' && entry.description.length > 0, entry, 'description is missing');
  check(['http', 'https'].includes(entry.scheme), entry, 'scheme must be "http" or "https"');
  check(entry.port && PORT_FLAG.test(entry.port.flag), entry, 'port.flag must look like --NAME-port');
  check(OPTION.test(entry.port.option), entry, 'port.option must look like namePort');
  check(Number.isInteger(entry.port.default) && entry.port.default >= 0 && entry.port.default <= 65535, entry, 'port.default must be a port number 0-65535');
  check(NAME.test(entry.urlKey), entry, 'urlKey must be a lower-case word');
  check(entry.pageTransport === undefined || typeof entry.pageTransport === 'string', entry, 'pageTransport must be a transport name');
  check(typeof entry.create === 'function', entry, 'create must be a function');
  checkUnique(entry);
  listeners.push(Object.freeze({ ...entry, port: Object.freeze({ ...entry.port }), upgrades: Boolean(entry.upgrades) }));
}

/**
 * Adds an attachment: an upgrade endpoint on the listeners with `upgrades: true`.
 * @param {object} entry
 * @param {string} entry.name, entry.label, entry.urlKey   as for a listener
 * @param {string} entry.path          the request path it answers ("/fdsp"); unique
 * @param {(ctx: {contentDir: string, host: string, log: object}) => {handleUpgrade: Function, close: Function}} entry.create
 *   handleUpgrade(req, socket, head) is called for upgrade requests to its path
 * Its URL is ws:// (wss:// on https) on the first such listener, in registry order.
 */
function registerAttachment(entry) {
  check(entry && NAME.test(entry.name), entry, 'name must be a lower-case word (a-z, 0-9)');
  check(typeof entry.label === 'string' && entry.label.length > 0, entry, 'label is missing');
  check(NAME.test(entry.urlKey), entry, 'urlKey must be a lower-case word');
  check(typeof entry.path === 'string' && /^\/\S*$/.test(entry.path), entry, 'path must start with "/"');
  check(!attachments.some((a) => a.path === entry.path), entry, `path ${entry.path} is already taken`);
  check(typeof entry.create === 'function', entry, 'create must be a function');
  checkUnique(entry);
  attachments.push(Object.freeze({ ...entry }));
}

registerListener(require('./http11'));
registerListener(require('./http10'));
registerListener(require('./h2'));
registerAttachment(require('./fdsp-signaling'));

module.exports = {
  registerListener,
  registerAttachment,
  /** Listeners in start order (a copy: registering goes through registerListener). */
  listeners: () => [...listeners],
  attachments: () => [...attachments],
};
