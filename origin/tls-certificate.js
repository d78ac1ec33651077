'use strict';
// The HTTP/2 (and later HTTP/3 / WebTransport) listener's certificate: self-signed ECDSA P-256
// for 127.0.0.1, ::1 and localhost, valid 13 days. WebTransport's serverCertificateHashes only
// accepts ECDSA certificates valid for less than 14 days, and Chromium's QUIC needs the SPKI
// hash pinned (--ignore-certificate-errors-spki-list), so the same certificate serves all.
// Kept in the data dir and regenerated when missing, unreadable or within a day of expiry.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');

const VALID_DAYS = 13;
const RENEW_BEFORE_MS = 24 * 3600 * 1000;

function describe(certPem) {
  const x509 = new crypto.X509Certificate(certPem);
  const spki = x509.publicKey.export({ type: 'spki', format: 'der' });
  return {
    spkiSha256: crypto.createHash('sha256').update(spki).digest('base64'),
    certSha256Hex: crypto.createHash('sha256').update(x509.raw).digest('hex'),
    validTo: new Date(x509.validTo),
  };
}

function generate(keyFile, certFile) {
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyFile, '-out', certFile, '-days', String(VALID_DAYS),
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost',
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    if (err.code === 'ENOENT') throw new Error('openssl not found: it makes the HTTP/2 certificate (run "npm run setup", or apt-get install openssl)');
    throw new Error(`openssl could not make a certificate: ${String(err.stderr || err.message).trim()}`);
  }
  fs.chmodSync(keyFile, 0o600);
}

/**
 * @param {string} dataDir  the certificate lives in <dataDir>/tls/
 * @returns {{key: Buffer, cert: Buffer, keyFile: string, certFile: string, spkiSha256: string, certSha256Hex: string, validTo: Date, generated: boolean}}
 */
function ensureCertificate(dataDir, { now = Date.now() } = {}) {
  const dir = path.join(dataDir, 'tls');
  const keyFile = path.join(dir, 'origin-key.pem');
  const certFile = path.join(dir, 'origin-cert.pem');
  fs.mkdirSync(dir, { recursive: true });
  let generated = false;
  let info = null;
  try {
    info = describe(fs.readFileSync(certFile));
    crypto.createPrivateKey(fs.readFileSync(keyFile));
    if (info.validTo.getTime() - now < RENEW_BEFORE_MS) info = null;
  } catch {
    info = null;
  }
  if (!info) {
    generate(keyFile, certFile);
    info = describe(fs.readFileSync(certFile));
    generated = true;
  }
  return { key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile), keyFile, certFile, ...info, generated };
}

module.exports = { ensureCertificate, VALID_DAYS };
