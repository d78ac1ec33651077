//! HTTP/3 requests proxied to Node's private HTTP/1.1 backend over a unix socket, so the h3
//! listener has exactly the routes, ranges, headers and request log of the other listeners.
//! One backend connection per request: simple, and an aborted h3 stream maps to an aborted
//! HTTP/1.1 request that Node logs as such.

use crate::connection::{ConnCtx, ReqStream};
use crate::diag;
use bytes::{Buf, Bytes, BytesMut};
use http::{HeaderName, HeaderValue, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use std::sync::Arc;
use tokio::net::UnixStream;

/// Requests here are GET/HEAD/OPTIONS; a small body is forwarded so Node can answer 405/413 itself.
const MAX_REQUEST_BODY: usize = 64 * 1024;

/// RFC 9110 section 7.6.1 connection-specific fields, plus the HTTP/2-3 ones HTTP/1.1 must not see.
fn is_hop_by_hop(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "connection" | "keep-alive" | "proxy-connection" | "transfer-encoding" | "upgrade" | "te" | "trailer"
    )
}

/// A request-target HTTP/1.1 can carry: origin-form of visible ASCII, or `*`. The h3 side
/// accepts more (any non-control bytes), and a target Node's parser would reject must get an
/// HTTP answer, not a dead backend connection.
pub fn valid_http11_target(target: &str) -> bool {
    target == "*" || (target.starts_with('/') && target.bytes().all(|b| (0x21..=0x7e).contains(&b)))
}

async fn respond_plain(stream: &mut ReqStream, status: StatusCode, text: &str) {
    let resp = Response::builder()
        .status(status)
        .header("content-type", "text/plain; charset=utf-8")
        .header("content-length", text.len())
        .body(())
        .unwrap();
    if stream.send_response(resp).await.is_ok() {
        let _ = stream.send_data(Bytes::copy_from_slice(text.as_bytes())).await;
        let _ = stream.finish().await;
    }
}

pub async fn proxy(req: Request<()>, mut stream: ReqStream, ctx: Arc<ConnCtx>) {
    let target = req.uri().path_and_query().map(|p| p.as_str()).unwrap_or("/").to_string();
    if !valid_http11_target(&target) {
        return respond_plain(&mut stream, StatusCode::BAD_REQUEST, "bad request path\n").await;
    }

    let mut body = BytesMut::new();
    loop {
        match stream.recv_data().await {
            Ok(Some(mut chunk)) => {
                if body.len() + chunk.remaining() > MAX_REQUEST_BODY {
                    return respond_plain(&mut stream, StatusCode::PAYLOAD_TOO_LARGE, "request body too large\n").await;
                }
                while chunk.has_remaining() {
                    let c = chunk.chunk();
                    body.extend_from_slice(c);
                    let n = c.len();
                    chunk.advance(n);
                }
            }
            Ok(None) => break,
            Err(_) => return, // the client gave up on the request
        }
    }

    let mut b = Request::builder().method(req.method().clone()).uri(&target);
    let mut cookies: Vec<&str> = Vec::new();
    for (name, value) in req.headers() {
        let n = name.as_str();
        // x-lab-* are trusted by Node on this socket: a client must not be able to set them.
        if is_hop_by_hop(name) || n == "host" || n == "content-length" || n.starts_with("x-lab-") {
            continue;
        }
        if n == "cookie" {
            // HTTP/3 may split cookies into several fields; HTTP/1.1 wants one (RFC 9114 4.2.1).
            if let Ok(v) = value.to_str() {
                cookies.push(v);
            }
            continue;
        }
        b = b.header(name, value);
    }
    if !cookies.is_empty() {
        if let Ok(v) = HeaderValue::from_str(&cookies.join("; ")) {
            b = b.header("cookie", v);
        }
    }
    let host = req
        .uri()
        .authority()
        .map(|a| a.as_str().to_string())
        .or_else(|| req.headers().get("host").and_then(|h| h.to_str().ok()).map(String::from))
        .unwrap_or_else(|| "localhost".into());
    let b = b
        .header("host", host)
        .header("x-lab-peer", ctx.peer.to_string())
        .header("x-lab-connection", format!("h3-{}", ctx.id))
        .header("x-lab-stream", stream.send_id().into_inner().to_string());
    let backend_req = match b.body(Full::new(body.freeze())) {
        Ok(r) => r,
        Err(_) => return respond_plain(&mut stream, StatusCode::BAD_REQUEST, "bad request header\n").await,
    };

    let socket = match UnixStream::connect(&ctx.shared.h3_backend).await {
        Ok(s) => s,
        Err(e) => {
            diag!("h3 backend {} unreachable: {e}", ctx.shared.h3_backend.display());
            return respond_plain(&mut stream, StatusCode::BAD_GATEWAY, "the origin's HTTP backend is unreachable\n").await;
        }
    };
    let (mut sender, conn) = match hyper::client::conn::http1::handshake(TokioIo::new(socket)).await {
        Ok(x) => x,
        Err(e) => {
            diag!("h3 backend handshake failed: {e}");
            return respond_plain(&mut stream, StatusCode::BAD_GATEWAY, "the origin's HTTP backend failed\n").await;
        }
    };
    // Aborted when this function returns by any path, so a client that reset its stream closes
    // the backend connection and Node sees the request aborted.
    let conn_task = AbortOnDrop(tokio::spawn(async move {
        let _ = conn.await;
    }));

    let resp = match sender.send_request(backend_req).await {
        Ok(r) => r,
        Err(e) => {
            diag!("h3 backend request failed: {e}");
            return respond_plain(&mut stream, StatusCode::BAD_GATEWAY, "the origin's HTTP backend failed\n").await;
        }
    };
    let (parts, mut resp_body) = resp.into_parts();
    let mut out = Response::builder().status(parts.status);
    for (name, value) in parts.headers.iter() {
        if !is_hop_by_hop(name) {
            out = out.header(name, value);
        }
    }
    if stream.send_response(out.body(()).unwrap()).await.is_err() {
        return;
    }
    // send_data waits for QUIC flow control, so a slow client slows the backend read (backpressure).
    while let Some(frame) = resp_body.frame().await {
        match frame {
            Ok(f) => {
                if let Ok(data) = f.into_data() {
                    if !data.is_empty() && stream.send_data(data).await.is_err() {
                        return; // the client reset or stopped the stream
                    }
                }
            }
            Err(e) => {
                diag!("h3 backend body failed: {e}");
                stream.stop_stream(h3::error::Code::H3_INTERNAL_ERROR);
                return;
            }
        }
    }
    let _ = stream.finish().await;
    drop(conn_task);
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);
impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http11_targets() {
        assert!(valid_http11_target("/content/sample/manifest.mpd?x=1"));
        assert!(valid_http11_target("/%2e%2e/etc/passwd"));
        assert!(valid_http11_target("*"));
        assert!(!valid_http11_target("/a b"));
        assert!(!valid_http11_target("/caf\u{e9}"));
        assert!(!valid_http11_target("relative"));
        assert!(!valid_http11_target(""));
    }
}
