'use strict';
// Recently served files kept in memory, so that a segment many players fetch is read from disk
// once rather than once per request. Node has no sendfile: a file streamed from disk costs an
// open, a close and a read per 64 KiB in libuv's thread pool, and those were most of the
// origin's time per segment (bench:origin). Bounded in bytes (least recently used goes first);
// an entry is only used while the file's size, mtime and inode are what they were when it was
// read, so a rebuilt preset is never served stale. Files larger than maxFileBytes are streamed.

const fs = require('node:fs');

class FileCache {
  /**
   * @param {object} [o]
   * @param {number} [o.maxBytes]      total bytes kept (default 256 MiB; 0 disables the cache)
   * @param {number} [o.maxFileBytes]  larger files are never kept (default 16 MiB)
   */
  constructor({ maxBytes = 256 * 1024 * 1024, maxFileBytes = 16 * 1024 * 1024 } = {}) {
    this.maxBytes = maxBytes;
    this.maxFileBytes = Math.min(maxFileBytes, maxBytes);
    this.bytes = 0;
    this.entries = new Map(); // file -> {buffer, size, mtimeMs, ino}; Map order = use order
    this.loading = new Map(); // file -> Promise<Buffer|null>, so concurrent misses read once
    this.hits = 0;
    this.misses = 0;
  }

  /** True when a file of this stat may be kept at all. */
  fits(stat) {
    return this.maxBytes > 0 && stat.size <= this.maxFileBytes;
  }

  /**
   * The file's bytes, from memory when the kept copy is still the file's, else read now.
   * @returns {Promise<Buffer|null>} null when the file changed while it was read (stream it)
   */
  async read(file, stat) {
    const kept = this.entries.get(file);
    if (kept && sameVersion(kept, stat)) {
      this.hits += 1;
      this.entries.delete(file); // move to the most recently used end
      this.entries.set(file, kept);
      return kept.buffer;
    }
    this.misses += 1;
    const pending = this.loading.get(file);
    if (pending && pending.stat && sameVersion(pending.stat, stat)) return pending;
    const loading = this.load(file, stat).finally(() => {
      if (this.loading.get(file) === loading) this.loading.delete(file);
    });
    loading.stat = stat;
    this.loading.set(file, loading);
    return loading;
  }

  async load(file, stat) {
    const buffer = await fs.promises.readFile(file);
    // Rewritten between the stat and the read: these bytes match neither version's headers.
    if (buffer.length !== stat.size) return null;
    this.forget(file);
    this.entries.set(file, { buffer, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
    this.bytes += buffer.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.buffer.length;
    }
    return buffer;
  }

  forget(file) {
    const kept = this.entries.get(file);
    if (!kept) return;
    this.entries.delete(file);
    this.bytes -= kept.buffer.length;
  }
}

function sameVersion(a, stat) {
  return a.size === stat.size && a.mtimeMs === stat.mtimeMs && a.ino === stat.ino;
}

module.exports = { FileCache };
