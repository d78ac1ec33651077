'use strict';
// The origin's listeners: the only list of their names, schemes, port options and the URL keys
// under which the ready line and GET /api/info publish them (the player's transports read
// urls.http11, urls.h2, ...). start-origin.js starts every entry; cli.js builds its port flags,
// --help and printed URLs from them. A new listener is one file in this folder plus one
// registerListener line below (or a registerListener call before the origin starts, as
// test/fixtures/throwaway-listener.js does). docs/extending.md ("Adding an origin listener") has the contract.
//
// Two kinds of entry:
//   listener    owns a port (HTTP/1.1, HTTP/1.0-style, HTTP/2 ...): either a Node server the
//               origin listens with (`create`), or something that binds its own port, such as
//               the QUIC carrier process of HTTP/3 (`start`)
//   attachment  an endpoint with no port of its own, reached through an HTTP upgrade on every
//               listener with `upgrades: true` (the DataChannel signaling WebSocket)

const listeners = [];
const attachments = [];

const NAME = /^[a-z][a-z0-9]*$/;
const PORT_FLAG = /^--[a-z][a-z0-9-]*-port$/; // "-port" keeps them clear of the CLI's other options
const OPTION = /^[a-z][A-Za-z0-9]*Port$/;
const OPTION_NAME = /^[a-z][A-Za-z0-9]*$/;

function check(condition, entry, what) {
  if (!condition) throw new Error(`origin listener "${entry && entry.name}": ${what}`);
}

const urlKeysOf = (e) => [e.urlKey, ...Object.keys(e.extraUrls || {})];
const flagsOf = (e) => [...(e.port ? [e.port.flag] : []), ...(e.options || []).map((o) => o.flag)];

/** Every key an entry claims must be unique across both kinds: they share the urls object. */
function checkUnique(entry) {
  for (const other of [...listeners, ...attachments]) {
    check(other.name !== entry.name, entry, 'a listener or attachment with this name is already registered');
    for (const key of urlKeysOf(entry)) check(!urlKeysOf(other).includes(key), entry, `urlKey "${key}" is already used by "${other.name}"`);
    if (other.port && entry.port) {
      check(other.port.flag !== entry.port.flag, entry, `port flag ${entry.port.flag} is already used by "${other.name}"`);
      check(other.port.option !== entry.port.option, entry, `port option ${entry.port.option} is already used by "${other.name}"`);
    }
    for (const flag of flagsOf(entry)) check(!flagsOf(other).includes(flag), entry, `flag ${flag} is already used by "${other.name}"`);
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
 * @param {(ctx: {name: string, router: Function, log: object, cert: object}) => import('node:net').Server} [entry.create]
 *   the server, not yet listening; it must hand requests to ctx.router with a connection info
 *   naming ctx.name as its listener (http1-app.js, http2-server.js)
 * @param {(ctx: object) => Promise<{port: number, urlSuffix?: string, close: () => Promise<void>}|{unavailable: string}>} [entry.start]
 *   instead of create: binds its port itself (ctx: name, router, log, cert, host, port, options,
 *   contentDir, contentCache). {unavailable: why} leaves it out (the origin serves on without
 *   it and says why), as the QUIC listener does when its binary is not built. urlSuffix is
 *   appended to its URL (the HTTP/1.1 pool lists its other ports: "/#ports=P1,P2").
 * @param {Object<string, string>} [entry.extraUrls]  more url keys on the same port: key -> path
 *   (urls.webtransport = https://HOST:PORT/fdsp)
 * @param {Array<{option: string, flag: string, default: *, help: string, parse: (text: string) => *}>} [entry.options]
 *   the listener's own settings: startOrigin() option, CLI flag, --help line; parse throws on bad text
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
  check((typeof entry.create === 'function') !== (typeof entry.start === 'function'), entry, 'needs exactly one of create or start (functions)');
  check(entry.extraUrls === undefined || Object.entries(entry.extraUrls).every(([k, v]) => NAME.test(k) && /^\/\S*$/.test(v)), entry, 'extraUrls maps lower-case keys to paths starting with "/"');
  check(entry.options === undefined || (Array.isArray(entry.options) && entry.options.every((o) => OPTION_NAME.test(o.option) && /^--[a-z][a-z0-9-]*$/.test(o.flag) && typeof o.help === 'string' && typeof o.parse === 'function')), entry, 'options must be {option, flag, default, help, parse} entries');
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
registerListener(require('./h3'));
registerListener(require('./http11-pool'));
registerAttachment(require('./fdsp-signaling'));

module.exports = {
  registerListener,
  registerAttachment,
  /** Listeners in start order (a copy: registering goes through registerListener). */
  listeners: () => [...listeners],
  attachments: () => [...attachments],
};
