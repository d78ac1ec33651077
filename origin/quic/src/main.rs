//! quic-origin: the QUIC carrier of dash-transport-lab. One UDP port, HTTP/3 proxied to Node's
//! HTTP/1.1 backend and WebTransport /fdsp sessions bridged to Node's FDSP responder. It holds
//! no content logic; Node's origin spawns it and owns its lifetime (see --help).

mod bridge;
mod cli;
mod congestion;
mod connection;
mod datagram_size;
mod h3_proxy;
mod pacing;
mod tls;
mod varint;
mod webtransport;

use connection::Shared;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use tokio::io::AsyncReadExt;

/// Diagnostics: one line each on stderr, prefixed so they can be told apart in Node's log.
#[macro_export]
macro_rules! diag {
    ($($arg:tt)*) => { eprintln!("quic-origin: {}", format!($($arg)*)) };
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match cli::parse(&argv) {
        Ok(cli::Parsed::Help) => {
            print!("{}", cli::HELP);
            return;
        }
        Ok(cli::Parsed::Run(a)) => a,
        Err(msg) => {
            diag!("{msg}");
            std::process::exit(2);
        }
    };
    let server_config = match tls::server_config(&args.cert, &args.key) {
        Ok(c) => c,
        Err(msg) => {
            diag!("{msg}");
            std::process::exit(1);
        }
    };
    // Two workers: the lab machine has two cores shared with Node and Chromium.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    let code = runtime.block_on(run(args, server_config));
    // Exit without waiting for tokio's blocking stdin reader.
    std::process::exit(code);
}

async fn run(args: cli::Args, server_config: quinn::ServerConfig) -> i32 {
    let endpoint = match quinn::Endpoint::server(server_config.clone(), args.listen) {
        Ok(e) => e,
        Err(e) => {
            diag!("cannot listen on UDP {}: {e}", args.listen);
            return 1;
        }
    };
    let local = endpoint.local_addr().expect("bound socket has an address");
    println!(
        "{}",
        serde_json::json!({"event": "quic-ready", "pid": std::process::id(), "port": local.port(), "address": local.to_string()})
    );
    let shared = Arc::new(Shared {
        h3_backend: args.h3_backend,
        fdsp_bridge: args.fdsp_bridge,
        h3_cc: args.h3_cc,
        fixed_rate_kbps: args.fixed_rate_kbps,
        connections: AtomicU64::new(0),
        sessions: AtomicU64::new(0),
    });

    let accept = async {
        while let Some(incoming) = endpoint.accept().await {
            tokio::spawn(connection::serve(incoming, server_config.clone(), shared.clone()));
        }
    };
    let reason = tokio::select! {
        _ = accept => "the endpoint stopped",
        r = exit_signal() => r,
    };
    diag!("exiting: {reason}");
    endpoint.close(0u32.into(), b"origin shutting down");
    // Give the CONNECTION_CLOSE frames a moment to leave; never hang the parent's shutdown.
    let _ = tokio::time::timeout(std::time::Duration::from_millis(300), endpoint.wait_idle()).await;
    0
}

/// SIGINT, SIGTERM, or stdin EOF: Node spawns us with a stdin pipe it never writes, so EOF
/// means the parent is gone (even if it was SIGKILLed) and we must not outlive it.
async fn exit_signal() -> &'static str {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate()).expect("SIGTERM handler");
    let mut int = signal(SignalKind::interrupt()).expect("SIGINT handler");
    let stdin_eof = async {
        let mut stdin = tokio::io::stdin();
        let mut buf = [0u8; 256];
        loop {
            match stdin.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {} // anything written is ignored
            }
        }
    };
    tokio::select! {
        _ = term.recv() => "SIGTERM",
        _ = int.recv() => "SIGINT",
        _ = stdin_eof => "stdin closed",
    }
}
