'use strict';
// Maps a request path onto a file under a root directory, refusing anything that could name
// a file outside it. The URL path is percent-decoded exactly once (a second decoding is what
// turns "%252e%252e" into ".." in servers that get this wrong); after decoding, any "..",
// backslash, NUL or control character is refused outright rather than normalised away, because
// no content file name needs them and a refused request cannot escape.
const path = require('node:path');

class UnsafePathError extends Error {
  constructor(message, status) {
    super(message);
    this.name = 'UnsafePathError';
    this.status = status;
  }
}

const MAX_PATH_LENGTH = 1024;

/**
 * @param {string} root      absolute directory
 * @param {string} urlPath   the path part of the request URL below the mount point, still
 *                           percent-encoded and without a leading "/",
 *                           e.g. "sample/chunk-1-00001.m4s"
 * @returns {string} absolute file path inside root
 * @throws {UnsafePathError} with .status: 400 (malformed or escaping), 404 (not something we
 *   serve: directories, hidden names) or 414 (longer than any content path)
 */
function resolveSafePath(root, urlPath) {
  if (typeof urlPath !== 'string') throw new UnsafePathError('no path', 400);
  if (urlPath.length > MAX_PATH_LENGTH) throw new UnsafePathError('path too long', 414);
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    throw new UnsafePathError('malformed percent-encoding in path', 400);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(decoded)) throw new UnsafePathError('control character in path', 400);
  if (decoded.includes('\\')) throw new UnsafePathError('backslash in path', 400);
  // The path is relative to the root; one that starts with "/" (e.g. "/content//etc/passwd",
  // or an encoded "%2fetc") names a file somewhere else entirely.
  if (decoded.startsWith('/')) throw new UnsafePathError('absolute path', 400);
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..')) throw new UnsafePathError('".." in path', 400);
  // "." segments are harmless and dropped; an empty name ("a//b", "dir/") is not a file.
  const parts = segments.filter((s) => s !== '.');
  if (parts.length === 0 || parts.some((s) => s === '')) throw new UnsafePathError('not a file path', 404);
  if (parts.some((s) => s.startsWith('.'))) throw new UnsafePathError('hidden files are not served', 404);
  const rootAbs = path.resolve(root);
  const file = path.resolve(rootAbs, ...parts);
  // Belt and braces: after all the checks above this cannot fail, but it is the property that
  // matters, so it is checked on the final path itself.
  if (!file.startsWith(rootAbs + path.sep)) throw new UnsafePathError('path escapes the root', 400);
  return file;
}

module.exports = { resolveSafePath, UnsafePathError };
