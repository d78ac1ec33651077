//! The QUIC server's TLS configuration from the origin's PEM certificate and key.

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::path::Path;
use std::sync::Arc;

pub fn server_config(cert: &Path, key: &Path) -> Result<quinn::ServerConfig, String> {
    let cert_pem = std::fs::read(cert).map_err(|e| format!("cannot read --cert {}: {e}", cert.display()))?;
    let key_pem = std::fs::read(key).map_err(|e| format!("cannot read --key {}: {e}", key.display()))?;
    let chain = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("--cert {} is not a PEM certificate: {e}", cert.display()))?;
    if chain.is_empty() {
        return Err(format!("--cert {} holds no certificate", cert.display()));
    }
    let key_der = PrivateKeyDer::from_pem_slice(&key_pem)
        .map_err(|e| format!("--key {} is not a PEM private key: {e}", key.display()))?;

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    // QUIC is TLS 1.3 only. with_single_cert never asks for SNI, which matters: Chromium sends
    // none when the URL's host is an IP literal (https://127.0.0.1:PORT).
    let mut tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| format!("TLS setup failed: {e}"))?
        .with_no_client_auth()
        .with_single_cert(chain, key_der)
        .map_err(|e| format!("--cert/--key cannot be used: {e}"))?;
    tls.alpn_protocols = vec![b"h3".to_vec()];
    tls.max_early_data_size = 0;
    let quic = quinn::crypto::rustls::QuicServerConfig::try_from(tls)
        .map_err(|e| format!("TLS config unusable for QUIC: {e}"))?;
    Ok(quinn::ServerConfig::with_crypto(Arc::new(quic)))
}
