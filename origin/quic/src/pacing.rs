//! Application pacing of datagrams for `fixed`: a token bucket in bytes. Pure (time is passed
//! in), so its arithmetic is tested without sleeping.
//!
//! Why: quinn paces packets at 1.25 x window / RTT, and a datagram that does not fit the window
//! waits in quinn's datagram queue, whose overflow drops the OLDEST datagram. Holding the rate
//! here keeps the queue short and lets Node's socket buffer be the queue (backpressure).

use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct TokenBucket {
    bytes_per_s: f64,
    capacity: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    /// `burst_bytes` is the most that may leave back to back (the contract: ≤ 4 datagrams).
    /// The bucket starts full.
    pub fn new(rate_kbps: u64, burst_bytes: u64, now: Instant) -> TokenBucket {
        TokenBucket {
            bytes_per_s: kbps_to_bytes_per_s(rate_kbps),
            capacity: burst_bytes as f64,
            tokens: burst_bytes as f64,
            last: now,
        }
    }

    pub fn set_rate_kbps(&mut self, rate_kbps: u64, now: Instant) {
        self.refill(now);
        self.bytes_per_s = kbps_to_bytes_per_s(rate_kbps);
    }

    pub fn set_burst_bytes(&mut self, burst_bytes: u64) {
        self.capacity = burst_bytes as f64;
        self.tokens = self.tokens.min(self.capacity);
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.bytes_per_s).min(self.capacity);
        self.last = now;
    }

    /// How long to wait before `bytes` may be sent; zero means now. A datagram larger than the
    /// burst waits for a full bucket rather than forever.
    pub fn wait_for(&mut self, bytes: usize, now: Instant) -> Duration {
        self.refill(now);
        let need = (bytes as f64).min(self.capacity);
        if self.tokens >= need {
            Duration::ZERO
        } else {
            Duration::from_secs_f64((need - self.tokens) / self.bytes_per_s)
        }
    }

    /// Spends the tokens of a datagram that was sent (may go below zero for an oversized one,
    /// which then delays the next ones: the average rate holds).
    pub fn take(&mut self, bytes: usize, now: Instant) {
        self.refill(now);
        self.tokens -= bytes as f64;
    }
}

fn kbps_to_bytes_per_s(kbps: u64) -> f64 {
    kbps as f64 * 1000.0 / 8.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_bucket_lets_a_burst_through_then_holds_the_rate() {
        let t0 = Instant::now();
        // 8000 kbit/s = 1 000 000 bytes/s; burst 4 x 1000 bytes.
        let mut b = TokenBucket::new(8000, 4000, t0);
        for _ in 0..4 {
            assert_eq!(b.wait_for(1000, t0), Duration::ZERO);
            b.take(1000, t0);
        }
        // The fifth waits 1000 bytes / 1 MB/s = 1 ms.
        assert_eq!(b.wait_for(1000, t0), Duration::from_millis(1));
        let t1 = t0 + Duration::from_millis(1);
        assert_eq!(b.wait_for(1000, t1), Duration::ZERO);
    }

    #[test]
    fn sending_for_a_second_moves_rate_plus_burst_bytes() {
        let t0 = Instant::now();
        let mut b = TokenBucket::new(4000, 4 * 1200, t0); // 500 000 bytes/s
        let mut now = t0;
        let mut sent = 0u64;
        while now < t0 + Duration::from_secs(1) {
            let w = b.wait_for(1200, now);
            if w.is_zero() {
                b.take(1200, now);
                sent += 1200;
            } else {
                now += w;
            }
        }
        let expected = 500_000 + 4800;
        assert!(sent.abs_diff(expected) <= 1200, "sent {sent}, expected about {expected}");
    }

    #[test]
    fn idle_time_never_saves_more_than_the_burst() {
        let t0 = Instant::now();
        let mut b = TokenBucket::new(1000, 2400, t0);
        b.take(2400, t0);
        let later = t0 + Duration::from_secs(60);
        b.take(2400, later);
        assert!(b.wait_for(1, later) > Duration::ZERO);
    }

    #[test]
    fn an_oversized_datagram_waits_for_a_full_bucket_and_its_debt_slows_the_next() {
        let t0 = Instant::now();
        let mut b = TokenBucket::new(8000, 1000, t0);
        assert_eq!(b.wait_for(3000, t0), Duration::ZERO);
        b.take(3000, t0);
        // 2000 bytes of debt + 1000 needed = 3 ms at 1 MB/s.
        assert_eq!(b.wait_for(1000, t0), Duration::from_millis(3));
    }

    #[test]
    fn a_rate_change_applies_from_now() {
        let t0 = Instant::now();
        let mut b = TokenBucket::new(8000, 1000, t0);
        b.take(1000, t0);
        b.set_rate_kbps(800, t0); // 100 000 bytes/s
        assert_eq!(b.wait_for(1000, t0), Duration::from_millis(10));
    }
}
