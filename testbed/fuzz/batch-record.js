'use strict';
// What one fuzz batch saw: how many cases it ran, every status (or outcome) and how often,
// the 5xx answers no rule allows, forbidden content in a response, and failures with the case
// that caused them (the first few in full, the rest counted).
const { allowed5xx } = require('./allowed-5xx');
const { findForbidden } = require('./content-tree');

const KEPT_FAILURE_KINDS = 20;

class BatchRecord {
  /**
   * @param {string} name
   * @param {string[]} forbidden  strings no response may contain (content-tree.js)
   */
  constructor(name, forbidden) {
    this.name = name;
    this.forbidden = forbidden;
    this.cases = 0;
    this.planned = 0;
    this.statuses = new Map();
    this.fiveXX = 0;
    this.allowed5xx = 0;
    this.failureCount = 0;
    this.failureKinds = new Map(); // kind -> {message (the first of its kind), count, important}
    this.notes = [];
    this.healthz = null;
    // A /healthz answer over the limit, as a message, until run-fuzz.js has judged it (judgeSlowHealthz).
    this.slowHealthz = null;
    this.fds = null;
    this.rssKb = null;
  }

  /** One more case run (or n). */
  case(n = 1) {
    this.cases += n;
  }

  /** Counts an outcome label ("404", "close 1007", "rst PROTOCOL_ERROR"). */
  see(label) {
    const key = String(label);
    this.statuses.set(key, (this.statuses.get(key) || 0) + 1);
  }

  /**
   * An HTTP-like status the fuzzer saw; a 5xx that no rule allows is a failure.
   * @param {number|null} status
   * @param {{channel: 'http'|'ws-upgrade'|'datachannel', path?: string, body?: Buffer|string, what: string}} ctx
   */
  status(status, ctx) {
    this.see(status ?? 'none');
    if (status >= 500 && status <= 599) {
      const body = ctx.body === undefined ? undefined : String(ctx.body).slice(0, 300);
      if (allowed5xx({ status, channel: ctx.channel, path: ctx.path, body })) this.allowed5xx += 1;
      else {
        this.fiveXX += 1;
        this.fail(`${status} for ${ctx.what}${body ? `: ${JSON.stringify(body.slice(0, 120))}` : ''}`, { kind: `${status} ${ctx.channel}` });
      }
    }
  }

  /**
   * Fails if a response carries a forbidden string (a file from outside the content root).
   * @param {string} [kind]  groups the failures (default: the string and the first word of `what`)
   */
  scan(bytes, what, kind) {
    const hit = findForbidden(bytes, this.forbidden);
    if (hit) this.fail(`forbidden content ${JSON.stringify(hit.slice(0, 24))} in the response to ${what}`, { kind: kind || `forbidden ${hit} ${String(what).split(' ')[0]}` });
    return hit;
  }

  /**
   * @param {string} message
   * @param {{kind?: string, important?: boolean}} [o]  failures of one kind are reported once,
   *   with the first example and a count; important ones (the origin died, fds leaked) first
   */
  fail(message, { kind = message, important = false } = {}) {
    this.failureCount += 1;
    const k = this.failureKinds.get(kind);
    if (k) k.count += 1;
    else if (important || this.failureKinds.size < KEPT_FAILURE_KINDS) this.failureKinds.set(kind, { message, count: 1, important });
  }

  /** One line per kind of failure, the important ones first. */
  get failures() {
    const kinds = [...this.failureKinds.values()];
    return [...kinds.filter((k) => k.important), ...kinds.filter((k) => !k.important)].map((k) => (k.count > 1 ? `${k.message} (×${k.count} of this kind)` : k.message));
  }

  note(message) {
    this.notes.push(message);
  }

  get ok() {
    return this.failureCount === 0;
  }
}

/** A short printable form of a fuzz input, for failure messages. */
function describe(value, max = 100) {
  const s = Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
  const shown = JSON.stringify(s.length > max ? s.slice(0, max) : s);
  return s.length > max ? `${shown}... (${s.length} chars)` : shown;
}

module.exports = { BatchRecord, describe };
