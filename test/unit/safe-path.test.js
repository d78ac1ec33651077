'use strict';
const path = require('node:path');
const { resolveSafePath, UnsafePathError } = require('../../origin/safe-path');

const ROOT = '/srv/content';

describe('resolveSafePath', () => {
  test.each([
    ['sample/manifest.mpd', '/srv/content/sample/manifest.mpd'],
    ['/sample/manifest.mpd', '/srv/content/sample/manifest.mpd'],
    ['sample/./chunk-1-00001.m4s', '/srv/content/sample/chunk-1-00001.m4s'],
    ['my%20video/manifest.mpd', '/srv/content/my video/manifest.mpd'],
    ['caf%C3%A9/a.m4s', '/srv/content/café/a.m4s'],
    // Decoded once only: "%25" stays a literal percent sign in the name, never a second escape.
    ['%252e%252e/etc/passwd', '/srv/content/%2e%2e/etc/passwd'],
  ])('%s -> inside the root', (input, expected) => {
    expect(resolveSafePath(ROOT, input)).toBe(expected);
  });

  // Each of these must be refused; none may resolve at all.
  test.each([
    ['../etc/passwd', 400],
    ['sample/../../etc/passwd', 400],
    ['..', 400],
    ['%2e%2e/etc/passwd', 400],
    ['%2E%2E%2Fetc%2Fpasswd', 400],
    ['..%2fetc%2fpasswd', 400],
    ['sample/%2e%2e/%2e%2e/etc/passwd', 400],
    ['..\\etc\\passwd', 400],
    ['sample%5c..%5c..%5cetc', 400],
    ['sample/manifest.mpd%00.m4s', 400],
    ['sample/\u0000x', 400],
    ['sample/%0a', 400],
    ['%', 400],
    ['%E0%A4%A', 400],
    ['a'.repeat(5000), 414],
    ['', 404],
    ['/', 404],
    ['sample/', 404],
    ['sample//manifest.mpd', 404],
    ['.hidden', 404],
    ['sample/.git/config', 404],
  ])('%j is refused with %i', (input, status) => {
    let error;
    try {
      resolveSafePath(ROOT, input);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UnsafePathError);
    expect(error.status).toBe(status);
  });

  test('absolute-looking paths stay under the root', () => {
    // "/etc/passwd" below the mount point is the file etc/passwd inside the root.
    expect(resolveSafePath(ROOT, '/etc/passwd')).toBe(path.join(ROOT, 'etc/passwd'));
    expect(resolveSafePath(ROOT, '%2Fetc%2Fpasswd')).toBe(path.join(ROOT, 'etc/passwd'));
  });

  test('non-string input is refused', () => {
    expect(() => resolveSafePath(ROOT, undefined)).toThrow(UnsafePathError);
  });
});
