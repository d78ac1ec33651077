'use strict';
// A registry: the one list of the plug-ins of one kind (transports, ABRs), by name. Everything
// that offers a choice (page form, URL parsing, scenario validation, results table, report)
// reads the registry, so a new plug-in is one file plus one register() call. Entries are kept
// in registration order, which is the order the page and the tables show them in.

const NAME_RE = /^[a-z][a-z0-9_-]*$/;

/**
 * @param {object} o
 * @param {string} o.kind                   'transport', 'ABR': for messages
 * @param {(entry: object) => object} o.normalize  checks an entry (throws with the reason) and
 *   returns the frozen form the registry keeps
 * @param {(entry: object, registry: object) => void} [o.checkAgainst]  checks an entry against
 *   those already registered (e.g. option names two transports would both claim)
 * @param {(registry: object) => void} [o.onChange]  after every register / unregister (views
 *   derived from the list stay current)
 */
function createRegistry({ kind, normalize, checkAgainst, onChange = () => {} }) {
  const entries = new Map();
  const registry = {
    kind,
    /** Adds an entry; refuses a bad or duplicate name and an entry that fails its contract. */
    register(raw) {
      if (!raw || typeof raw !== 'object') throw new TypeError(`a ${kind} entry must be an object, got ${String(raw)}`);
      if (typeof raw.name !== 'string' || !NAME_RE.test(raw.name)) throw new TypeError(`a ${kind} name must be lower-case letters, digits, "-" or "_", got ${JSON.stringify(raw.name)}`);
      if (entries.has(raw.name)) throw new Error(`${kind} "${raw.name}" is registered twice`);
      const entry = normalize(raw);
      if (checkAgainst) checkAgainst(entry, registry);
      entries.set(entry.name, entry);
      onChange(registry);
      return entry;
    },
    /** Removes an entry (tests that register a throw-away entry clean up with this). */
    unregister(name) {
      const removed = entries.delete(name);
      onChange(registry);
      return removed;
    },
    has(name) {
      return entries.has(name);
    },
    /** The entry, or an error naming the known ones. */
    get(name) {
      const entry = entries.get(name);
      if (!entry) throw new Error(`unknown ${kind} ${JSON.stringify(name)} (known: ${registry.names().join(', ')})`);
      return entry;
    },
    names() {
      return [...entries.keys()];
    },
    list() {
      return [...entries.values()];
    },
  };
  return registry;
}

module.exports = { createRegistry };
