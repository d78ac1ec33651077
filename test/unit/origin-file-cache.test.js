'use strict';
// The origin's in-memory copy of served files, on real files: a copy is used only while the
// file on disk is the one it was read from.
const fs = require('node:fs');
const path = require('node:path');
const { FileCache } = require('../../origin/file-cache');
const { makeLabTempDir } = require('../../shared/lab-temp-dir');

let dir;
beforeEach(() => { dir = makeLabTempDir('file-cache'); });
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name, bytes, mtime) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  if (mtime) fs.utimesSync(file, mtime, mtime);
  return file;
}

test('a file is read once, then served from memory while it is unchanged', async () => {
  const file = write('a.m4s', Buffer.from('first version'));
  const cache = new FileCache({ maxBytes: 1024 });
  expect((await cache.read(file, fs.statSync(file))).toString()).toBe('first version');
  expect((await cache.read(file, fs.statSync(file))).toString()).toBe('first version');
  expect([cache.misses, cache.hits]).toEqual([1, 1]);
});

test('a rebuilt file (new bytes, same size, other mtime) is read again, never served stale', async () => {
  const file = write('a.m4s', Buffer.from('version one'), new Date(2020, 0, 1));
  const cache = new FileCache({ maxBytes: 1024 });
  await cache.read(file, fs.statSync(file));
  write('a.m4s', Buffer.from('version two'), new Date(2021, 0, 1));
  expect((await cache.read(file, fs.statSync(file))).toString()).toBe('version two');
  expect(cache.bytes).toBe(11); // the old copy was replaced, not kept beside it
});

test('a file replaced by another (a new inode, same size and mtime) is read again', async () => {
  const when = new Date(2020, 0, 1);
  const file = write('a.m4s', Buffer.from('AAAA'), when);
  const cache = new FileCache({ maxBytes: 1024 });
  await cache.read(file, fs.statSync(file));
  const other = write('b.m4s', Buffer.from('BBBB'), when);
  fs.renameSync(other, file);
  expect((await cache.read(file, fs.statSync(file))).toString()).toBe('BBBB');
});

test('a file that changed between its stat and its read is not kept (null: stream it)', async () => {
  const file = write('a.m4s', Buffer.from('short'));
  const staleStat = fs.statSync(file);
  write('a.m4s', Buffer.from('much longer now'));
  const cache = new FileCache({ maxBytes: 1024 });
  expect(await cache.read(file, staleStat)).toBeNull();
  expect(cache.bytes).toBe(0);
});

test('bounded in bytes: the least recently used files go first; large files are never kept', async () => {
  const cache = new FileCache({ maxBytes: 100, maxFileBytes: 60 });
  const files = ['a', 'b', 'c'].map((n) => write(n, Buffer.alloc(40, n)));
  await cache.read(files[0], fs.statSync(files[0]));
  await cache.read(files[1], fs.statSync(files[1]));
  await cache.read(files[0], fs.statSync(files[0])); // a is now the most recently used
  await cache.read(files[2], fs.statSync(files[2])); // 120 bytes > 100: b goes
  expect([...cache.entries.keys()].map((f) => path.basename(f))).toEqual(['a', 'c']);
  expect(cache.bytes).toBe(80);
  expect(cache.fits(fs.statSync(write('big', Buffer.alloc(61))))).toBe(false);
  expect(new FileCache({ maxBytes: 0 }).fits(fs.statSync(files[0]))).toBe(false);
});

test('concurrent misses of one file read it once', async () => {
  const file = write('a.m4s', Buffer.alloc(1000, 7));
  const cache = new FileCache({ maxBytes: 10000 });
  const stat = fs.statSync(file);
  const reads = await Promise.all(Array.from({ length: 10 }, () => cache.read(file, stat)));
  expect(new Set(reads).size).toBe(1);
  expect(cache.bytes).toBe(1000);
});
