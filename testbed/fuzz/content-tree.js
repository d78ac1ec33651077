'use strict';
// The small content tree the fuzzed origin serves, generated in a temp dir: a few files of
// the kinds the origin knows (MPD, init and media segments with a priority map, a file with a
// non-ASCII name) and the bait a path bug would serve: a secret file outside the root, a
// sibling directory whose name starts with the root's name, and symlinks inside the root that
// point out of it. The secret is a fresh random token; no response may ever contain it.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');
const crypto = require('node:crypto');

// Strings no response from the origin may contain: the outside files' token (repeated, so
// even a short range of the file holds it whole), the TLS private key in the data dir and
// /etc/passwd's first line.
const FIXED_FORBIDDEN = ['PRIVATE KEY-----', 'root:x:0:0:'];

/** Deterministic, non-repeating-looking bytes, so a range served from the wrong offset is seen. */
function patternBytes(n, salt) {
  const out = Buffer.alloc(n);
  let x = salt >>> 0 || 1;
  for (let i = 0; i < n; i += 1) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** A priority map (origin/content/media/priority-map.js format) covering `size` bytes. */
function syntheticPriorityMap(size) {
  const kinds = ['container', 'parameterSet', 'sliceHeader', 'iSliceData', 'sliceHeader', 'pbSliceData'];
  const ranges = [];
  let at = 0;
  let k = 0;
  while (at < size) {
    const kind = kinds[k % kinds.length];
    const len = kind.endsWith('SliceData') ? 9000 : 40;
    const end = Math.min(size, at + len);
    ranges.push([at, end, kind]);
    at = end;
    k += 1;
  }
  return { ranges };
}

/**
 * @param {string} [parent]  where to make the temp dir (default os.tmpdir())
 * @returns {{base: string, root: string, dataDir: string, logFile: string, secret: string,
 *   forbidden: string[], files: Map<string, Buffer>, segmentPath: string, bigPath: string,
 *   longPath: string, smallPath: string, escapes: string[], remove: () => void}}
 *   files: content paths below /content/ -> their bytes
 */
function createContentTree(parent = os.tmpdir()) {
  const base = makeLabTempDir('fuzz', parent);
  const root = path.join(base, 'content');
  const outside = path.join(base, 'outside');
  const sibling = path.join(base, 'content-evil'); // "startsWith(root)" without a separator would let it in
  const dataDir = path.join(base, 'data');
  const secret = `FUZZ-SECRET-${crypto.randomBytes(12).toString('hex')}`;
  for (const d of [path.join(root, 'media'), path.join(root, 'big'), outside, sibling, dataDir]) fs.mkdirSync(d, { recursive: true });

  const secretBody = `${secret}\n`.repeat(512);
  fs.writeFileSync(path.join(outside, 'secret.txt'), secretBody);
  fs.writeFileSync(path.join(outside, 'chunk-1-00002.m4s'), secretBody);
  fs.writeFileSync(path.join(sibling, 'secret.txt'), secretBody);

  const files = new Map();
  const put = (rel, bytes) => {
    fs.writeFileSync(path.join(root, rel), bytes);
    files.set(rel, bytes);
  };
  put('media/manifest.mpd', Buffer.from('<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static"></MPD>\n'));
  put('media/small.txt', Buffer.from('small\n'));
  put('media/init-1.m4s', patternBytes(1500, 11));
  const segment = patternBytes(64 * 1024, 12);
  put('media/chunk-1-00001.m4s', segment);
  fs.writeFileSync(path.join(root, 'media', 'priority-1.json'), JSON.stringify({ version: 1, representation: '1', segments: [{ url: 'chunk-1-00001.m4s', size: segment.length, priority: syntheticPriorityMap(segment.length) }] }));
  put('media/ünï cødé.txt', Buffer.from('non-ascii name\n'));
  // Big enough that a reader who never reads fills every socket buffer on the way.
  put('big/chunk-2-00001.m4s', patternBytes(8 * 1024 * 1024, 13));
  // Long enough to keep a DataChannel busy for a while, small enough to be read often.
  put('media/long.bin', patternBytes(1024 * 1024, 14));
  put('media/.hidden', Buffer.from('hidden\n'));
  files.delete('media/.hidden'); // inside the root but never served (safe-path: hidden names are 404)

  // Links inside the root that lead out of it: relative and absolute, to a file and a directory.
  fs.symlinkSync(path.join('..', '..', 'outside', 'secret.txt'), path.join(root, 'media', 'escape.txt'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'media', 'escape-abs.txt'));
  fs.symlinkSync(path.join('..', '..', 'outside'), path.join(root, 'media', 'outside-dir'));
  fs.symlinkSync(path.join(outside, 'chunk-1-00002.m4s'), path.join(root, 'media', 'chunk-1-00002.m4s'));
  fs.symlinkSync('/etc/passwd', path.join(root, 'media', 'passwd'));

  return {
    base,
    root,
    dataDir,
    logFile: path.join(base, 'requests.ndjson'),
    secret,
    forbidden: [secret, ...FIXED_FORBIDDEN],
    files,
    segmentPath: 'media/chunk-1-00001.m4s',
    bigPath: 'big/chunk-2-00001.m4s',
    longPath: 'media/long.bin',
    smallPath: 'media/small.txt',
    /** Names (relative to the root, as a URL would name them) that lead out of it. */
    escapes: ['media/escape.txt', 'media/escape-abs.txt', 'media/outside-dir/secret.txt', 'media/chunk-1-00002.m4s', 'media/passwd', '../outside/secret.txt', '../content-evil/secret.txt'],
    remove: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** The first forbidden string found in `bytes`, or null. */
function findForbidden(bytes, forbidden) {
  if (!bytes || bytes.length === 0) return null;
  const text = Buffer.isBuffer(bytes) ? bytes.toString('latin1') : Buffer.from(bytes).toString('latin1');
  return forbidden.find((s) => text.includes(s)) || null;
}

module.exports = { createContentTree, findForbidden, patternBytes };
