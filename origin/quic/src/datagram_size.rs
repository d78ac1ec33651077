//! Sizes and headers of HTTP/3 datagrams (RFC 9297) carrying FDSP frames.
//!
//! An HTTP/3 datagram is the CONNECT stream's quarter stream id (a varint) followed by the
//! payload. The FDSP frame therefore gets quinn's max_datagram_size() minus that varint, which
//! is what Node is told as maxDatagramBytes (and what it must split DATA frames to).

use crate::varint;

/// The prefix of every datagram of the session whose CONNECT came on `connect_stream_id`.
pub fn header(connect_stream_id: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(8);
    varint::encode(connect_stream_id / 4, &mut out);
    out
}

/// The largest FDSP frame one datagram can carry, given quinn's current limit (None: the peer
/// did not enable datagrams, so nothing fits).
pub fn max_fdsp_frame(quinn_max_datagram: Option<usize>, connect_stream_id: u64) -> usize {
    quinn_max_datagram
        .unwrap_or(0)
        .saturating_sub(varint::len(connect_stream_id / 4))
}

/// Splits a received datagram into (connect stream id of its session, payload).
pub fn split_received(datagram: &[u8]) -> Option<(u64, &[u8])> {
    let (quarter, n) = varint::decode(datagram)?;
    let stream_id = quarter.checked_mul(4)?;
    Some((stream_id, &datagram[n..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quarter_stream_id_costs_one_byte_for_early_sessions() {
        assert_eq!(header(0), vec![0]);
        assert_eq!(header(8), vec![2]);
        // Stream 256 -> quarter id 64 -> a 2-byte varint.
        assert_eq!(header(256), vec![0x40, 64]);
        assert_eq!(max_fdsp_frame(Some(1200), 0), 1199);
        assert_eq!(max_fdsp_frame(Some(1200), 256), 1198);
        assert_eq!(max_fdsp_frame(None, 0), 0);
        assert_eq!(max_fdsp_frame(Some(0), 0), 0);
    }

    #[test]
    fn a_received_datagram_names_its_session() {
        let mut d = header(4 * 70);
        d.extend_from_slice(&[0xfd, 1, 17]);
        assert_eq!(split_received(&d), Some((280, &[0xfd, 1, 17][..])));
        assert_eq!(split_received(&[]), None);
        assert_eq!(split_received(&[0x40]), None);
    }
}
