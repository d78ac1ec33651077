//! The Rust <-> Node bridge for WebTransport sessions: per session two unix-socket connections
//! (reliable, unreliable) to Node's FDSP bridge. Every message in both directions is
//! `[u32 BE len][bytes]` with len ≤ 262144 (frames.MAX_FRAME_BYTES); the first message Rust
//! sends on each is a JSON hello that lets Node pair the two and know the session.

use serde_json::json;
use std::io;
use std::path::Path;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::UnixStream;

pub const MAX_MESSAGE_BYTES: usize = 256 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Reliable,
    Unreliable,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Hello {
    pub session: String,
    pub peer: String,
    pub path: String,
    pub cc: &'static str,
    pub rate_kbps: Option<u64>,
    pub max_datagram_bytes: usize,
}

impl Hello {
    pub fn to_json(&self, kind: Kind) -> Vec<u8> {
        json!({
            "kind": match kind { Kind::Reliable => "reliable", Kind::Unreliable => "unreliable" },
            "session": self.session,
            "peer": self.peer,
            "path": self.path,
            "cc": self.cc,
            "rateKbps": self.rate_kbps,
            "maxDatagramBytes": self.max_datagram_bytes,
        })
        .to_string()
        .into_bytes()
    }
}

fn protocol_error(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

/// The length a 4-byte prefix announces, refused above the limit (a peer sending garbage must
/// not make us allocate 4 GB).
pub fn decode_len(prefix: [u8; 4]) -> io::Result<usize> {
    let len = u32::from_be_bytes(prefix) as usize;
    if len > MAX_MESSAGE_BYTES {
        return Err(protocol_error(format!(
            "bridge message of {len} bytes is over the {MAX_MESSAGE_BYTES}-byte limit"
        )));
    }
    Ok(len)
}

pub fn encode(bytes: &[u8]) -> io::Result<Vec<u8>> {
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Err(protocol_error(format!(
            "bridge message of {} bytes is over the {MAX_MESSAGE_BYTES}-byte limit",
            bytes.len()
        )));
    }
    let mut out = Vec::with_capacity(4 + bytes.len());
    out.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
    out.extend_from_slice(bytes);
    Ok(out)
}

/// Reads the next length prefix; Ok(None) when the peer closed cleanly between messages.
pub async fn read_len<R: AsyncRead + Unpin>(r: &mut R) -> io::Result<Option<usize>> {
    let mut prefix = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        let n = r.read(&mut prefix[got..]).await?;
        if n == 0 {
            return if got == 0 {
                Ok(None)
            } else {
                Err(protocol_error("bridge closed inside a length prefix".into()))
            };
        }
        got += n;
    }
    decode_len(prefix).map(Some)
}

pub async fn read_body<R: AsyncRead + Unpin>(r: &mut R, len: usize) -> io::Result<Vec<u8>> {
    let mut body = vec![0u8; len];
    r.read_exact(&mut body).await.map_err(|e| {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            protocol_error("bridge closed inside a message".into())
        } else {
            e
        }
    })?;
    Ok(body)
}

pub async fn read_message<R: AsyncRead + Unpin>(r: &mut R) -> io::Result<Option<Vec<u8>>> {
    match read_len(r).await? {
        None => Ok(None),
        Some(len) => read_body(r, len).await.map(Some),
    }
}

pub async fn write_message<W: AsyncWrite + Unpin>(w: &mut W, bytes: &[u8]) -> io::Result<()> {
    w.write_all(&encode(bytes)?).await
}

/// Opens one bridge connection and sends its hello.
pub async fn connect(socket: &Path, kind: Kind, hello: &Hello) -> io::Result<UnixStream> {
    let mut s = UnixStream::connect(socket).await.map_err(|e| {
        io::Error::new(e.kind(), format!("cannot connect to the FDSP bridge {}: {e}", socket.display()))
    })?;
    write_message(&mut s, &hello.to_json(kind)).await?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_length_prefix_is_big_endian_and_bounded() {
        assert_eq!(encode(b"abc").unwrap(), vec![0, 0, 0, 3, b'a', b'b', b'c']);
        assert_eq!(decode_len([0, 4, 0, 0]).unwrap(), MAX_MESSAGE_BYTES);
        assert_eq!(decode_len([0, 4, 0, 1]).unwrap_err().kind(), io::ErrorKind::InvalidData);
        assert!(decode_len([0xff; 4]).is_err());
        assert!(encode(&vec![0; MAX_MESSAGE_BYTES]).is_ok());
        assert!(encode(&vec![0; MAX_MESSAGE_BYTES + 1]).is_err());
    }

    #[tokio::test]
    async fn messages_are_read_back_and_truncation_is_an_error() {
        let mut wire = Vec::new();
        wire.extend(encode(b"one").unwrap());
        wire.extend(encode(b"").unwrap());
        wire.extend(encode(&[0xfd; 1000]).unwrap());
        let mut r = &wire[..];
        assert_eq!(read_message(&mut r).await.unwrap().unwrap(), b"one");
        assert_eq!(read_message(&mut r).await.unwrap().unwrap(), b"");
        assert_eq!(read_message(&mut r).await.unwrap().unwrap().len(), 1000);
        assert!(read_message(&mut r).await.unwrap().is_none(), "clean EOF");

        let mut cut = encode(&[0xfd; 1000]).unwrap();
        cut.pop();
        let mut r = &cut[..];
        assert!(read_message(&mut r).await.is_err(), "EOF inside a message");
        let mut r = &[0u8, 0][..];
        assert!(read_message(&mut r).await.is_err(), "EOF inside a prefix");
        let mut r = &[0x7f, 0xff, 0xff, 0xff, 1, 2][..];
        assert!(read_message(&mut r).await.is_err(), "a huge length is refused before reading");
    }

    #[test]
    fn the_hello_is_the_json_the_contract_names() {
        let h = Hello {
            session: "wt-7".into(),
            peer: "127.0.0.1:5555".into(),
            path: "/fdsp?cc=fixed&rateKbps=4000".into(),
            cc: "fixed",
            rate_kbps: Some(4000),
            max_datagram_bytes: 1181,
        };
        let v: serde_json::Value = serde_json::from_slice(&h.to_json(Kind::Unreliable)).unwrap();
        assert_eq!(
            v,
            json!({"kind":"unreliable","session":"wt-7","peer":"127.0.0.1:5555",
                   "path":"/fdsp?cc=fixed&rateKbps=4000","cc":"fixed","rateKbps":4000,"maxDatagramBytes":1181})
        );
        let v: serde_json::Value =
            serde_json::from_slice(&Hello { rate_kbps: None, cc: "cubic", ..h }.to_json(Kind::Reliable)).unwrap();
        assert_eq!(v["kind"], "reliable");
        assert_eq!(v["rateKbps"], serde_json::Value::Null);
    }
}
