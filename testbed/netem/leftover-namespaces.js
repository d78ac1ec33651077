'use strict';
// Network namespaces this project names lab<srv|cli><index> outlive a run that was killed hard
// (SIGKILL, a machine restart mid-run): close() never ran. Empty ones are harmless but pile up
// and confuse whoever lists namespaces, so runs point at them and `npm run cleanup` removes
// them. A namespace with a process inside belongs to a run still going: it is left alone; so
// is one made in the last minute, which a starting run has not yet put its origin into.
const fs = require('node:fs');
const { ip, namespaceNames, namespacePids } = require('./ip-netns');

const DEFAULT_MIN_AGE_MS = 60000;

/** Named as createEmulatedLink names its namespaces. */
function isLabNamespace(name) {
  return /^lab(srv|cli)\d+$/.test(name);
}

/**
 * This project's namespaces on the machine, each with the PIDs running in it now and its age.
 * @param {string[]} [names]  only these (default: every lab<srv|cli>N)
 */
function listLabNamespaces(names = null) {
  let all;
  try {
    all = namespaceNames();
  } catch {
    return []; // no iproute2, or no namespaces directory yet
  }
  return all.filter((name) => isLabNamespace(name) && (!names || names.includes(name)))
    .map((name) => {
      let pids = [];
      try {
        pids = namespacePids(name);
      } catch { /* deleted meanwhile */ }
      let ageMs = null;
      try {
        ageMs = Date.now() - fs.statSync(`/run/netns/${name}`).mtimeMs;
      } catch { /* iproute2 built with another directory: age unknown */ }
      return { name, pids, ageMs };
    });
}

/** Why a namespace must stay, or null if it is a leftover. */
function keepReason(n, minAgeMs) {
  if (n.pids.length) return `in use by PIDs ${n.pids.join(' ')}`;
  if (n.ageMs !== null && n.ageMs < minAgeMs) return `made ${Math.round(n.ageMs / 1000)} s ago (a run may be starting in it)`;
  return null;
}

/** Names of the leftovers: namespaces of ours with nothing in them, older than minAgeMs. */
function leftoverNamespaces({ minAgeMs = DEFAULT_MIN_AGE_MS } = {}) {
  return listLabNamespaces().filter((n) => !keepReason(n, minAgeMs)).map((n) => n.name);
}

/** A line for a run's start if leftovers are about, else null. */
function leftoverNotice({ minAgeMs = DEFAULT_MIN_AGE_MS } = {}) {
  const names = leftoverNamespaces({ minAgeMs });
  if (!names.length) return null;
  return `note: ${names.length} network namespace(s) left by a run that was killed hard (${names.join(', ')}): harmless, "npm run cleanup" removes them`;
}

/**
 * Deletes the leftovers; reports what it removed, what it kept and why, and what it could not delete.
 * @param {object} [o]
 * @param {string[]} [o.names]   only these namespaces
 * @param {number} [o.minAgeMs]  keep empty ones younger than this
 * @param {boolean} [o.dryRun]   decide, delete nothing
 */
function removeLeftoverNamespaces({ names = null, minAgeMs = DEFAULT_MIN_AGE_MS, dryRun = false } = {}) {
  const removed = [];
  const kept = [];
  const errors = [];
  for (const n of listLabNamespaces(names)) {
    const why = keepReason(n, minAgeMs);
    if (why) {
      kept.push({ name: n.name, why });
      continue;
    }
    try {
      if (!dryRun) ip('netns', 'del', n.name);
      removed.push(n.name);
    } catch (err) {
      errors.push({ name: n.name, message: String(err.stderr || err.message).trim() });
    }
  }
  return { removed, kept, errors };
}

module.exports = { isLabNamespace, listLabNamespaces, leftoverNamespaces, leftoverNotice, removeLeftoverNamespaces, DEFAULT_MIN_AGE_MS };
