//! A WebTransport session on /fdsp, bridged to Node's FDSP bridge (bridge.rs).
//!
//! We keep the CONNECT stream ourselves (instead of h3-webtransport's session type) because
//! closing a session with a code and a reason means writing a CLOSE_WEBTRANSPORT_SESSION capsule
//! on it, and noticing the client's close means reading it. Datagrams go straight through quinn
//! with the HTTP/3 datagram prefix (datagram_size.rs), so we see quinn's own errors and can wait
//! for room instead of letting quinn drop the oldest queued datagram.

use crate::bridge::{self, Hello, Kind};
use crate::congestion::{session_cc_from_query, CcName, SessionCc, MAX_RATE_KBPS, MIN_RATE_KBPS};
use crate::connection::{ConnCtx, ReqStream, SessionEntry, WtBidi};
use crate::pacing::TokenBucket;
use crate::{datagram_size, diag, varint};
use bytes::Bytes;
use h3::webtransport::SessionId;
use http::{Request, Response, StatusCode};
use serde_json::{json, Value};
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::UnixStream;
use tokio::sync::{mpsc, Mutex};

const CLOSE_WEBTRANSPORT_SESSION: u64 = 0x2843;
const CLOSE_REASON: &str = "origin closed the session";
/// Bytes Node may send on the reliable connection before the client opened its stream
/// (normally none: Node only answers requests).
const MAX_EARLY_RELIABLE_BYTES: usize = 1 << 20;
/// Datagrams per pacing burst (the contract: ≤ 4).
const BURST_DATAGRAMS: u64 = 4;

/// The capsule that closes a session (draft-ietf-webtrans-http3 section 5): code + UTF-8 reason.
pub fn close_capsule(code: u32, reason: &str) -> Vec<u8> {
    let mut payload = code.to_be_bytes().to_vec();
    payload.extend_from_slice(reason.as_bytes());
    let mut out = Vec::new();
    varint::encode(CLOSE_WEBTRANSPORT_SESSION, &mut out);
    varint::encode(payload.len() as u64, &mut out);
    out.extend_from_slice(&payload);
    out
}

#[derive(Default)]
struct Stats {
    sent: AtomicU64,
    dropped_locally: AtomicU64,
    too_large: AtomicU64,
}

#[derive(Debug)]
enum End {
    ClientClosed,
    ConnectionLost,
    BridgeClosed,
    BridgeError(String),
    ClientStreamFailed,
}

async fn reject(stream: &mut ReqStream, status: StatusCode, reason: String) {
    let resp = Response::builder()
        .status(status)
        .header("content-type", "text/plain; charset=utf-8")
        .body(())
        .unwrap();
    if stream.send_response(resp).await.is_ok() {
        let _ = stream.send_data(Bytes::from(reason + "\n")).await;
        let _ = stream.finish().await;
    }
}

pub async fn handle_connect(req: Request<()>, mut stream: ReqStream, ctx: Arc<ConnCtx>) {
    let path = req.uri().path_and_query().map(|p| p.as_str()).unwrap_or("/").to_string();
    if req.uri().path() != "/fdsp" {
        let reason = format!("no WebTransport endpoint at {}: use /fdsp", req.uri().path());
        return reject(&mut stream, StatusCode::NOT_FOUND, reason).await;
    }
    let cc = match session_cc_from_query(req.uri().query(), ctx.cc.name(), ctx.shared.fixed_rate_kbps) {
        Ok(cc) => cc,
        Err(reason) => return reject(&mut stream, StatusCode::BAD_REQUEST, reason).await,
    };
    let connect_id = stream.send_id().into_inner();
    let key = SessionId::try_from(connect_id).expect("a stream id is a varint");
    let name = format!("wt-{}", ctx.shared.sessions.fetch_add(1, Ordering::Relaxed) + 1);
    let hello = Hello {
        session: name.clone(),
        peer: ctx.peer.to_string(),
        path,
        cc: cc.name.as_str(),
        rate_kbps: cc.rate_kbps,
        max_datagram_bytes: datagram_size::max_fdsp_frame(ctx.quic.max_datagram_size(), connect_id),
    };
    // Bridge first: if Node is not there the client gets a 503, not a session that dies at once.
    let socket = &ctx.shared.fdsp_bridge;
    let connected = async {
        let r = bridge::connect(socket, Kind::Reliable, &hello).await?;
        let u = bridge::connect(socket, Kind::Unreliable, &hello).await?;
        Ok::<_, io::Error>((r, u))
    };
    let (reliable, unreliable) = match connected.await {
        Ok(x) => x,
        Err(e) => {
            diag!("{name}: {e}");
            let reason = "the origin's FDSP bridge is unreachable".to_string();
            return reject(&mut stream, StatusCode::SERVICE_UNAVAILABLE, reason).await;
        }
    };
    ctx.cc.set(cc);
    let (stream_tx, stream_rx) = mpsc::channel(1);
    let (datagram_tx, datagram_rx) = mpsc::channel(1024);
    ctx.sessions.lock().unwrap().insert(key, SessionEntry { streams: stream_tx, datagrams: datagram_tx });

    let ok = Response::builder()
        .status(StatusCode::OK)
        // Chromium checks this header (the draft it speaks).
        .header("sec-webtransport-http3-draft", "draft02")
        .body(())
        .unwrap();
    if stream.send_response(ok).await.is_ok() {
        run_session(stream, reliable, unreliable, stream_rx, datagram_rx, &ctx, connect_id, cc, &name).await;
    }
    ctx.sessions.lock().unwrap().remove(&key);
}

#[allow(clippy::too_many_arguments)]
async fn run_session(
    stream: ReqStream,
    reliable: UnixStream,
    unreliable: UnixStream,
    stream_rx: mpsc::Receiver<WtBidi>,
    datagram_rx: mpsc::Receiver<Bytes>,
    ctx: &Arc<ConnCtx>,
    connect_id: u64,
    cc: SessionCc,
    name: &str,
) {
    let (mut connect_send, mut connect_recv) = stream.split();
    let stats = Arc::new(Stats::default());
    let (u_read, u_write) = unreliable.into_split();
    let u_write = Arc::new(Mutex::new(u_write));

    let end = tokio::select! {
        e = async {
            // The client's close: a CLOSE_WEBTRANSPORT_SESSION capsule then FIN, or a reset.
            loop {
                match connect_recv.recv_data().await {
                    Ok(Some(_capsules)) => continue,
                    Ok(None) | Err(_) => return End::ClientClosed,
                }
            }
        } => e,
        e = pipe_reliable(reliable, stream_rx) => e,
        e = pump_datagrams(u_read, u_write.clone(), ctx, connect_id, cc, &stats) => e,
        e = forward_client_datagrams(datagram_rx, u_write.clone()) => e,
        _ = ctx.quic.closed() => End::ConnectionLost,
    };
    match &end {
        End::ConnectionLost => return,
        End::ClientClosed => {
            let _ = connect_send.finish().await;
            return;
        }
        End::BridgeError(e) => diag!("{name}: bridge protocol error, closing the session: {e}"),
        End::ClientStreamFailed => {
            // A page closing its session makes Chromium reset the session's streams, and the reset
            // can overtake the CLOSE_WEBTRANSPORT_SESSION capsule on the CONNECT stream: a close
            // seen shortly after the failure is the client's normal close, not worth a line.
            let closed = tokio::time::timeout(Duration::from_millis(250), async {
                while let Ok(Some(_)) = connect_recv.recv_data().await {}
            })
            .await
            .is_ok();
            if closed {
                let _ = connect_send.finish().await;
                return;
            }
            diag!("{name}: the client's stream failed, closing the session")
        }
        End::BridgeClosed => {}
    }
    // "Sent" only means queued: let queued datagrams and the last stream bytes leave before
    // the close, or the client would discard them with the session.
    let rtt = ctx.quic.rtt();
    let deadline = Instant::now() + Duration::from_secs(1);
    while ctx.quic.datagram_send_buffer_space() < (1 << 20) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    tokio::time::sleep((rtt * 2 + Duration::from_millis(20)).min(Duration::from_secs(1))).await;
    let _ = connect_send.send_data(Bytes::from(close_capsule(0, CLOSE_REASON))).await;
    let _ = connect_send.finish().await;
    // Wait for the client's FIN on the CONNECT stream before dropping our receiving half:
    // dropping it early sends STOP_SENDING, and Chromium then reports "Connection lost"
    // instead of the close code and reason.
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        while let Ok(Some(_)) = connect_recv.recv_data().await {}
    })
    .await;
}

/// Reliable part: the client's one bidi stream <-> Node's reliable connection, both already
/// `[len][frame]` messages, piped verbatim.
async fn pipe_reliable(node: UnixStream, mut streams: mpsc::Receiver<WtBidi>) -> End {
    let (mut node_r, mut node_w) = node.into_split();
    let mut early = Vec::new();
    let bidi = loop {
        tokio::select! {
            s = streams.recv() => match s {
                Some(b) => break b,
                None => return std::future::pending().await,
            },
            n = node_r.read_buf(&mut early) => match n {
                Ok(0) | Err(_) => return End::BridgeClosed,
                Ok(_) if early.len() > MAX_EARLY_RELIABLE_BYTES => {
                    return End::BridgeError("Node sent over 1 MiB before the client opened its stream".into())
                }
                Ok(_) => {}
            },
        }
    };
    let (mut client_r, mut client_w) = tokio::io::split(bidi);
    if client_w.write_all(&early).await.is_err() {
        return End::ClientStreamFailed;
    }
    let up = async {
        // The client finished its stream: pass the half-close on and keep the session; a reset
        // stream is the end of the session's requests.
        match tokio::io::copy(&mut client_r, &mut node_w).await {
            Ok(_) => {
                let _ = node_w.shutdown().await;
                std::future::pending().await
            }
            Err(_) => End::ClientStreamFailed,
        }
    };
    let down = async {
        match tokio::io::copy(&mut node_r, &mut client_w).await {
            Ok(_) => {
                let _ = client_w.shutdown().await;
                End::BridgeClosed
            }
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe || e.kind() == io::ErrorKind::ConnectionReset => {
                End::BridgeClosed
            }
            Err(_) => End::ClientStreamFailed,
        }
    };
    tokio::select! { e = up => e, e = down => e }
}

/// Node -> client datagrams (messages starting 0xFD) and Node's JSON control messages ('{').
/// One message is read only after the previous datagram was handed to quinn, and quinn is
/// asked to wait for room (never to drop the oldest), so Node's socket buffer is the queue.
async fn pump_datagrams(
    mut node: OwnedReadHalf,
    node_w: Arc<Mutex<OwnedWriteHalf>>,
    ctx: &Arc<ConnCtx>,
    connect_id: u64,
    cc: SessionCc,
    stats: &Arc<Stats>,
) -> End {
    let header = datagram_size::header(connect_id);
    let burst = |max: Option<usize>| BURST_DATAGRAMS * max.unwrap_or(1200) as u64;
    let rate = cc.rate_kbps.unwrap_or(ctx.shared.fixed_rate_kbps);
    let mut bucket = TokenBucket::new(rate, burst(ctx.quic.max_datagram_size()), Instant::now());
    loop {
        let msg = match bridge::read_message(&mut node).await {
            Ok(Some(m)) => m,
            Ok(None) => return End::BridgeClosed,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => return End::BridgeError(e.to_string()),
            Err(_) => return End::BridgeClosed,
        };
        match msg.first() {
            Some(0xfd) => {}
            Some(b'{') => {
                let control: Value = match serde_json::from_slice(&msg) {
                    Ok(v) => v,
                    Err(e) => return End::BridgeError(format!("control message is not JSON: {e}")),
                };
                if let Some(kbps) = control.get("paceKbps") {
                    match kbps.as_u64().filter(|k| (MIN_RATE_KBPS..=MAX_RATE_KBPS).contains(k)) {
                        Some(k) if ctx.cc.name() == CcName::Fixed => {
                            bucket.set_rate_kbps(k, Instant::now());
                            ctx.cc.set_rate_kbps(k); // the window holds the same rate
                        }
                        Some(_) => {} // ignored for controllers that set their own rate
                        None => diag!("ignoring paceKbps {kbps}: must be {MIN_RATE_KBPS}..{MAX_RATE_KBPS}"),
                    }
                }
                if control.get("stats") == Some(&Value::Bool(true)) {
                    let answer = stats_json(ctx, stats).to_string();
                    let mut w = node_w.lock().await;
                    if bridge::write_message(&mut *w, answer.as_bytes()).await.is_err() {
                        return End::BridgeClosed;
                    }
                }
                continue;
            }
            Some(b) => {
                return End::BridgeError(format!(
                    "unreliable message starts with 0x{b:02x}: neither an FDSP frame (0xfd) nor JSON"
                ))
            }
            None => return End::BridgeError("empty unreliable message".into()),
        }
        let max = ctx.quic.max_datagram_size();
        if msg.len() > datagram_size::max_fdsp_frame(max, connect_id) {
            stats.too_large.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let mut d = Vec::with_capacity(header.len() + msg.len());
        d.extend_from_slice(&header);
        d.extend_from_slice(&msg);
        if ctx.cc.name() == CcName::Fixed {
            bucket.set_burst_bytes(burst(max));
            loop {
                let wait = bucket.wait_for(d.len(), Instant::now());
                if wait.is_zero() {
                    break;
                }
                tokio::time::sleep(wait).await;
            }
            bucket.take(d.len(), Instant::now());
        }
        match ctx.quic.send_datagram_wait(Bytes::from(d)).await {
            Ok(()) => {
                stats.sent.fetch_add(1, Ordering::Relaxed);
            }
            Err(quinn::SendDatagramError::TooLarge) => {
                stats.too_large.fetch_add(1, Ordering::Relaxed);
            }
            Err(quinn::SendDatagramError::ConnectionLost(_)) => return End::ConnectionLost,
            Err(_) => {
                stats.dropped_locally.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

fn stats_json(ctx: &ConnCtx, stats: &Stats) -> Value {
    let s = ctx.quic.stats();
    json!({"stats": {
        "datagramsSent": stats.sent.load(Ordering::Relaxed),
        "datagramsDroppedLocally": stats.dropped_locally.load(Ordering::Relaxed),
        "datagramsTooLarge": stats.too_large.load(Ordering::Relaxed),
        "cc": ctx.cc.name().as_str(),
        "rttMs": (ctx.quic.rtt().as_secs_f64() * 1e6).round() / 1e3,
        "lostPackets": s.path.lost_packets,
        "cwnd": s.path.cwnd,
    }})
}

/// Client -> Node datagrams, verbatim (Node counts them as a client error).
async fn forward_client_datagrams(mut rx: mpsc::Receiver<Bytes>, node_w: Arc<Mutex<OwnedWriteHalf>>) -> End {
    while let Some(d) = rx.recv().await {
        let mut w = node_w.lock().await;
        if bridge::write_message(&mut *w, &d).await.is_err() {
            return End::BridgeClosed;
        }
    }
    std::future::pending().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_close_capsule_carries_code_and_reason() {
        let c = close_capsule(0, "bye");
        // 0x2843 is a 2-byte varint (0x68 0x43); length 4 + 3.
        assert_eq!(c, vec![0x68, 0x43, 7, 0, 0, 0, 0, b'b', b'y', b'e']);
        assert_eq!(close_capsule(7, CLOSE_REASON).len(), 2 + 1 + 4 + CLOSE_REASON.len());
    }
}
