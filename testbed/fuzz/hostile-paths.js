'use strict';
// Generated request paths aimed at getting a file from outside the content root: dot-dot
// segments in every spelling (percent-encoded, double-encoded, overlong UTF-8, full-width and
// look-alike dots and slashes, backslashes), the symlinks in the fuzz tree that point out of
// it, odd request-target forms, and lengths up to 100,000 characters. About one in eight is a
// control: a real content file under a harmless but unusual spelling that must be served
// byte for byte (a server that refused everything would pass the other checks).

const DOT_DOT = ['..', '%2e%2e', '%2E%2E', '.%2e', '%2e.', '%252e%252e', '%c0%ae%c0%ae', '%e0%80%ae%e0%80%ae', '%ef%bc%8e%ef%bc%8e', '．．', '%u002e%u002e', '...', '....', '..%00', '..;', '.. ', '..%20', '%2e%2e%00'];
const SLASH = ['/', '%2f', '%2F', '%252f', '\\', '%5c', '%5C', '%c0%af', '%e0%80%af', '%ef%bc%8f', '／', '//', '/./', ';/'];
const MOUNTS = ['/content/', '/content/media/', '/content/media/outside-dir/', '/content/big/', '/vendor/', '/player/', '/', '//content/', '/content//', '/content/./', '/CONTENT/', '/content', '/content%2f', '/healthz/', '/api/info/'];
const TARGETS = ['outside/secret.txt', 'content-evil/secret.txt', 'data/tls/origin-key.pem', 'etc/passwd', 'proc/self/environ', 'secret.txt', 'outside/chunk-1-00002.m4s'];
const SUFFIXES = ['', '', '', '?', '?a=b', '#frag', '%00', '%00.m4s', '/', '/.', ';x', '%20', '.', '%0a', '%0d%0aX-Injected:%201', '?../../outside/secret.txt', '::$DATA', '~'];
const LONG_UNITS = ['a', '../', '%2e%2e%2f', '%', 'é', '/', './', '%25', 'x/', '\u{1F600}', '%ff'];
const ODD_TARGETS = ['*', 'http://x/content/../outside/secret.txt', 'http://x', 'HTTP://[::1]:1/content/media/escape.txt', '//x/content/media/manifest.mpd', 'content/media/manifest.mpd', '/content/media/manifest.mpd?', '/content/media/manifest.mpd#', '/?', '/#', 'file:///etc/passwd', 'http://[', 'http://x:99999/', '/content/media/manifest.mpd/', '/content/media/manifest.mpd/.', '/content/media/manifest.mpd%2f..%2f..%2f..%2fsecret.txt'];

function encodeChar(prng, ch) {
  const hex = (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  const r = prng.next();
  if (r < 0.4) return ch;
  if (r < 0.65) return hex(ch).toUpperCase();
  if (r < 0.8) return hex(ch).toLowerCase();
  if (r < 0.9) return hex(ch).replace(/%/g, '%25'); // double-encoded
  if (ch === '.') return prng.pick(['%c0%ae', '%e0%80%ae', '%ef%bc%8e', '．', '%u002e']);
  if (ch === '/') return prng.pick(['%c0%af', '\\', '%5c', '／']);
  return ch;
}

/** Each character of s, sometimes percent-encoded in one of several ways. */
function respell(prng, s, p = 0.3) {
  return [...s].map((ch) => (prng.chance(p) ? encodeChar(prng, ch) : ch)).join('');
}

function traversal(prng) {
  const depth = prng.int(1, 9);
  let s = '';
  for (let i = 0; i < depth; i += 1) s += prng.pick(DOT_DOT) + prng.pick(SLASH);
  return s;
}

function longPath(prng) {
  const unit = prng.pick(LONG_UNITS);
  const chars = prng.pick([100, 1000, 1023, 1024, 1025, 4096, 8192, 16384, 20000, 65536, 100000, prng.int(1, 100000)]);
  const body = unit.repeat(Math.max(1, Math.floor(chars / unit.length)));
  return `${prng.pick(MOUNTS)}${body}${prng.chance(0.5) ? prng.pick(TARGETS) : ''}`.slice(0, 100000);
}

function randomPath(prng) {
  const n = prng.length(300);
  let s = '/';
  for (let i = 0; i < n; i += 1) {
    const r = prng.next();
    if (r < 0.6) s += String.fromCharCode(prng.int(0x21, 0x7e));
    else if (r < 0.8) s += `%${prng.int(0, 255).toString(16).padStart(2, '0')}`;
    else s += String.fromCodePoint(prng.pick([0xe9, 0x2215, 0xff0e, 0xff0f, 0x202e, 0xfeff, 0x1f600, 0x10ffff, 0x3000]));
  }
  return s;
}

/** A content file under a harmless unusual spelling: it must come back byte for byte. */
function control(prng, files) {
  const rel = prng.pick([...files.keys()]);
  const spelled = rel.split('/').map((seg) => [...seg].map((ch) => {
    if (/[A-Za-z0-9._~-]/.test(ch)) return prng.chance(0.3) ? `%${ch.charCodeAt(0).toString(16).toUpperCase()}` : ch;
    return [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }).join(''));
  const withDots = spelled.flatMap((seg) => (prng.chance(0.2) ? ['.', seg] : [seg]));
  return { path: `/content/${withDots.join('/')}${prng.pick(['', '', '?x=1', '#f', '?'])}`, control: rel };
}

/**
 * @param {object} prng   prng.js
 * @param {{files: Map<string, Buffer>, escapes: string[]}} tree
 * @returns {{path: string, control?: string}}  control: the content file it must serve
 */
function hostilePath(prng, tree) {
  const r = prng.next();
  if (r < 0.12) return control(prng, tree.files);
  if (r < 0.5) return { path: `${prng.pick(MOUNTS)}${respell(prng, traversal(prng) + prng.pick(TARGETS), prng.pick([0, 0.2, 0.5]))}${prng.pick(SUFFIXES)}` };
  if (r < 0.65) return { path: `/content/${respell(prng, prng.pick(tree.escapes), prng.pick([0, 0.3]))}${prng.pick(SUFFIXES)}` };
  if (r < 0.75) return { path: longPath(prng) };
  if (r < 0.85) return { path: randomPath(prng) };
  if (r < 0.93) return { path: prng.pick(ODD_TARGETS) };
  // An absolute form whose path part traverses.
  return { path: `http://${prng.pick(['x', '127.0.0.1', '[::1]', 'evil.invalid:80'])}${prng.pick(MOUNTS)}${respell(prng, traversal(prng) + prng.pick(TARGETS))}` };
}

module.exports = { hostilePath, respell, traversal };
