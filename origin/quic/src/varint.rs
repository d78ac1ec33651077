//! QUIC variable-length integers (RFC 9000 section 16): HTTP/3 datagrams start with one (the
//! quarter stream id) and WebTransport capsules are made of them.

pub const MAX: u64 = (1 << 62) - 1;

pub fn len(v: u64) -> usize {
    match v {
        0..=63 => 1,
        64..=16_383 => 2,
        16_384..=1_073_741_823 => 4,
        _ => 8,
    }
}

pub fn encode(v: u64, out: &mut Vec<u8>) {
    assert!(v <= MAX, "varint out of range: {v}");
    match len(v) {
        1 => out.push(v as u8),
        2 => out.extend_from_slice(&((v as u16) | 0x4000).to_be_bytes()),
        4 => out.extend_from_slice(&((v as u32) | 0x8000_0000).to_be_bytes()),
        _ => out.extend_from_slice(&(v | 0xc000_0000_0000_0000).to_be_bytes()),
    }
}

/// Returns the value and the bytes it took, or None if `buf` is too short.
pub fn decode(buf: &[u8]) -> Option<(u64, usize)> {
    let first = *buf.first()?;
    let n = 1usize << (first >> 6);
    if buf.len() < n {
        return None;
    }
    let mut v = (first & 0x3f) as u64;
    for b in &buf[1..n] {
        v = (v << 8) | *b as u64;
    }
    Some((v, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_at_every_length_boundary() {
        for (v, n) in [(0, 1), (63, 1), (64, 2), (16_383, 2), (16_384, 4), (1_073_741_823, 4), (1_073_741_824, 8), (MAX, 8)] {
            let mut out = Vec::new();
            encode(v, &mut out);
            assert_eq!(out.len(), n, "{v}");
            assert_eq!(decode(&out), Some((v, n)));
        }
        // RFC 9000 appendix A.1 examples.
        assert_eq!(decode(&[0x9d, 0x7f, 0x3e, 0x7d]), Some((494_878_333, 4)));
        assert_eq!(decode(&[0x7b, 0xbd]), Some((15_293, 2)));
        assert_eq!(decode(&[0x40]), None);
        assert_eq!(decode(&[]), None);
    }
}
