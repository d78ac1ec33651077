'use strict';
// Two sessions that carry one FDSP session between them (WebTransport's split carrier, the
// DataChannel's two associations): the first one opened asks with ?pairToken=T, the second
// names it with ?pairWith=T and carries the first one's unreliable part. T is 16 lower-case hex
// digits from the platform's CSPRNG, so one client cannot guess another's.

const TOKEN = /^[0-9a-f]{16}$/;

/** A new token (the browser's and Node 20's crypto.getRandomValues). */
function newPairToken() {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A session's URL: the carrier's base URL with these query parameters (its pairing, its options). */
function sessionUrl(baseUrl, params) {
  const url = new URL(baseUrl);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  return url.toString();
}

/**
 * A session URL's pairing, checked.
 * @param {URLSearchParams} query
 * @returns {{pairToken: string|null, pairWith: string|null}}
 * @throws {RangeError} a malformed token, or both given
 */
function readPairParams(query) {
  const token = (name) => {
    const v = query.get(name);
    if (v === null) return null;
    if (!TOKEN.test(v)) throw new RangeError(`${name} must be 16 lower-case hex digits`);
    return v;
  };
  const pairToken = token('pairToken');
  const pairWith = token('pairWith');
  if (pairToken && pairWith) throw new RangeError('a session is either pairToken (it asks) or pairWith (it carries the unreliable part), not both');
  return { pairToken, pairWith };
}

module.exports = { newPairToken, readPairParams, sessionUrl, TOKEN };
