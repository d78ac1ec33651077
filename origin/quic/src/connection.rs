//! One QUIC connection: its congestion controller switch, its HTTP/3 accept loop, the routing
//! of each bidirectional stream (an HTTP/3 request, a WebTransport CONNECT, or a stream of an
//! existing WebTransport session) and the dispatch of received datagrams to their session.

use crate::congestion::{CcName, CcSwitch, SwitchableFactory};
use crate::{datagram_size, diag, h3_proxy, webtransport};
use bytes::Bytes;
use h3::ext::Protocol;
use h3::frame::FrameStream;
use h3::proto::frame::Frame;
use h3::stream::BufRecvStream;
use h3::webtransport::SessionId;
use http::{Method, StatusCode};
use std::collections::HashMap;
use std::future::poll_fn;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

pub type H3Conn = h3::server::Connection<h3_quinn::Connection, Bytes>;
pub type ReqStream = h3::server::RequestStream<h3_quinn::BidiStream<Bytes>, Bytes>;
/// A WebTransport stream once its WEBTRANSPORT_STREAM header is read; h3 buffers what came
/// after the header and implements tokio AsyncRead/AsyncWrite on it.
pub type WtBidi = BufRecvStream<h3_quinn::BidiStream<Bytes>, Bytes>;
type Resolver = h3::server::RequestResolver<h3_quinn::Connection, Bytes>;

/// What every connection needs from the command line, plus the counters that name things.
pub struct Shared {
    pub h3_backend: PathBuf,
    pub fdsp_bridge: PathBuf,
    pub h3_cc: CcName,
    pub fixed_rate_kbps: u64,
    pub connections: AtomicU64,
    pub sessions: AtomicU64,
}

/// Where a session wants the streams and datagrams its client sends.
pub struct SessionEntry {
    pub streams: mpsc::Sender<WtBidi>,
    pub datagrams: mpsc::Sender<Bytes>,
}

pub struct ConnCtx {
    pub id: u64,
    pub peer: SocketAddr,
    pub quic: quinn::Connection,
    pub cc: Arc<CcSwitch>,
    pub sessions: Mutex<HashMap<SessionId, SessionEntry>>,
    pub shared: Arc<Shared>,
}

/// The transport settings of one connection, with its own controller switch.
pub fn transport_config(cc: Arc<CcSwitch>) -> quinn::TransportConfig {
    let mut t = quinn::TransportConfig::default();
    t.congestion_controller_factory(Arc::new(SwitchableFactory { switch: cc }));
    // FDSP's unreliable part: room for a burst of segment data (and Node's socket is the queue).
    t.datagram_receive_buffer_size(Some(1 << 20));
    t.datagram_send_buffer_size(1 << 20);
    t.max_idle_timeout(Some(Duration::from_secs(30).try_into().unwrap()));
    t.keep_alive_interval(Some(Duration::from_secs(10)));
    t
}

/// Accepts one incoming connection with a controller of its own and serves it until it ends.
pub async fn serve(incoming: quinn::Incoming, base: quinn::ServerConfig, shared: Arc<Shared>) {
    let cc = CcSwitch::new(shared.h3_cc, shared.fixed_rate_kbps);
    let mut config = base;
    config.transport_config(Arc::new(transport_config(cc.clone())));
    let peer = incoming.remote_address();
    let connecting = match incoming.accept_with(Arc::new(config)) {
        Ok(c) => c,
        Err(e) => return diag!("refused a connection from {peer}: {e}"),
    };
    let quic = match connecting.await {
        Ok(c) => c,
        Err(e) => return diag!("handshake with {peer} failed: {e}"),
    };
    let ctx = Arc::new(ConnCtx {
        id: shared.connections.fetch_add(1, Ordering::Relaxed) + 1,
        peer,
        quic: quic.clone(),
        cc,
        sessions: Mutex::new(HashMap::new()),
        shared,
    });
    tokio::spawn(dispatch_datagrams(ctx.clone()));

    let built = h3::server::builder()
        .enable_webtransport(true)
        .enable_extended_connect(true)
        .enable_datagram(true)
        .max_webtransport_sessions(16)
        .send_grease(true)
        .build(h3_quinn::Connection::new(quic.clone()))
        .await;
    let mut h3conn: H3Conn = match built {
        Ok(c) => c,
        Err(e) => return diag!("HTTP/3 setup with {peer} failed: {e}"),
    };
    loop {
        match poll_fn(|cx| h3conn.poll_accept_request_stream(cx)).await {
            Ok(Some(s)) => {
                let resolver = h3conn.create_resolver(FrameStream::new(BufRecvStream::new(s)));
                tokio::spawn(route_stream(resolver, ctx.clone()));
            }
            Ok(None) => break,
            Err(e) => {
                if !e.is_h3_no_error() && quic.close_reason().is_none() {
                    diag!("HTTP/3 connection h3-{} from {peer} failed: {e}", ctx.id);
                }
                break;
            }
        }
    }
    // Sessions end with their connection (they also watch quic.closed()).
}

/// The first frame tells a WebTransport stream (it names its session) from an HTTP/3 request.
async fn route_stream(mut resolver: Resolver, ctx: Arc<ConnCtx>) {
    let first = poll_fn(|cx| resolver.frame_stream.poll_next(cx)).await;
    if let Ok(Some(Frame::WebTransportStream(session_id))) = first {
        let stream: WtBidi = resolver.frame_stream.into_inner();
        let sender = ctx.sessions.lock().unwrap().get(&session_id).map(|s| s.streams.clone());
        // A stream for no session, or a second one, is dropped (quinn stops/finishes it).
        if let Some(tx) = sender {
            let _ = tx.try_send(stream);
        }
        return;
    }
    let resolved = match resolver.accept_with_frame(first) {
        Ok(r) => r.resolve().await,
        Err(e) => Err(e),
    };
    let (req, mut stream) = match resolved {
        Ok(x) => x,
        Err(_) => return, // malformed: h3 already answered with a stream or connection error
    };
    if req.method() == Method::CONNECT {
        if req.extensions().get::<Protocol>() == Some(&Protocol::WEB_TRANSPORT) {
            return webtransport::handle_connect(req, stream, ctx).await;
        }
        return respond_status(&mut stream, StatusCode::NOT_IMPLEMENTED).await;
    }
    h3_proxy::proxy(req, stream, ctx).await
}

async fn respond_status(stream: &mut ReqStream, status: StatusCode) {
    let resp = http::Response::builder().status(status).body(()).unwrap();
    let _ = stream.send_response(resp).await;
    let _ = stream.finish().await;
}

/// quinn has one datagram queue per connection; each datagram names its session.
async fn dispatch_datagrams(ctx: Arc<ConnCtx>) {
    while let Ok(d) = ctx.quic.read_datagram().await {
        let Some((stream_id, payload)) = datagram_size::split_received(&d) else { continue };
        let Ok(key) = SessionId::try_from(stream_id) else { continue };
        let tx = ctx.sessions.lock().unwrap().get(&key).map(|s| s.datagrams.clone());
        if let Some(tx) = tx {
            // Client datagrams are an error Node only counts: drop them if Node is behind.
            let _ = tx.try_send(d.slice_ref(payload));
        }
    }
}
