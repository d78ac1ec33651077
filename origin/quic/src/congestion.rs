//! Congestion control per QUIC connection.
//!
//! quinn picks a connection's controller once, from the TransportConfig it was accepted with.
//! The controller wanted for a WebTransport session is only known later, when its CONNECT's
//! path (`/fdsp?cc=fixed&rateKbps=4000`) is parsed. So every connection gets a
//! `SwitchableController` that delegates to the chosen controller and rebuilds it when the
//! connection's `CcSwitch` changes (read on the next packet sent).
//!
//! `fixed` is ours and deliberately not TCP-friendly (for emulated links only): its window holds
//! a rate whatever the losses. Datagrams are additionally paced by the application (pacing.rs),
//! because quinn paces at 1.25 x window / RTT and a window alone does not hold a rate.

use quinn_proto::congestion::{
    Bbr, BbrConfig, Controller, ControllerFactory, Cubic, CubicConfig, NewReno, NewRenoConfig,
};
use quinn_proto::RttEstimator;
use std::any::Any;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const MIN_RATE_KBPS: u64 = 100;
pub const MAX_RATE_KBPS: u64 = 1_000_000;
/// `fixed` never uses an RTT below this: on loopback a 0.1 ms RTT would make a window of a few
/// bytes, clamped to the floor, and the rate would depend on the floor rather than on the rate.
const FIXED_MIN_RTT: Duration = Duration::from_millis(10);
/// The window never shrinks below this many full-size packets, so a low rate still makes progress.
const FIXED_MIN_PACKETS: u64 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcName {
    Cubic,
    NewReno,
    Bbr,
    Fixed,
}

impl CcName {
    pub const ALL_NAMES: &'static str = "cubic, newreno, bbr, fixed";

    pub fn parse(s: &str) -> Option<CcName> {
        match s {
            "cubic" => Some(CcName::Cubic),
            "newreno" => Some(CcName::NewReno),
            "bbr" => Some(CcName::Bbr),
            "fixed" => Some(CcName::Fixed),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CcName::Cubic => "cubic",
            CcName::NewReno => "newreno",
            CcName::Bbr => "bbr",
            CcName::Fixed => "fixed",
        }
    }

    fn to_u8(self) -> u8 {
        self as u8
    }

    fn from_u8(v: u8) -> CcName {
        match v {
            1 => CcName::NewReno,
            2 => CcName::Bbr,
            3 => CcName::Fixed,
            _ => CcName::Cubic,
        }
    }
}

/// Parses a rate in kbit/s, bounded to what the lab's links can mean.
pub fn parse_rate_kbps(s: &str) -> Result<u64, String> {
    let n: u64 = s
        .parse()
        .map_err(|_| format!("rateKbps must be a whole number of kbit/s, got {s:?}"))?;
    if !(MIN_RATE_KBPS..=MAX_RATE_KBPS).contains(&n) {
        return Err(format!("rateKbps must be {MIN_RATE_KBPS}..{MAX_RATE_KBPS}, got {n}"));
    }
    Ok(n)
}

/// What a WebTransport session asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionCc {
    pub name: CcName,
    /// Some only for `fixed`.
    pub rate_kbps: Option<u64>,
}

/// Reads `cc` and `rateKbps` from a CONNECT's query. No `cc` keeps the connection's current one
/// (from --h3-cc); `fixed` without `rateKbps` uses --fixed-rate-kbps. Other parameters (the
/// split carrier's pairToken/pairWith) are Node's business and are ignored here.
pub fn session_cc_from_query(
    query: Option<&str>,
    current: CcName,
    default_fixed_kbps: u64,
) -> Result<SessionCc, String> {
    let mut cc: Option<&str> = None;
    let mut rate: Option<&str> = None;
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let slot = match k {
            "cc" => &mut cc,
            "rateKbps" => &mut rate,
            _ => continue,
        };
        if slot.is_some() {
            return Err(format!("{k} is given twice"));
        }
        *slot = Some(v);
    }
    let name = match cc {
        None => current,
        Some(v) => CcName::parse(v)
            .ok_or_else(|| format!("unknown cc {v:?}: use one of {}", CcName::ALL_NAMES))?,
    };
    // A bad rate is refused even for a cc that would not use it: it is a mistake either way.
    let rate = rate.map(parse_rate_kbps).transpose()?;
    Ok(SessionCc {
        name,
        rate_kbps: (name == CcName::Fixed).then(|| rate.unwrap_or(default_fixed_kbps)),
    })
}

/// The controller a connection should use now; shared between the connection's tasks (which
/// write it) and its controller inside quinn (which reads it).
pub struct CcSwitch {
    name: AtomicU8,
    rate_kbps: AtomicU64,
}

impl CcSwitch {
    pub fn new(name: CcName, fixed_rate_kbps: u64) -> Arc<CcSwitch> {
        Arc::new(CcSwitch {
            name: AtomicU8::new(name.to_u8()),
            rate_kbps: AtomicU64::new(fixed_rate_kbps),
        })
    }
    pub fn name(&self) -> CcName {
        CcName::from_u8(self.name.load(Ordering::Relaxed))
    }
    pub fn rate_kbps(&self) -> u64 {
        self.rate_kbps.load(Ordering::Relaxed)
    }
    pub fn set(&self, cc: SessionCc) {
        if let Some(r) = cc.rate_kbps {
            self.rate_kbps.store(r, Ordering::Relaxed);
        }
        self.name.store(cc.name.to_u8(), Ordering::Relaxed);
    }
    pub fn set_rate_kbps(&self, kbps: u64) {
        self.rate_kbps.store(kbps, Ordering::Relaxed);
    }
}

fn build_controller(name: CcName, switch: &Arc<CcSwitch>, now: Instant, mtu: u16) -> Box<dyn Controller> {
    match name {
        CcName::Cubic => Box::new(Cubic::new(Arc::new(CubicConfig::default()), now, mtu)),
        CcName::NewReno => Box::new(NewReno::new(Arc::new(NewRenoConfig::default()), now, mtu)),
        CcName::Bbr => Box::new(Bbr::new(Arc::new(BbrConfig::default()), mtu)),
        CcName::Fixed => Box::new(FixedRateController { switch: switch.clone(), mtu, srtt: None }),
    }
}

/// Given to quinn in each connection's TransportConfig; one factory per connection.
pub struct SwitchableFactory {
    pub switch: Arc<CcSwitch>,
}

impl ControllerFactory for SwitchableFactory {
    fn build(self: Arc<Self>, now: Instant, current_mtu: u16) -> Box<dyn Controller> {
        let active = self.switch.name();
        Box::new(SwitchableController {
            inner: build_controller(active, &self.switch, now, current_mtu),
            switch: self.switch.clone(),
            active,
            mtu: current_mtu,
        })
    }
}

/// Delegates to the controller named by its CcSwitch; a change starts the new controller afresh
/// (it happens once, right after the CONNECT, when little has been sent).
pub struct SwitchableController {
    switch: Arc<CcSwitch>,
    active: CcName,
    inner: Box<dyn Controller>,
    mtu: u16,
}

impl SwitchableController {
    fn follow_switch(&mut self, now: Instant) {
        let wanted = self.switch.name();
        if wanted != self.active {
            self.inner = build_controller(wanted, &self.switch, now, self.mtu);
            self.active = wanted;
        }
    }
}

impl Controller for SwitchableController {
    fn on_sent(&mut self, now: Instant, bytes: u64, last_packet_number: u64) {
        self.follow_switch(now);
        self.inner.on_sent(now, bytes, last_packet_number)
    }
    fn on_ack(&mut self, now: Instant, sent: Instant, bytes: u64, app_limited: bool, rtt: &RttEstimator) {
        self.follow_switch(now);
        self.inner.on_ack(now, sent, bytes, app_limited, rtt)
    }
    fn on_end_acks(&mut self, now: Instant, in_flight: u64, app_limited: bool, largest: Option<u64>) {
        self.inner.on_end_acks(now, in_flight, app_limited, largest)
    }
    fn on_congestion_event(&mut self, now: Instant, sent: Instant, persistent: bool, lost_bytes: u64) {
        self.follow_switch(now);
        self.inner.on_congestion_event(now, sent, persistent, lost_bytes)
    }
    fn on_mtu_update(&mut self, new_mtu: u16) {
        self.mtu = new_mtu;
        self.inner.on_mtu_update(new_mtu)
    }
    fn window(&self) -> u64 {
        self.inner.window()
    }
    fn metrics(&self) -> quinn_proto::congestion::ControllerMetrics {
        self.inner.metrics()
    }
    fn clone_box(&self) -> Box<dyn Controller> {
        Box::new(SwitchableController {
            switch: self.switch.clone(),
            active: self.active,
            inner: self.inner.clone_box(),
            mtu: self.mtu,
        })
    }
    fn initial_window(&self) -> u64 {
        self.inner.initial_window()
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// window = rate x max(smoothed RTT, 10 ms), at least 4 packets; losses and ECN are ignored.
#[derive(Clone)]
pub struct FixedRateController {
    switch: Arc<CcSwitch>,
    mtu: u16,
    srtt: Option<Duration>,
}

/// The window `fixed` allows for a rate and an RTT (pure, for tests).
pub fn fixed_window(rate_kbps: u64, srtt: Option<Duration>, mtu: u16) -> u64 {
    let rtt = srtt.unwrap_or(FIXED_MIN_RTT).max(FIXED_MIN_RTT);
    let bytes_per_s = rate_kbps as u128 * 1000 / 8;
    let window = (bytes_per_s * rtt.as_micros() / 1_000_000) as u64;
    window.max(FIXED_MIN_PACKETS * mtu as u64)
}

impl Controller for FixedRateController {
    fn on_ack(&mut self, _now: Instant, _sent: Instant, _bytes: u64, _app_limited: bool, rtt: &RttEstimator) {
        self.srtt = Some(rtt.get());
    }
    fn on_congestion_event(&mut self, _now: Instant, _sent: Instant, _persistent: bool, _lost: u64) {}
    fn on_mtu_update(&mut self, new_mtu: u16) {
        self.mtu = new_mtu;
    }
    fn window(&self) -> u64 {
        fixed_window(self.switch.rate_kbps(), self.srtt, self.mtu)
    }
    fn clone_box(&self) -> Box<dyn Controller> {
        Box::new(self.clone())
    }
    fn initial_window(&self) -> u64 {
        fixed_window(self.switch.rate_kbps(), None, self.mtu)
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        for n in [CcName::Cubic, CcName::NewReno, CcName::Bbr, CcName::Fixed] {
            assert_eq!(CcName::parse(n.as_str()), Some(n));
            assert_eq!(CcName::from_u8(n.to_u8()), n);
        }
        assert_eq!(CcName::parse("reno"), None);
        assert_eq!(CcName::parse("CUBIC"), None);
    }

    #[test]
    fn rate_bounds_are_inclusive() {
        assert_eq!(parse_rate_kbps("100"), Ok(100));
        assert_eq!(parse_rate_kbps("1000000"), Ok(1_000_000));
        assert!(parse_rate_kbps("99").is_err());
        assert!(parse_rate_kbps("1000001").is_err());
        assert!(parse_rate_kbps("4e3").is_err());
        assert!(parse_rate_kbps("-5").is_err());
        assert!(parse_rate_kbps("").is_err());
    }

    #[test]
    fn a_connect_query_picks_the_controller() {
        let q = |s: &str| session_cc_from_query(Some(s), CcName::Cubic, 10_000);
        assert_eq!(q("cc=fixed&rateKbps=4000"), Ok(SessionCc { name: CcName::Fixed, rate_kbps: Some(4000) }));
        assert_eq!(q("cc=fixed"), Ok(SessionCc { name: CcName::Fixed, rate_kbps: Some(10_000) }));
        assert_eq!(q("cc=bbr&pairToken=0123456789abcdef"), Ok(SessionCc { name: CcName::Bbr, rate_kbps: None }));
        assert_eq!(q(""), Ok(SessionCc { name: CcName::Cubic, rate_kbps: None }));
        assert_eq!(
            session_cc_from_query(None, CcName::Fixed, 2000),
            Ok(SessionCc { name: CcName::Fixed, rate_kbps: Some(2000) })
        );
        assert!(q("cc=vegas").unwrap_err().contains("unknown cc"));
        assert!(q("cc=fixed&rateKbps=50").unwrap_err().contains("100..1000000"));
        assert!(q("cc=fixed&rateKbps=abc").is_err());
        assert!(q("cc=cubic&rateKbps=2000000").is_err());
        assert!(q("cc=cubic&cc=bbr").unwrap_err().contains("twice"));
    }

    #[test]
    fn fixed_window_holds_the_rate_over_the_rtt_with_floors() {
        // 8000 kbit/s = 1 MB/s; over 50 ms that is 50 000 bytes.
        assert_eq!(fixed_window(8000, Some(Duration::from_millis(50)), 1200), 50_000);
        // Loopback RTT: the 10 ms floor applies (10 000 bytes), not 0.1 ms.
        assert_eq!(fixed_window(8000, Some(Duration::from_micros(100)), 1200), 10_000);
        // 100 kbit/s over 10 ms is 125 bytes: the 4-packet floor applies.
        assert_eq!(fixed_window(100, None, 1200), 4800);
    }

    #[test]
    fn the_switch_changes_the_controller_on_the_next_packet() {
        let switch = CcSwitch::new(CcName::Cubic, 8000);
        let now = Instant::now();
        let mut c = Arc::new(SwitchableFactory { switch: switch.clone() }).build(now, 1200);
        let cubic_window = c.window();
        switch.set(SessionCc { name: CcName::Fixed, rate_kbps: Some(100) });
        assert_eq!(c.window(), cubic_window, "nothing changes before the next packet");
        c.on_sent(now, 1200, 1);
        assert_eq!(c.window(), 4800);
        // A loss does not shrink fixed's window.
        c.on_congestion_event(now, now, true, 12_000);
        assert_eq!(c.window(), 4800);
        switch.set_rate_kbps(80_000);
        assert_eq!(c.window(), 100_000);
    }
}
