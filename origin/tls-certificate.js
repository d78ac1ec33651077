'use strict';
// The HTTP/2 (and later HTTP/3 / WebTransport) listener's certificate: self-signed ECDSA P-256
// for 127.0.0.1, ::1 and localhost, valid 13 days. WebTransport's serverCertificateHashes only
// accepts ECDSA certificates valid for less than 14 days, and Chromium's QUIC needs the SPKI
// hash pinned (--ignore-certificate-errors-spki-list), so the same certificate serves all.
// Kept in the data dir and regenerated when missing, unreadable, not what is described here,
// or within a day of expiry.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFileSync } = require('node:child_process');

const VALID_DAYS = 13;
const RENEW_BEFORE_MS = 24 * 3600 * 1000;
// serverCertificateHashes refuses a validity period of 14 days or more.
const MAX_VALIDITY_MS = 14 * 24 * 3600 * 1000;
const DEFAULT_DATA_DIR = path.resolve(__dirname, '..', 'data');

/**
 * Hashes a browser needs from a certificate (PEM or DER).
 * @returns {{spkiSha256: string, certSha256: Buffer, certSha256Hex: string, validFrom: Date, validTo: Date}}
 *   spkiSha256: base64 sha256 of the DER SubjectPublicKeyInfo (Chromium's
 *   --ignore-certificate-errors-spki-list); certSha256: sha256 of the DER certificate
 *   (WebTransport serverCertificateHashes value).
 */
function describeCertificate(certPem) {
  const x509 = new crypto.X509Certificate(certPem);
  const spki = x509.publicKey.export({ type: 'spki', format: 'der' });
  const certSha256 = crypto.createHash('sha256').update(x509.raw).digest();
  return {
    spkiSha256: crypto.createHash('sha256').update(spki).digest('base64'),
    certSha256,
    certSha256Hex: certSha256.toString('hex'),
    validFrom: new Date(x509.validFrom),
    validTo: new Date(x509.validTo),
  };
}

/** Why a stored certificate cannot be used any more, or null if it can. */
function reasonToRenew(certPem, keyPem, now) {
  const x509 = new crypto.X509Certificate(certPem);
  const key = crypto.createPrivateKey(keyPem);
  const pub = x509.publicKey;
  if (pub.asymmetricKeyType !== 'ec' || pub.asymmetricKeyDetails.namedCurve !== 'prime256v1') return 'not ECDSA P-256';
  if (!x509.checkPrivateKey(key)) return 'key does not match certificate';
  const from = Date.parse(x509.validFrom);
  const to = Date.parse(x509.validTo);
  if (to - from >= MAX_VALIDITY_MS) return 'valid 14 days or more';
  if (from > now) return 'not valid yet';
  if (to - now < RENEW_BEFORE_MS) return 'expires within a day';
  return null;
}

function generate(keyFile, certFile) {
  // Written under temporary names and renamed into place, so a process reading the pair
  // while another renews it never sees a half-written file.
  const suffix = `.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const tmpKey = keyFile + suffix;
  const tmpCert = certFile + suffix;
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', tmpKey, '-out', tmpCert, '-days', String(VALID_DAYS),
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost',
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    fs.chmodSync(tmpKey, 0o600);
    fs.renameSync(tmpKey, keyFile);
    fs.renameSync(tmpCert, certFile);
  } catch (err) {
    fs.rmSync(tmpKey, { force: true });
    fs.rmSync(tmpCert, { force: true });
    if (err.code === 'ENOENT' && err.path === 'openssl') {
      throw new Error('openssl not found: it makes the HTTP/2 certificate (run "npm run setup", or apt-get install openssl)');
    }
    throw new Error(`openssl could not make a certificate: ${String(err.stderr || err.message).trim()}`);
  }
}

/**
 * Returns the listener certificate, making a new one first if needed.
 * @param {string} [dataDir]  the certificate lives in <dataDir>/tls/ (default <repo>/data)
 * @param {{now?: number}} [opts]
 * @returns {{key: Buffer, cert: Buffer, keyFile: string, certFile: string, spkiSha256: string,
 *   certSha256: Buffer, certSha256Hex: string, validFrom: Date, validTo: Date,
 *   generated: boolean, renewReason: string|null}}
 */
function ensureCertificate(dataDir = DEFAULT_DATA_DIR, { now = Date.now() } = {}) {
  const dir = path.join(dataDir, 'tls');
  const keyFile = path.join(dir, 'origin-key.pem');
  const certFile = path.join(dir, 'origin-cert.pem');
  fs.mkdirSync(dir, { recursive: true });
  let renewReason;
  try {
    renewReason = reasonToRenew(fs.readFileSync(certFile), fs.readFileSync(keyFile), now);
  } catch (err) {
    renewReason = err.code === 'ENOENT' ? 'missing' : `unreadable (${err.message})`;
  }
  if (renewReason) generate(keyFile, certFile);
  const key = fs.readFileSync(keyFile);
  const cert = fs.readFileSync(certFile);
  return { key, cert, keyFile, certFile, ...describeCertificate(cert), generated: Boolean(renewReason), renewReason: renewReason || null };
}

module.exports = { ensureCertificate, describeCertificate, VALID_DAYS };
